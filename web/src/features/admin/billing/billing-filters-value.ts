/** @module The billing dashboard's filter fields and the list query they stand for. */
import { endOfDay, startOfDay } from "date-fns";
import type { TransactionQuery } from "@/queries/admin/billing";

export interface BillingFilters {
  startDate: Date | undefined;
  endDate: Date | undefined;
  /** Payment status, a case-insensitive substring on the server. */
  status: string;
  /** Payer email, a case-insensitive substring on the server. */
  email: string;
}

export const NO_FILTERS: BillingFilters = { startDate: undefined, endDate: undefined, status: "", email: "" };

/**
 * The query for the fields: the start date from the first millisecond of its day, the end date up to the
 * last millisecond of its day (both in the browser's time zone, sent as ISO); blank text is no filter.
 * Only the present filters are keys, so the query key stays the same for the same filters.
 */
export function toTransactionQuery({ startDate, endDate, status, email }: BillingFilters): TransactionQuery {
  const query: TransactionQuery = {};
  if (startDate) query.startDate = startOfDay(startDate).toISOString();
  if (endDate) query.endDate = endOfDay(endDate).toISOString();
  if (status.trim()) query.status = status.trim();
  if (email.trim()) query.email = email.trim();
  return query;
}
