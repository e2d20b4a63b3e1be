/** @module User ids: 12 random bytes as 16 base64url characters. They are public (in snippets) and grant nothing. */
import { randomToken } from "./crypto";

export const newUserId = () => randomToken(12);

export const isUserId = (id: string) => /^[A-Za-z0-9_-]{16}$/.test(id);
