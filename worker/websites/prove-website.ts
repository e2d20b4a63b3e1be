/**
 * @module Proving a pending claim: its TXT record is checked (dns-proof.ts); when it holds the claim's token, the
 * claim becomes the hostname's active one, its delivery entries are written (an edge website is served from
 * then on) and, where configured, it is registered with Cloudflare for SaaS. When another account held the
 * hostname, the DNS now speaks for this one: the hostname moves, the previous holder's claim ends and they are told
 * by mail. The owner is mailed once when their claim becomes active. Asked for by the customer (`POST /api/websites/{hostname}/verify`) and by the minute cron for every
 * pending claim, shared fairly between accounts.
 */
import { createDb } from "../db/client";
import type { Website } from "../db/schema";
import { syncEdgeHost } from "../delivery/sync";
import { websiteActiveMail, websiteTakenOverMail } from "../email/messages";
import type { Env } from "../env";
import {
  activateWebsite,
  activeWebsiteAt,
  claimsToCheck,
  recordWebsiteCheck,
  takeOverWebsite,
  verificationName,
} from "../models/websites";
import { registerCustomHostnames } from "./custom-hostnames";
import { checkDnsProof } from "./dns-proof";
import { mailClaimOwner } from "./owner-mail";

export type Proof =
  /** Proven now or before; `delivered` is false when the delivery entries were left to the repairs. */
  | { outcome: "active"; website: Website; delivered: boolean }
  /** Not proven: the claim as it is now, with what the check found wanting. */
  | { outcome: "pending"; website: Website }
  /** Another account's proof of the hostname became active at the same moment. */
  | { outcome: "taken" };

export async function proveWebsite(env: Env, claim: Website, now = new Date()): Promise<Proof> {
  if (claim.status === "active") return { outcome: "active", website: claim, delivered: true };
  const db = createDb(env.DB);
  const check = await checkDnsProof(env, claim.hostname, claim.verificationToken);
  if (!check.proven) {
    await recordWebsiteCheck(db, claim.userId, claim.hostname, check.problem, now);
    return {
      outcome: "pending",
      website: { ...claim, checkedAt: now, checkProblem: check.problem },
    };
  }
  const holder = await activeWebsiteAt(db, claim.hostname);
  const previous = holder && holder.userId !== claim.userId ? holder : undefined;
  const website = previous
    ? await takeOverWebsite(db, claim.userId, previous, now)
    : await activateWebsite(db, claim.userId, claim.hostname, now);
  if (!website) {
    // Proven meanwhile by this account's own other check (the minute cron's, or a second click) is still proven.
    const current = await activeWebsiteAt(db, claim.hostname);
    if (current?.userId !== claim.userId) return { outcome: "taken" };
    return { outcome: "active", website: current, delivered: await syncEdgeHost(env, claim.userId, claim.hostname) };
  }
  let delivered = await syncEdgeHost(env, claim.userId, claim.hostname);
  if (previous) {
    // The previous holder's index entry and state (their edge websites) go; the host entry is the new holder's.
    delivered = (await syncEdgeHost(env, previous.userId, claim.hostname)) && delivered;
    await mailClaimOwner(env, db, previous.userId, (to) =>
      websiteTakenOverMail(to, claim.hostname, verificationName(claim.hostname)),
    );
  }
  await registerCustomHostnames(env, db, website);
  // Only the check whose update made the claim active gets here: one mail per proof, never one per check.
  await mailClaimOwner(env, db, claim.userId, (to) => websiteActiveMail(to, claim.hostname, website.mode === "edge"));
  return { outcome: "active", website, delivered };
}

/** How often the cron checks one pending claim again. */
export const RECHECK_EVERY_MS = 5 * 60_000;
/** Pending claims the cron checks per run: one DNS query each, well within an invocation's subrequests. */
export const CHECKS_PER_RUN = 25;

/** The minute cron's share: pending claims checked again, each account's least recently checked first. */
export async function recheckPendingWebsites(env: Env, now = new Date()): Promise<void> {
  const checkedBefore = new Date(now.getTime() - RECHECK_EVERY_MS);
  const due = await claimsToCheck(createDb(env.DB), "pending", now, checkedBefore, CHECKS_PER_RUN);
  for (const claim of due) {
    try {
      await proveWebsite(env, claim, now);
    } catch (err) {
      console.error(`Checking the claim of ${claim.hostname} failed; the next run tries again`, err);
    }
  }
}
