/**
 * @module The customers of one range of pending rows, loaded once before anything is counted (count.ts `loadRange`):
 * their limits and period counters (to see who reaches a limit with this range), and their billing brought up to
 * now first: a period that has ended is moved on (billing/periods.ts), so the range counts into the period it
 * belongs to.
 */
import { billingDue, settleBilling } from "../billing/periods";
import { createDb } from "../db/client";
import type { Env } from "../env";
import { customersWithUsage, type DeliveryLimitState } from "../models/limits";

/** The batch's customers that exist, by id, as they are when counting starts. */
export async function loadBatchCustomers(
  env: Env,
  userIds: string[],
  now: Date,
): Promise<Map<string, DeliveryLimitState>> {
  const db = createDb(env.DB);
  const rows = await customersWithUsage(db, userIds);
  const due = rows.filter((row) => billingDue(row.user, now));
  for (const row of due) await settleBilling(env, row.user, now);
  const settled = await customersWithUsage(
    db,
    due.map((row) => row.user.id),
  );
  return new Map([...rows, ...settled].map((row) => [row.user.id, row.usage]));
}
