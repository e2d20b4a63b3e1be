/**
 * @module The delivery store's KV keys. `s:<user id>` holds a customer's state; `u:<user id>:<SHA-256 of the
 * normalised URL>` holds what one URL delivers. Hashing keeps every key at 83 bytes whatever the URL (a normalised
 * URL may be 2,048 characters, a visitor's far longer; KV takes keys of at most 512 bytes), and the prefix lets
 * a rebuild list one customer's entries. `e:<hostname>` says which customer a proven edge website belongs to and where its
 * origin is; `w:<user id>:<hostname>` lists a customer's edge websites (for deleting them with the customer).
 */
import { sha256Hex } from "../lib/crypto";

export const stateKey = (userId: string) => `s:${userId}`;

export const urlKeyPrefix = (userId: string) => `u:${userId}:`;

export async function urlKey(userId: string, normalizedUrl: string): Promise<string> {
  return urlKeyPrefix(userId) + (await sha256Hex(normalizedUrl));
}

/** The old store's one document per customer: a rebuild deletes it (it could hold up to 25 MiB). */
export const legacyDocumentKey = (userId: string) => `doc:${userId}`;

export const edgeHostKey = (hostname: string) => `e:${hostname}`;

/** Edge websites as the store held them before hostnames had to be proven: never read, deleted when met. */
export const legacyEdgeHostKey = (hostname: string) => `h:${hostname}`;

export const edgeHostIndexPrefix = (userId: string) => `w:${userId}:`;

export const edgeHostIndexKey = (userId: string, hostname: string) => edgeHostIndexPrefix(userId) + hostname;
