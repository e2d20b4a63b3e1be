/**
 * @module Revenue (SPEC.md §5): completed transactions (case-insensitive) that have a receivedAt date;
 * non-numeric amounts count 0; the last 7 days up to now, and the current calendar year (UTC).
 */
import { and, gte, isNotNull, lte, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { paypalTransactions } from "../db/schema";
import { amountValue } from "./transactions";

const DAY_MS = 86_400_000;

async function completedRevenue(db: Db, from: Date, to: Date): Promise<number> {
  const rows = await db
    .select({ amount: paypalTransactions.amount })
    .from(paypalTransactions)
    .where(
      and(
        isNotNull(paypalTransactions.receivedAt),
        gte(paypalTransactions.receivedAt, from),
        lte(paypalTransactions.receivedAt, to),
        sql`lower(${paypalTransactions.paymentStatus}) = 'completed'`,
      ),
    );
  const cents = rows.reduce((sum, r) => sum + Math.round((amountValue(r.amount) ?? 0) * 100), 0);
  return cents / 100;
}

export async function revenue(db: Db, now = new Date()) {
  const yearStart = new Date(Date.UTC(now.getUTCFullYear(), 0, 1));
  const [last7Days, currentYear] = await Promise.all([
    completedRevenue(db, new Date(now.getTime() - 7 * DAY_MS), now),
    completedRevenue(db, yearStart, now),
  ]);
  return { revenueLast7Days: last7Days, revenueCurrentYear: currentYear };
}
