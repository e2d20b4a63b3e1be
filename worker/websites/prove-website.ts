/**
 * @module Proving a pending claim: its TXT record is checked (dns-proof.ts); when it holds the claim's token, the
 * claim becomes the hostname's active one, its delivery entries are written (an edge website is served from
 * then on) and, where configured, it is registered with Cloudflare for SaaS. Asked for by the customer
 * (`POST /api/websites/{hostname}/verify`) and by the minute cron for every pending claim.
 */
import { createDb } from "../db/client";
import type { Website } from "../db/schema";
import { syncEdgeHost } from "../delivery/sync";
import type { Env } from "../env";
import { activateWebsite, activeWebsiteAt, claimsToCheck, recordWebsiteCheck } from "../models/websites";
import { registerCustomHostnames } from "./custom-hostnames";
import { checkDnsProof } from "./dns-proof";

export type Proof =
  /** Proven now or before; `delivered` is false when the delivery entries were left to the repairs. */
  | { outcome: "active"; website: Website; delivered: boolean }
  /** Not proven: the claim as it is now, with what the check found wanting. */
  | { outcome: "pending"; website: Website }
  /** Another account proved the hostname first. */
  | { outcome: "taken" };

export async function proveWebsite(env: Env, claim: Website, now = new Date()): Promise<Proof> {
  if (claim.status === "active") return { outcome: "active", website: claim, delivered: true };
  const db = createDb(env.DB);
  const holder = await activeWebsiteAt(db, claim.hostname);
  if (holder && holder.userId !== claim.userId) return { outcome: "taken" };
  const check = await checkDnsProof(env, claim.hostname, claim.verificationToken);
  if (!check.proven) {
    await recordWebsiteCheck(db, claim.userId, claim.hostname, check.problem, now);
    return {
      outcome: "pending",
      website: { ...claim, checkedAt: now, checkProblem: check.problem },
    };
  }
  const website = await activateWebsite(db, claim.userId, claim.hostname, now);
  if (!website) return { outcome: "taken" };
  const delivered = await syncEdgeHost(env, claim.userId, claim.hostname);
  await registerCustomHostnames(env, db, website);
  return { outcome: "active", website, delivered };
}

/** How often the cron checks one pending claim again. */
export const RECHECK_EVERY_MS = 5 * 60_000;
/** Claims the cron checks per run: one DNS query each, well within an invocation's subrequests. */
export const CHECKS_PER_RUN = 25;

/** The minute cron's share: pending claims checked again, least recently checked first. */
export async function recheckPendingWebsites(env: Env, now = new Date()): Promise<void> {
  const due = await claimsToCheck(createDb(env.DB), now, new Date(now.getTime() - RECHECK_EVERY_MS), CHECKS_PER_RUN);
  for (const claim of due) {
    try {
      await proveWebsite(env, claim, now);
    } catch (err) {
      console.error(`Checking the claim of ${claim.hostname} failed; the next run tries again`, err);
    }
  }
}
