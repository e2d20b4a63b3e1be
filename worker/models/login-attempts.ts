/** @module Every login attempt, kept for the record. */
import type { Db } from "../db/client";
import { loginAttempts } from "../db/schema";

export async function recordLoginAttempt(
  db: Db,
  attempt: { userId: string | null; success: boolean; ipAddress: string | null; userAgent: string | null },
) {
  await db.insert(loginAttempts).values(attempt);
}
