/**
 * @module Sending webhook events (docs/webhooks.md): claim due deliveries, sign each body with its webhook's secret,
 * POST it (10 s timeout, no redirects followed), and record what came of it. A 2xx answer delivers; anything else
 * is retried after 1 min, 5 min, 30 min, 2 h and 12 h, and the sixth failure gives up ("failed").
 *
 * Two senders run: the minute cron (`sendDueWebhooks`) for everything due, and the customer's own mapping change
 * (webhooks/after-change.ts) for their events within seconds. Claims keep them from sending one delivery twice at once.
 */
import { createDb, type Db } from "../db/client";
import type { Env } from "../env";
import { openSecret, secretKeys, type SecretKeys } from "../lib/crypto";
import {
  claimDueDeliveries,
  recordAttempts,
  resealWebhookSecret,
  webhookTargets,
  type AttemptRecord,
  type ClaimedDelivery,
  type ClaimScope,
} from "../models/webhooks";
import { signatureHeader, SIGNATURE_HEADER } from "./sign";
import { WEBHOOK_PROBLEMS, webhookUrlProblem } from "./target";

const MINUTE = 60_000;

/** The wait after the first, second, … failed attempt; one attempt more than delays in all. */
export const RETRY_DELAYS_MS = [1, 5, 30, 120, 720].map((minutes) => minutes * MINUTE);
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** Attempts at once: a Worker keeps at most six connections open. */
export const CONCURRENCY = 6;
/**
 * How long a claim holds: longer than a batch can take (50 attempts, six at a time, each at most 10 s), so that
 * only a sender that died leaves its deliveries to the next one.
 */
export const LEASE_MS = 5 * MINUTE;
/** Deliveries one sender claims at once. */
export const BATCH_SIZE = 50;
/** The minute cron's deliveries per run: 4 batches, well within one invocation's subrequests (docs/scaling.md). */
export const CRON_BATCHES = 4;
/**
 * One customer's deliveries per batch of the cron, so at most 20 a run (a minute) whatever they have due: a burst
 * of changes waits its turn, recorded as pending, and never fills the run of everyone else (P-10).
 */
export const PER_ACCOUNT_PER_BATCH = 5;
/** Failed attempts in a row after which a webhook's failures are no longer retried (P-10). */
export const FAILING_TARGET_ATTEMPTS = 10;

export interface SendOptions extends ClaimScope {
  limit: number;
  now?: Date;
}

export interface SendResult {
  attempted: number;
  delivered: number;
}

/** Claims, sends and records up to `limit` due deliveries. */
export async function sendDue(env: Env, { limit, now = new Date(), ...scope }: SendOptions): Promise<SendResult> {
  const db = createDb(env.DB);
  const leaseUntil = new Date(now.getTime() + LEASE_MS);
  const claimed = await claimDueDeliveries(db, now, leaseUntil, limit, scope);
  return sendClaimed(env, db, claimed, now, leaseUntil);
}

/** The minute cron's sending: batches until nothing is due or CRON_BATCHES are sent. Never throws. */
export async function sendDueWebhooks(env: Env, now = new Date()): Promise<SendResult> {
  const total = { attempted: 0, delivered: 0 };
  try {
    for (let i = 0; i < CRON_BATCHES; i++) {
      const result = await sendDue(env, { limit: BATCH_SIZE, now, perAccount: PER_ACCOUNT_PER_BATCH });
      total.attempted += result.attempted;
      total.delivered += result.delivered;
      // A batch short of BATCH_SIZE may be one customer's share only: the next one takes others', or nothing.
      if (result.attempted === 0) break;
    }
  } catch (err) {
    console.error("Sending webhooks failed:", err instanceof Error ? err.message : err);
  }
  return total;
}

/** Sends deliveries this sender has claimed until `leaseUntil`, and records each attempt. */
export async function sendClaimed(
  env: Env,
  db: Db,
  claimed: ClaimedDelivery[],
  now: Date,
  leaseUntil: Date,
): Promise<SendResult> {
  if (claimed.length === 0) return { attempted: 0, delivered: 0 };
  const keys = secretKeys(env);
  const targets = await webhookTargets(db, [...new Set(claimed.map((d) => d.webhookId))]);
  const secrets = new Map(
    targets.map((t) => {
      const secret = openWebhookSecret(db, keys, t);
      // Awaited by each attempt, which reports a failure; this only keeps an unused one from being unhandled.
      secret.catch(() => undefined);
      return [t.id, { url: t.url, secret, failing: t.consecutiveFailures >= FAILING_TARGET_ATTEMPTS }];
    }),
  );
  const result = { attempted: 0, delivered: 0 };
  // Recorded round by round, so that a sender stopped midway (waitUntil's time is up) loses one round at most.
  for (let i = 0; i < claimed.length; i += CONCURRENCY) {
    const outcomes = await Promise.all(
      claimed.slice(i, i + CONCURRENCY).map(async (delivery) => {
        const target = secrets.get(delivery.webhookId);
        // The webhook was deleted after the claim: its deliveries went with it.
        if (!target) return null;
        // The clock of the attempt: `now` as given (a controlled clock in tests), or later when the batch took time.
        const at = new Date(Math.max(now.getTime(), Date.now()));
        const outcome = await attempt(env, delivery, target, at);
        return { ...record(delivery, outcome, at, leaseUntil, target.failing), webhookId: delivery.webhookId };
      }),
    );
    const records = outcomes.filter((r) => r !== null);
    await recordAttempts(db, records);
    result.attempted += records.length;
    result.delivered += records.filter((r) => r.status === "delivered").length;
  }
  return result;
}

/** The webhook's secret; one sealed under the previous APP_SECRET is sealed again under the current one. */
async function openWebhookSecret(
  db: Db,
  keys: SecretKeys,
  target: { id: string; secretEncrypted: string },
): Promise<string> {
  const { plaintext, stale } = await openSecret(keys, target.secretEncrypted);
  if (stale) await resealWebhookSecret(db, keys, target.id, plaintext);
  return plaintext;
}

interface Outcome {
  ok: boolean;
  responseStatus: number | null;
  error: string | null;
  /** No retry can succeed (the URL is not allowed here). */
  final?: boolean;
}

/** One POST of the delivery's body. Never throws: what went wrong is the outcome's `error`. */
async function attempt(
  env: Env,
  delivery: ClaimedDelivery,
  target: { url: string; secret: Promise<string> },
  now: Date,
): Promise<Outcome> {
  const problem = await webhookUrlProblem(env, target.url);
  // A lookup that failed may work at the next attempt; a target not allowed here never will.
  if (problem) {
    return { ok: false, responseStatus: null, error: WEBHOOK_PROBLEMS[problem], final: problem !== "unresolved" };
  }
  let secret: string;
  try {
    secret = await target.secret;
  } catch {
    return { ok: false, responseStatus: null, error: "The signing secret could not be read" };
  }
  try {
    const res = await fetch(target.url, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "User-Agent": "DynamicContent-Webhooks/1",
        "X-DC-Event": delivery.event,
        "X-DC-Delivery": String(delivery.id),
        [SIGNATURE_HEADER]: await signatureHeader(secret, delivery.payload, now),
      },
      body: delivery.payload,
      redirect: "manual",
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    });
    // The answer's body is not read: only its status counts.
    await res.body?.cancel();
    if (res.status >= 200 && res.status < 300) return { ok: true, responseStatus: res.status, error: null };
    const error =
      res.status >= 300 && res.status < 400 ? `Redirect (HTTP ${res.status}) not followed` : `HTTP ${res.status}`;
    return { ok: false, responseStatus: res.status, error };
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
    // The log is the customer's to read: it says what kind of failure, never the network's own words, which
    // would tell whoever probes hosts through webhooks what lies behind them.
    if (!timedOut) console.error(`Webhook delivery ${delivery.id} could not connect`, err);
    const error = timedOut ? `No answer within ${ATTEMPT_TIMEOUT_MS / 1000} s` : "Could not connect";
    return { ok: false, responseStatus: null, error };
  }
}

/**
 * The delivery's state after an attempt: delivered, due again after its backoff, or given up. A webhook whose last
 * FAILING_TARGET_ATTEMPTS attempts all failed (`targetFailing`) gets one attempt per event, no retries, until one is
 * delivered.
 */
export function record(
  delivery: ClaimedDelivery,
  outcome: Outcome,
  now: Date,
  leaseUntil: Date,
  targetFailing = false,
): AttemptRecord {
  const attempts = delivery.attempts + 1;
  const base = { id: delivery.id, leaseUntil, attempts, responseStatus: outcome.responseStatus, lastAttemptAt: now };
  if (outcome.ok) return { ...base, status: "delivered", error: null, nextAttemptAt: null };
  if (targetFailing && !outcome.final && outcome.error && attempts < MAX_ATTEMPTS) {
    const error = `${outcome.error}; not retried: the webhook's last ${FAILING_TARGET_ATTEMPTS} attempts failed`;
    return { ...base, status: "failed", error, nextAttemptAt: null };
  }
  if (outcome.final || attempts >= MAX_ATTEMPTS) {
    return { ...base, status: "failed", error: outcome.error, nextAttemptAt: null };
  }
  const delay = RETRY_DELAYS_MS[attempts - 1]!;
  return { ...base, status: "pending", error: outcome.error, nextAttemptAt: new Date(now.getTime() + delay) };
}
