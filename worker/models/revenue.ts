/**
 * @module Revenue (SPEC.md §5): completed transactions (case-insensitive) that have a receivedAt date; non-numeric
 * amounts count 0; the last 7 days up to now, and the current calendar year (UTC). Only our receiver's payments in
 * the billing currency count, and a payment refunded in full or reversed counts no more. Summed in SQL, in cents.
 */
import { and, gte, isNotNull, lte, or, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { paypalTransactions } from "../db/schema";
import { takenBack } from "./transactions";

const DAY_MS = 86_400_000;

/** Whose money counts, in what currency: our PayPal receiver (email and/or merchant id) and the billing currency. */
export interface RevenueScope {
  currency: string;
  receiverEmail: string | null;
  receiverId: string | null;
}

const t = paypalTransactions;
/** A plain decimal amount: digits with at most one point. */
const numericAmount = sql`(trim(${t.amount}) glob '[0-9]*' and trim(${t.amount}) not glob '*[^0-9.]*'
  and trim(${t.amount}) not glob '*.*.*')`;

function ourReceiver(scope: RevenueScope) {
  return or(
    scope.receiverEmail ? sql`lower(${t.receiverEmail}) = ${scope.receiverEmail}` : undefined,
    scope.receiverId ? sql`${t.receiverId} = ${scope.receiverId}` : undefined,
  );
}

async function completedRevenue(db: Db, scope: RevenueScope, from: Date, to: Date): Promise<number> {
  const receiver = ourReceiver(scope);
  if (!receiver) return 0;
  const [row] = await db
    .select({
      cents: sql<number>`coalesce(sum(case when ${numericAmount}
        then cast(round(cast(trim(${t.amount}) as real) * 100) as integer) else 0 end), 0)`,
    })
    .from(t)
    .where(
      and(
        isNotNull(t.receivedAt),
        gte(t.receivedAt, from),
        lte(t.receivedAt, to),
        sql`lower(${t.paymentStatus}) = 'completed'`,
        sql`upper(${t.currency}) = ${scope.currency}`,
        receiver,
        sql`not ${takenBack(t)}`,
      ),
    );
  return (row?.cents ?? 0) / 100;
}

export async function revenue(db: Db, scope: RevenueScope, now = new Date()) {
  const yearStart = new Date(Date.UTC(now.getUTCFullYear(), 0, 1));
  const [last7Days, currentYear] = await Promise.all([
    completedRevenue(db, scope, new Date(now.getTime() - 7 * DAY_MS), now),
    completedRevenue(db, scope, yearStart, now),
  ]);
  return { revenueLast7Days: last7Days, revenueCurrentYear: currentYear, currency: scope.currency };
}
