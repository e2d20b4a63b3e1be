/**
 * @module The minute cron's publishing (docs/publishing.md): every mapping whose publish or unpublish time has
 * come changes, and its URL's delivery entry is written, within a minute of the time. Bounded per run; what a run
 * leaves (more than RUN_LIMIT due at once) the next run takes, earliest first.
 */
import { sql } from "drizzle-orm";
import { createDb, type Db } from "../db/client";
import { urlMappings } from "../db/schema";
import type { Env } from "../env";
import { publishContentVersion, writeUrl } from "./sync";

const PAGE = 100;
// Each schedule writes one KV entry; KV allows 1,000 operations per invocation, with room left for retries.
const RUN_LIMIT = 400;
/** URL entries written at once. */
const SYNC_CONCURRENCY = 10;

export async function runDueSchedules(env: Env, now = new Date()): Promise<number> {
  const db = createDb(env.DB);
  let changed = 0;
  for (;;) {
    // Each call may publish `limit` and unpublish as many.
    const limit = Math.min(PAGE, Math.floor((RUN_LIMIT - changed) / 2));
    if (limit === 0) return changed;
    const { published, unpublished } = await applyDueSchedules(db, now, limit);
    const urls = [...published, ...unpublished];
    for (let i = 0; i < urls.length; i += SYNC_CONCURRENCY) {
      // A failed write goes to the repairs (writeUrl), as for any change.
      await Promise.all(urls.slice(i, i + SYNC_CONCURRENCY).map((m) => writeUrl(env, m.userId, m.normalizedUrl)));
    }
    // One new content version per customer, after all their URLs (KV takes one write a second to their state).
    const customers = [...new Set(urls.map((m) => m.userId))];
    for (let i = 0; i < customers.length; i += SYNC_CONCURRENCY) {
      await Promise.all(customers.slice(i, i + SYNC_CONCURRENCY).map((userId) => publishContentVersion(env, userId)));
    }
    changed += urls.length;
    if (published.length < limit && unpublished.length < limit) return changed;
  }
}

/**
 * Carries out up to `limit` schedules that are due at `now`: publishes the drafts whose publish time has come,
 * then unpublishes the mappings whose unpublish time has come, earliest first (a partial index each). Answers the
 * customer and normalised URL of each mapping it changed, for the delivery store.
 */
async function applyDueSchedules(db: Db, now: Date, limit: number) {
  const due = (column: typeof urlMappings.publishAt | typeof urlMappings.unpublishAt) =>
    sql`${urlMappings.id} in (select id from ${urlMappings} where ${column} <= ${now.getTime()} order by ${column} limit ${limit})`;
  const changed = { userId: urlMappings.userId, normalizedUrl: urlMappings.normalizedUrl };
  const [published, unpublished] = await db.batch([
    db
      .update(urlMappings)
      .set({ publishedAt: sql`${urlMappings.publishAt}`, publishAt: null, changedBy: "schedule" })
      .where(due(urlMappings.publishAt))
      .returning(changed),
    db
      .update(urlMappings)
      .set({ publishedAt: null, unpublishAt: null, changedBy: "schedule" })
      .where(due(urlMappings.unpublishAt))
      .returning(changed),
  ]);
  return { published, unpublished };
}
