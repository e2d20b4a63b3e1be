/**
 * @module Proofs stay true: every active claim's TXT record is read again once a day (the minute cron checks the
 * claims due, each account's least recently checked first, within a budget per run). A check that finds the record
 * missing or changed counts as failed; one the resolver could not answer counts for nothing. The owner gets a mail at
 * the first failure; after `LAPSE_AFTER_FAILED_CHECKS` in a row (three daily checks: two days of grace) the claim
 * ends as a release does: the hostname answers 421, its custom hostnames are removed, and the owner gets a mail.
 */
import { createDb } from "../db/client";
import type { Website } from "../db/schema";
import { syncEdgeHost } from "../delivery/sync";
import { proofFailingMail, proofLapsedMail } from "../email/messages";
import type { Env } from "../env";
import { claimsToCheck, endLapsedWebsite, recordRecheck, verificationName } from "../models/websites";
import { checkDnsProof } from "./dns-proof";
import { mailClaimOwner } from "./owner-mail";

/** How often an active claim is checked again. */
export const ACTIVE_RECHECK_EVERY_MS = 24 * 60 * 60 * 1000;
/** Failed daily checks in a row after which an active claim ends. */
export const LAPSE_AFTER_FAILED_CHECKS = 3;
/** Active claims checked per minute: 36,000 a day, so up to that many proven websites are checked daily. */
export const ACTIVE_CHECKS_PER_RUN = 25;

async function recheck(env: Env, claim: Website, now: Date): Promise<void> {
  const db = createDb(env.DB);
  const check = await checkDnsProof(env, claim.hostname, claim.verificationToken);
  if (check.proven) return recordRecheck(db, claim, { problem: null, failedChecks: 0 }, now);
  if (check.unavailable) {
    return recordRecheck(db, claim, { problem: claim.checkProblem, failedChecks: claim.failedChecks }, now);
  }
  const failedChecks = claim.failedChecks + 1;
  const record = verificationName(claim.hostname);
  if (failedChecks < LAPSE_AFTER_FAILED_CHECKS) {
    await recordRecheck(db, claim, { problem: check.problem, failedChecks }, now);
    if (failedChecks === 1) {
      const left = LAPSE_AFTER_FAILED_CHECKS - failedChecks;
      await mailClaimOwner(env, db, claim.userId, (to) =>
        proofFailingMail(to, claim.hostname, record, check.problem, left),
      );
    }
    return;
  }
  if (!(await endLapsedWebsite(db, claim))) return;
  await syncEdgeHost(env, claim.userId, claim.hostname);
  await mailClaimOwner(env, db, claim.userId, (to) => proofLapsedMail(to, claim.hostname, record));
}

/** The minute cron's share: the active claims due for their daily check. */
export async function recheckActiveWebsites(env: Env, now = new Date()): Promise<void> {
  const checkedBefore = new Date(now.getTime() - ACTIVE_RECHECK_EVERY_MS);
  const due = await claimsToCheck(createDb(env.DB), "active", now, checkedBefore, ACTIVE_CHECKS_PER_RUN);
  for (const claim of due) {
    try {
      await recheck(env, claim, now);
    } catch (err) {
      console.error(`Checking the proof of ${claim.hostname} again failed; the next run tries again`, err);
    }
  }
}
