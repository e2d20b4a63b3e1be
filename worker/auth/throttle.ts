/**
 * @module The throttles of the credential endpoints, each a sliding window in D1 per account, per account and
 * client IP, and per client IP. The account is the address asked about, whether or not it has an account, so that
 * a refusal tells nobody whether it exists. Past a throttle: 429 with `Retry-After` and a message that says when to
 * try again. A stranger's tries from their own addresses must not lock the account's owner out (issue 38, P-8):
 * sign-in is throttled by (account, address) with a higher account-wide bound, both counting failures only, and a
 * login code request is refused only per (account, address) and per address, its mails capped per account.
 */
import type { Context } from "hono";
import type { Db } from "../db/client";
import type { AppEnv } from "../env";
import { clientInfo, visitorKey } from "../http/client-info";
import { tooManyRequests } from "../http/errors";
import {
  checkRateLimit,
  clearRateLimit,
  countRateEvents,
  recordRateEvent,
  removeRateEvents,
  takeRateLimits,
  type RateDecision,
  type RateLimit,
} from "../models/rate-limits";

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

interface Window {
  max: number;
  windowMs: number;
}

interface Throttle {
  perAccount?: Window;
  /** Per account from one client IP (an IPv6 client by its /64). */
  perAccountAndIp?: Window;
  perIp: Window;
  /** The first sentence of the refusal. */
  refusal: string;
}

export const THROTTLES = {
  // The account's buckets count failures only: a successful sign-in is forgiven (`forgiveSuccess`).
  "admin-login": {
    perAccountAndIp: { max: 10, windowMs: 15 * MINUTE_MS },
    perAccount: { max: 100, windowMs: 15 * MINUTE_MS },
    perIp: { max: 30, windowMs: 15 * MINUTE_MS },
    refusal: "Too many sign-in attempts.",
  },
  // Per account only the mails are capped (LOGIN_MAILS_PER_ACCOUNT), never the requests of the person asking.
  "code-request": {
    perAccountAndIp: { max: 5, windowMs: HOUR_MS },
    perIp: { max: 30, windowMs: HOUR_MS },
    refusal: "Too many login code requests.",
  },
  // Per account, code checks are bounded by the five tries of a code and by the wrong-code lock below.
  "code-check": { perIp: { max: 60, windowMs: 15 * MINUTE_MS }, refusal: "Too many login attempts." },
  registration: {
    perAccount: { max: 5, windowMs: HOUR_MS },
    perIp: { max: 30, windowMs: HOUR_MS },
    refusal: "Too many registration requests.",
  },
  resend: {
    perAccount: { max: 5, windowMs: HOUR_MS },
    perIp: { max: 60, windowMs: HOUR_MS },
    refusal: "Too many emails requested.",
  },
  "verification-link": { perIp: { max: 60, windowMs: HOUR_MS }, refusal: "Too many verification attempts." },
  // Each makes the Worker call out (a DNS resolver, a customer's webhook URL) or do much work (an import).
  "website-check": {
    perAccount: { max: 30, windowMs: HOUR_MS },
    perIp: { max: 120, windowMs: HOUR_MS },
    refusal: "Too many DNS checks.",
  },
  // The Websites tab re-reads an edge website's status every 20 s while it is not live (180 an hour per website).
  "website-status": {
    perAccount: { max: 720, windowMs: HOUR_MS },
    perIp: { max: 1_440, windowMs: HOUR_MS },
    refusal: "Too many website status checks.",
  },
  // A customer checking their page while they install the snippet (docs/getting-started.md).
  "install-check": {
    perAccount: { max: 30, windowMs: HOUR_MS },
    perIp: { max: 120, windowMs: HOUR_MS },
    refusal: "Too many page checks.",
  },
  // Each opens a frame whose page the Worker fetches (docs/placement.md, "Pick on page").
  "pick-on-page": {
    perAccount: { max: 60, windowMs: HOUR_MS },
    perIp: { max: 240, windowMs: HOUR_MS },
    refusal: "Too many pages opened for picking.",
  },
  "webhook-test": {
    perAccount: { max: 20, windowMs: HOUR_MS },
    perIp: { max: 60, windowMs: HOUR_MS },
    refusal: "Too many test deliveries.",
  },
  // Each change to a mapping writes a webhook delivery per webhook (at most 10) and a version: a person never makes
  // 120 a minute; an import counts as one. The address's bound is for offices of many accounts behind one address.
  "mapping-change": {
    perAccount: { max: 120, windowMs: MINUTE_MS },
    perIp: { max: 600, windowMs: MINUTE_MS },
    refusal: "Too many changes to mappings.",
  },
  "mapping-import": {
    perAccount: { max: 20, windowMs: HOUR_MS },
    perIp: { max: 60, windowMs: HOUR_MS },
    refusal: "Too many imports.",
  },
} satisfies Record<string, Throttle>;

export type ThrottleName = keyof typeof THROTTLES;

/**
 * Login mails (a code, a sign-in or verification link, an admin's notice) one account gets in an hour, whoever asks:
 * past it a request is answered as always and nothing is mailed, the code mailed last still valid.
 */
export const LOGIN_MAILS_PER_ACCOUNT: Window = { max: 10, windowMs: HOUR_MS };

/** After this many wrong login codes within a day, codes stop working for the address; a mailed link still does. */
export const WRONG_CODE_LOCK: Window = { max: 10, windowMs: DAY_MS };

/** How long the daily housekeeping keeps rate-limit rows: the longest window above. */
export const LONGEST_WINDOW_MS = DAY_MS;

/** "a minute", "12 minutes", "an hour", "5 hours". */
export function waitText(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / MINUTE_MS));
  if (minutes < 60) return minutes === 1 ? "a minute" : `${minutes} minutes`;
  const hours = Math.ceil(minutes / 60);
  return hours === 1 ? "an hour" : `${hours} hours`;
}

export function refuse(refusal: string, decision: Extract<RateDecision, { allowed: false }>): never {
  throw tooManyRequests(`${refusal} Please try again in ${waitText(decision.retryAfterMs)}.`, decision.retryAfterMs);
}

/** What a request took of a throttle: the account's buckets it was counted in, and when. */
export interface Taken {
  accountBuckets: string[];
  at: number;
}

/**
 * Counts this request against the throttle of `name`, or refuses it (429) when the account, the account from this
 * IP, or the IP is past it.
 */
export async function throttle(c: Context<AppEnv>, name: ThrottleName, account?: string): Promise<Taken> {
  const spec: Throttle = THROTTLES[name];
  const { ipAddress } = clientInfo(c);
  // An IPv6 client counts by its /64: one line hands out a whole /64 (http/client-info.ts `visitorKey`).
  const ip = ipAddress ? visitorKey(ipAddress) : undefined;
  const limits: RateLimit[] = [];
  const accountName = account?.toLowerCase();
  if (spec.perAccount && accountName) limits.push({ bucket: `${name}:account:${accountName}`, ...spec.perAccount });
  if (spec.perAccountAndIp && accountName && ip) {
    limits.push({ bucket: `${name}:account:${accountName}:ip:${ip}`, ...spec.perAccountAndIp });
  }
  const accountBuckets = limits.map((l) => l.bucket);
  if (ip) limits.push({ bucket: `${name}:ip:${ip}`, ...spec.perIp });
  const at = Date.now();
  const decision = await takeRateLimits(c.var.db, limits, at);
  if (!decision.allowed) refuse(spec.refusal, decision);
  return { accountBuckets, at };
}

/** Takes the request back from the account's buckets, which count failures only: it succeeded. */
export function forgiveSuccess(db: Db, taken: Taken): Promise<void> {
  return removeRateEvents(db, taken.accountBuckets, taken.at);
}

/** Whether the account may be mailed one more login mail; counts it when so. */
export async function mayMailLogin(db: Db, email: string): Promise<boolean> {
  const bucket = `login-mail:account:${email.toLowerCase()}`;
  return (await takeRateLimits(db, [{ bucket, ...LOGIN_MAILS_PER_ACCOUNT }])).allowed;
}

const wrongCodeBucket = (email: string) => `wrong-code:account:${email.toLowerCase()}`;

export function wrongCodeLock(db: Db, email: string, now = Date.now()): Promise<RateDecision> {
  return checkRateLimit(db, { bucket: wrongCodeBucket(email), ...WRONG_CODE_LOCK }, now);
}

export function recordWrongCode(db: Db, email: string, now = Date.now()): Promise<void> {
  return recordRateEvent(db, wrongCodeBucket(email), now);
}

/** After a successful sign-in the address starts with a clean slate. */
export function clearWrongCodes(db: Db, email: string): Promise<void> {
  return clearRateLimit(db, wrongCodeBucket(email));
}

/** Wrong codes recorded for the address since `since` (the tries of one pending login). */
export function wrongCodesSince(db: Db, email: string, since: number): Promise<number> {
  return countRateEvents(db, wrongCodeBucket(email), since);
}
