/**
 * @module Page views and goals that could not be counted, per UTC day and reason (`analytics_losses`): the one place
 * that writes and reads them. Losses are rare (a queue outage, a dead-letter replay after the ledger's window), so a
 * write per loss costs nothing per page view; admins see the last days on their overview.
 */
import { desc, gte, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { analyticsLosses } from "../db/schema";

export type LossReason = (typeof analyticsLosses.$inferSelect)["reason"];

/** How many days of losses the admin's overview shows (today included). */
export const LOSS_DAYS_SHOWN = 7;

/** Adds `items` to the day's count for `reason`. */
export async function recordLoss(db: Db, day: string, reason: LossReason, items: number): Promise<void> {
  if (items <= 0) return;
  await db
    .insert(analyticsLosses)
    .values({ day, reason, items })
    .onConflictDoUpdate({
      target: [analyticsLosses.day, analyticsLosses.reason],
      set: { items: sql`${analyticsLosses.items} + ${items}` },
    });
}

/** The losses of the days from `fromDay` on, newest first. */
export async function recentLosses(db: Db, fromDay: string) {
  return db
    .select({ day: analyticsLosses.day, reason: analyticsLosses.reason, items: analyticsLosses.items })
    .from(analyticsLosses)
    .where(gte(analyticsLosses.day, fromDay))
    .orderBy(desc(analyticsLosses.day), analyticsLosses.reason);
}
