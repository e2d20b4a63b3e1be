/**
 * @module The hot path's share of the daily cron: raw analytics past their window leave D1 (and legacy raw rows
 * move to R2), and delivery store repairs that no analytics batch has carried out yet are carried out. Each step
 * is bounded, and a failing one is logged without stopping the others or the rest of the cron.
 */
import { archiveLegacyRows, purgeRawWindow, purgeVisitorDays } from "./analytics/retention";
import { drainRepairs, REPAIRS_PER_CRON } from "./delivery/repairs";
import type { Env } from "./env";
import { runIndependentSteps } from "./lib/independent-steps";

export async function runHotPathHousekeeping(env: Env, now: Date): Promise<void> {
  await runIndependentSteps([
    ["Purging the raw analytics window", () => purgeRawWindow(env, now)],
    ["Purging past days' visitor counts", () => purgeVisitorDays(env, now)],
    ["Archiving legacy analytics rows", () => archiveLegacyRows(env)],
    ["Draining delivery repairs", () => drainRepairs(env, REPAIRS_PER_CRON)],
  ]);
}
