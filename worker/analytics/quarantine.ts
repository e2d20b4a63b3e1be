/**
 * @module The quarantine: a customer's analytics events set aside because folding them failed (fold.ts
 * `foldRangeIsolating`, P-1: one customer's rows that make a statement fail), so that everyone else's are folded the
 * same minute. Nothing is lost: the events are kept whole in `analytics_quarantine`, as the pending rows held them,
 * and go back into the fold as new pending rows, so after every pending row already there, and so with later
 * positions than any handoff already made (reducer.ts):
 * - automatically, a minute after the first failure, two after the second, and so on, `QUARANTINE_RETRIES` times,
 *   so a failure that passes (or a cause since removed) costs no one anything;
 * - after that only when an admin releases the customer (`releaseCustomer`, the admin overview shows who and why).
 * Page views the reducers already hold (the fold failed after handing them off) are marked `handed`: when they come
 * back, the fold does not hand them off again, and only the experiments' statements count them. The log says so
 * when a customer's events are first set aside and when they are kept for an admin, not every minute.
 */

/** Automatic returns into the fold before the events wait for an admin. */
export const QUARANTINE_RETRIES = 5;
const RETRY_AFTER_MS = 60_000;

/**
 * The events of customers ?3 (JSON array) in pending rows ?1 to ?2, per customer and pending row: so a quarantined
 * row is never larger than the pending row it came from (a range may hold 250,000 of one customer's views, far past
 * the 2 MB a D1 value may take; a pending row stays below it, record.ts and reducer-shards.ts).
 */
const SET_ASIDE = `INSERT INTO analytics_quarantine (user_id, reduced, views, events, attempts, reason, quarantined_at)
  SELECT user_id, reduced, sum(weight), json_group_array(json(event)), max(attempts),
    json_extract(?5, '$."' || user_id || '"'), ?6
  FROM (
    SELECT v.value ->> 'userId' AS user_id, p.seq, p.reduced,
      CASE WHEN p.reduced = 1 THEN v.value ->> 'n' ELSE 1 END AS weight,
      coalesce(v.value ->> 'quarantines', 0) + 1 AS attempts,
      json_set(CASE WHEN p.reduced = 0 AND ?4 THEN json_set(v.value, '$.handed', 1) ELSE v.value END,
        '$.quarantines', coalesce(v.value ->> 'quarantines', 0) + 1) AS event
    FROM analytics_pending p, json_each(p.events) v
    WHERE p.seq BETWEEN ?1 AND ?2 AND (v.value ->> 'userId') IN (SELECT value FROM json_each(?3))
  )
  GROUP BY user_id, seq
  ORDER BY seq
  RETURNING user_id AS userId, views, attempts`;

/** The pending rows without them; a row left empty goes. */
const WITHOUT_THEM = `UPDATE analytics_pending SET
    events = (SELECT json_group_array(json(v.value)) FROM json_each(analytics_pending.events) v
      WHERE (v.value ->> 'userId') NOT IN (SELECT value FROM json_each(?3))),
    views = (SELECT coalesce(sum(CASE WHEN analytics_pending.reduced = 1 THEN v.value ->> 'n' ELSE 1 END), 0)
      FROM json_each(analytics_pending.events) v WHERE (v.value ->> 'userId') NOT IN (SELECT value FROM json_each(?3)))
  WHERE seq BETWEEN ?1 AND ?2
    AND EXISTS (SELECT 1 FROM json_each(events) v WHERE (v.value ->> 'userId') IN (SELECT value FROM json_each(?3)))`;

const EMPTIED = `DELETE FROM analytics_pending WHERE seq BETWEEN ?1 AND ?2 AND json_array_length(events) = 0`;

/**
 * Sets the events of `failing` (customer → why their part failed) in rows `range` aside, in one transaction;
 * `handed`: the range's page views are held by the reducers already. Answers the views set aside.
 */
export async function setAside(
  d1: D1Database,
  range: { from: number; to: number },
  failing: Map<string, string>,
  { handed, now }: { handed: boolean; now: Date },
): Promise<number> {
  const ids = JSON.stringify([...failing.keys()]);
  const [aside] = await d1.batch<{ userId: string; views: number; attempts: number }>([
    d1
      .prepare(SET_ASIDE)
      .bind(range.from, range.to, ids, handed ? 1 : 0, JSON.stringify(Object.fromEntries(failing)), now.getTime()),
    d1.prepare(WITHOUT_THEM).bind(range.from, range.to, ids),
    d1.prepare(EMPTIED).bind(range.from, range.to),
  ]);
  const rows = aside!.results;
  for (const [userId, reason] of failing) {
    const attempts = Math.max(0, ...rows.filter((r) => r.userId === userId).map((r) => r.attempts));
    if (attempts === 1) {
      console.warn(`Analytics: customer ${userId}'s events set aside, their fold fails: ${reason}`);
    } else if (attempts === QUARANTINE_RETRIES) {
      console.warn(
        `Analytics: customer ${userId}'s events kept for an admin after ${attempts} failed folds: ${reason}`,
      );
    }
  }
  return rows.reduce((views, row) => views + row.views, 0);
}

const RELEASE = (where: string) => [
  `INSERT INTO analytics_pending (batch, views, events, reduced)
    SELECT 'quarantine-' || id, views, events, reduced FROM analytics_quarantine WHERE ${where} ORDER BY id`,
  `DELETE FROM analytics_quarantine WHERE ${where}`,
];

/** Returns into the fold the events whose next automatic try is due (`now`). */
export async function releaseDue(d1: D1Database, now: Date): Promise<void> {
  const due = `attempts < ${QUARANTINE_RETRIES} AND quarantined_at + attempts * ${RETRY_AFTER_MS} <= ?1`;
  await d1.batch(RELEASE(due).map((sql) => d1.prepare(sql).bind(now.getTime())));
}

/** An admin's release: all the customer's events go back into the fold; answers how many views. */
export async function releaseCustomer(d1: D1Database, userId: string): Promise<number> {
  const [released] = await d1.batch<{ views: number }>([
    d1.prepare(`SELECT coalesce(sum(views), 0) AS views FROM analytics_quarantine WHERE user_id = ?1`).bind(userId),
    ...RELEASE("user_id = ?1").map((sql) => d1.prepare(sql).bind(userId)),
  ]);
  return released!.results[0]?.views ?? 0;
}
