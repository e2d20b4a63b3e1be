/**
 * @module Billing period arithmetic, pure: monthly periods in UTC (Workers run in UTC, so date-fns' calendar months
 * are UTC months: Jan 31 + 1 month = the last day of February). billing/periods.ts moves customers through them.
 */
import { addMonths } from "date-fns";
import type { User } from "../db/schema";

export interface Period {
  start: Date;
  end: Date;
}

/** The first period that contains `now`, following on from `end`. */
export function nextPeriod(end: Date, now: Date): Period {
  let start = end;
  let next = addMonths(start, 1);
  while (next.getTime() <= now.getTime()) {
    start = next;
    next = addMonths(start, 1);
  }
  return { start, end: next };
}

/** A period from `start` to `end`, or one month when `end` is missing or not after `start`. */
export function periodFrom(start: Date, end: Date | null | undefined): Period {
  return { start, end: end && end.getTime() > start.getTime() ? end : addMonths(start, 1) };
}

export function periodEnded(user: User, now: Date): boolean {
  return user.billingPeriodEnd !== null && user.billingPeriodEnd.getTime() <= now.getTime();
}
