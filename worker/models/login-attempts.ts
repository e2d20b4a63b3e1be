/** @module Every login attempt, kept for the record for `LOGIN_ATTEMPT_TTL_MS`, then purged by the daily cron. */
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { loginAttempts } from "../db/schema";

export const LOGIN_ATTEMPT_TTL_MS = 90 * 24 * 60 * 60 * 1000;
const PURGE_ROWS = 1_000;
/** Rows one daily run may delete: far above the sign-ins of a day, so the table stays about 90 days long. */
const PURGE_ROWS_PER_RUN = 50_000;

export async function recordLoginAttempt(
  db: Db,
  attempt: { userId: string | null; success: boolean; ipAddress: string | null; userAgent: string | null },
) {
  await db.insert(loginAttempts).values(attempt);
}

/**
 * Deletes attempts made before `before`, oldest first. Ids grow with time, so each step reads only the oldest
 * rows (by id, no index on the time needed) and stops at the first young one. Answers how many went.
 */
export async function purgeLoginAttempts(db: Db, before: Date): Promise<number> {
  let purged = 0;
  while (purged < PURGE_ROWS_PER_RUN) {
    const deleted = await db
      .delete(loginAttempts)
      .where(
        sql`${loginAttempts.id} IN (SELECT id FROM (SELECT id, created_at FROM login_attempts ORDER BY id LIMIT ${PURGE_ROWS})
          WHERE created_at < ${before.getTime()})`,
      )
      .returning({ id: loginAttempts.id });
    purged += deleted.length;
    if (deleted.length < PURGE_ROWS) return purged;
  }
  return purged;
}
