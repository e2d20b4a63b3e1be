/**
 * @module Mails that could not be sent (`mail_failures`): the one place that writes and reads them. Bounded: each
 * insert keeps only the newest `MAIL_FAILURES_KEPT`, so the table never grows with traffic. A failure of the
 * transport itself (`blocksMail`) answers the mail requests of the next `MAIL_OUTAGE_MS` with "We could not send
 * the email" instead of "sent"; storing or removing an SMTP configuration ends that at once.
 */
import { and, desc, eq, gt, sql } from "drizzle-orm";
import type { MailKind } from "#contract/responses";
import type { Db } from "../db/client";
import { mailFailures } from "../db/schema";
import { maskEmail } from "../lib/mask-email";

/** Rows kept; older ones are deleted by the insert that passes this. */
export const MAIL_FAILURES_KEPT = 50;
/** How many the admin overview lists. */
export const MAIL_FAILURES_SHOWN = 10;
/** How long after a transport failure mail requests are told the mail cannot be sent, without trying. */
export const MAIL_OUTAGE_MS = 2 * 60_000;
/** A server's answer is cut here (the transports already cut theirs at 200 characters of the reply). */
const ERROR_MAX_CHARS = 500;

export interface NewMailFailure {
  kind: MailKind;
  to: string;
  error: string;
  blocksMail: boolean;
}

export async function recordMailFailure(db: Db, failure: NewMailFailure, now = Date.now()): Promise<void> {
  await db.insert(mailFailures).values({
    at: new Date(now),
    kind: failure.kind,
    recipient: maskEmail(failure.to),
    error: failure.error.slice(0, ERROR_MAX_CHARS),
    blocksMail: failure.blocksMail,
  });
  const [oldestKept] = await db
    .select({ id: mailFailures.id })
    .from(mailFailures)
    .orderBy(desc(mailFailures.id))
    .limit(1)
    .offset(MAIL_FAILURES_KEPT - 1);
  if (oldestKept) await db.delete(mailFailures).where(sql`${mailFailures.id} < ${oldestKept.id}`);
}

/** The newest failures, newest first. */
export async function latestMailFailures(db: Db, limit = MAIL_FAILURES_SHOWN) {
  const rows = await db
    .select({
      at: mailFailures.at,
      kind: mailFailures.kind,
      recipient: mailFailures.recipient,
      error: mailFailures.error,
    })
    .from(mailFailures)
    .orderBy(desc(mailFailures.id))
    .limit(limit);
  return rows.map((row) => ({ ...row, at: row.at.toISOString() }));
}

/** When the transport failed within the last `MAIL_OUTAGE_MS`: the time mail requests may be tried again. */
export async function mailOutageUntil(db: Db, now = Date.now()): Promise<number | null> {
  const [latest] = await db
    .select({ at: mailFailures.at })
    .from(mailFailures)
    .where(and(eq(mailFailures.blocksMail, true), gt(mailFailures.at, new Date(now - MAIL_OUTAGE_MS))))
    .orderBy(desc(mailFailures.at))
    .limit(1);
  return latest ? latest.at.getTime() + MAIL_OUTAGE_MS : null;
}

/** A new or removed transport: earlier transport failures no longer hold mail back (they stay listed). */
export async function endMailOutage(db: Db): Promise<void> {
  await db.update(mailFailures).set({ blocksMail: false }).where(eq(mailFailures.blocksMail, true));
}
