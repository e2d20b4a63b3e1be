/**
 * @module Customers' claims of websites (db/schema/websites.ts): pending until the hostname is proven, then active;
 * at most one active claim per hostname. A pending claim lapses `CLAIM_TTL_MS` after it was made: every query here
 * treats it as gone from then on, and the daily cron deletes it. An active claim is checked again every day and
 * ends after `LAPSE_AFTER_FAILED_CHECKS` failed checks in a row; another account's proof takes it over.
 */
import { and, asc, count, eq, gt, isNull, lt, ne, or, sql } from "drizzle-orm";
import type { Website } from "#contract/responses";
import type { WebsiteSettings } from "#contract/schemas";
import type { Db } from "../db/client";
import { customHostnameRemovals, urlMappings, users, websites, type Website as WebsiteRow } from "../db/schema";
import { isUniqueViolation } from "../db/unique-violation";
import { randomToken } from "../lib/crypto";
import type { Page, PageParams } from "#contract/page";
import { pageOf } from "./page";

/** How long a claim may stay unproven. */
export const CLAIM_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** The DNS name of a hostname's proof: a TXT record there must hold the claim's token. */
export const verificationName = (hostname: string) => `_dynamic-content.${hostname}`;

export function toWebsite(row: WebsiteRow): Website {
  const pending = row.status === "pending";
  return {
    hostname: row.hostname,
    origin: row.origin,
    mode: row.mode,
    assetOrigin: row.assetOrigin,
    status: row.status,
    verification: { type: "txt", name: verificationName(row.hostname), value: row.verificationToken },
    verifiedAt: row.verifiedAt?.toISOString() ?? null,
    expiresAt: pending ? new Date(row.createdAt.getTime() + CLAIM_TTL_MS).toISOString() : null,
    // An active claim shows its checks only while they fail (websites/recheck-websites.ts).
    checkedAt: pending || row.checkProblem ? (row.checkedAt?.toISOString() ?? null) : null,
    checkProblem: row.checkProblem,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Claims that count: active ones, and pending ones made within the last `CLAIM_TTL_MS`. */
const live = (now: Date) =>
  or(eq(websites.status, "active"), gt(websites.createdAt, new Date(now.getTime() - CLAIM_TTL_MS)))!;

const ofCustomer = (userId: string, hostname: string) =>
  and(eq(websites.userId, userId), eq(websites.hostname, hostname))!;

/**
 * Makes or changes the customer's claim of `hostname`. A new claim (or one that lapsed) is pending, with a token of
 * its own; a live one keeps its status and token and takes the new origin and mode, and the asset origin when
 * `settings` has one (null: off; left out: as it was, off for a new claim). Answers the claim and whether it is new.
 */
export async function claimWebsite(
  db: Db,
  userId: string,
  hostname: string,
  settings: WebsiteSettings,
  now = new Date(),
): Promise<{ website: WebsiteRow; created: boolean }> {
  const lapsed = and(eq(websites.status, "pending"), lt(websites.createdAt, new Date(now.getTime() - CLAIM_TTL_MS)));
  const renewed = <T>(value: T, kept: unknown) => sql`CASE WHEN ${lapsed} THEN ${value} ELSE ${kept} END`;
  const token = randomToken(24);
  const [row] = await db
    .insert(websites)
    .values({
      hostname,
      userId,
      origin: settings.origin,
      mode: settings.mode,
      assetOrigin: settings.assetOrigin ?? null,
      verificationToken: token,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [websites.hostname, websites.userId],
      set: {
        origin: settings.origin,
        mode: settings.mode,
        assetOrigin:
          settings.assetOrigin === undefined ? renewed(null, websites.assetOrigin) : (settings.assetOrigin ?? null),
        updatedAt: now,
        verificationToken: renewed(token, websites.verificationToken),
        createdAt: renewed(now.getTime(), websites.createdAt),
        checkedAt: renewed(null, websites.checkedAt),
        checkProblem: renewed(null, websites.checkProblem),
      },
    })
    .returning();
  return { website: row!, created: row!.createdAt.getTime() === now.getTime() };
}

/** The customer's live claims by hostname, a page at a time. */
export async function listWebsites(db: Db, userId: string, page: PageParams, now = new Date()): Promise<Page<Website>> {
  const where = and(eq(websites.userId, userId), live(now));
  return pageOf(
    db,
    db.select().from(websites).where(where).orderBy(asc(websites.hostname)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(websites).where(where),
    toWebsite,
  );
}

/** The customer's number of live claims (capped per customer: routes/websites.ts). */
export async function countWebsites(db: Db, userId: string, now = new Date()): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(websites)
    .where(and(eq(websites.userId, userId), live(now)));
  return row?.n ?? 0;
}

/** The customer's live pending claims (capped per customer: routes/websites.ts). */
export async function countPendingWebsites(db: Db, userId: string, now = new Date()): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(websites)
    .where(and(eq(websites.userId, userId), eq(websites.status, "pending"), live(now)));
  return row?.n ?? 0;
}

/** The customer's live claims in edge mode besides `hostname` (held to the plan's websites limit). */
export async function countOtherEdgeWebsites(db: Db, userId: string, hostname: string, now = new Date()) {
  const [row] = await db
    .select({ n: count() })
    .from(websites)
    .where(and(eq(websites.userId, userId), ne(websites.hostname, hostname), eq(websites.mode, "edge"), live(now)));
  return row?.n ?? 0;
}

/** The customer's live claim of `hostname`. */
export async function customerWebsite(
  db: Db,
  userId: string,
  hostname: string,
  now = new Date(),
): Promise<WebsiteRow | undefined> {
  const [row] = await db
    .select()
    .from(websites)
    .where(and(ofCustomer(userId, hostname), live(now)));
  return row;
}

/** The active claim of `hostname`, whoever holds it: what is served there. */
export async function activeWebsiteAt(db: Db, hostname: string): Promise<WebsiteRow | undefined> {
  const [row] = await db
    .select()
    .from(websites)
    .where(and(eq(websites.hostname, hostname), eq(websites.status, "active")));
  return row;
}

/**
 * Makes the customer's pending claim active, unless it lapsed or another claim of the hostname became active
 * first (the unique index on active hostnames decides a race). The claim as it is now, or undefined.
 */
export async function activateWebsite(
  db: Db,
  userId: string,
  hostname: string,
  now = new Date(),
): Promise<WebsiteRow | undefined> {
  const heldByOther = sql`${websites.hostname} IN (SELECT hostname FROM websites WHERE status = 'active')`;
  try {
    const [row] = await db
      .update(websites)
      .set({ status: "active", verifiedAt: now, updatedAt: now, checkedAt: now, checkProblem: null })
      .where(and(ofCustomer(userId, hostname), eq(websites.status, "pending"), live(now), sql`NOT ${heldByOther}`))
      .returning();
    return row;
  } catch (err) {
    // Two claims proven in the same instant: the unique index lets one through.
    if (isUniqueViolation(err)) return undefined;
    throw err;
  }
}

/**
 * Moves `hostname` from its active `holder` to the customer whose pending claim was just proven: the holder's claim
 * ends (its custom hostnames queued for removal by the trigger) and the customer's becomes active, in one
 * transaction. Undefined when the claim lapsed, or when another claim became active meanwhile (the unique index on
 * active hostnames refuses the second, and the transaction leaves everything as it was).
 */
export async function takeOverWebsite(
  db: Db,
  userId: string,
  holder: Pick<WebsiteRow, "userId" | "hostname">,
  now = new Date(),
): Promise<WebsiteRow | undefined> {
  try {
    const [, taken] = await db.batch([
      db
        .delete(websites)
        .where(
          and(ofCustomer(holder.userId, holder.hostname), eq(websites.status, "active"), ne(websites.userId, userId)),
        ),
      db
        .update(websites)
        .set({ status: "active", verifiedAt: now, updatedAt: now, checkedAt: now, checkProblem: null, failedChecks: 0 })
        .where(and(ofCustomer(userId, holder.hostname), eq(websites.status, "pending"), live(now)))
        .returning(),
    ]);
    return taken[0];
  } catch (err) {
    if (isUniqueViolation(err)) return undefined;
    throw err;
  }
}

/** Records a DNS check that did not prove the claim, and why. */
export async function recordWebsiteCheck(db: Db, userId: string, hostname: string, problem: string, now = new Date()) {
  await db
    .update(websites)
    .set({ checkedAt: now, checkProblem: problem })
    .where(and(ofCustomer(userId, hostname), eq(websites.status, "pending")));
}

/**
 * Records a DNS check of an active claim: `failedChecks` failed in a row so far (0: the proof holds), and why the
 * last failed. Only while the claim is still the one that was checked (not ended or taken over meanwhile).
 */
export async function recordRecheck(
  db: Db,
  claim: Pick<WebsiteRow, "userId" | "hostname" | "verificationToken">,
  check: { problem: string | null; failedChecks: number },
  now = new Date(),
): Promise<void> {
  await db
    .update(websites)
    .set({ checkedAt: now, checkProblem: check.problem, failedChecks: check.failedChecks })
    .where(activeClaim(claim));
}

/** Ends an active claim whose proof lapsed (as a release does); the claim as it was, or undefined. */
export async function endLapsedWebsite(
  db: Db,
  claim: Pick<WebsiteRow, "userId" | "hostname" | "verificationToken">,
): Promise<WebsiteRow | undefined> {
  const [row] = await db.delete(websites).where(activeClaim(claim)).returning();
  return row;
}

const activeClaim = (claim: Pick<WebsiteRow, "userId" | "hostname" | "verificationToken">) =>
  and(
    ofCustomer(claim.userId, claim.hostname),
    eq(websites.status, "active"),
    eq(websites.verificationToken, claim.verificationToken),
  );

/** Deletes the customer's claim of `hostname` (its custom hostnames are queued for deletion by a trigger). */
export async function releaseWebsite(db: Db, userId: string, hostname: string): Promise<WebsiteRow | undefined> {
  const [row] = await db.delete(websites).where(ofCustomer(userId, hostname)).returning();
  return row;
}

/**
 * Claims of `status` due for another DNS check (last checked before `checkedBefore`, or never), of active customers,
 * shared fairly: each account's least recently checked claim first, then each account's second, and so on, so that
 * one account's many claims cannot hold back another's. One range of `websites_check_idx`.
 */
export async function claimsToCheck(
  db: Db,
  status: WebsiteRow["status"],
  now: Date,
  checkedBefore: Date,
  limit: number,
): Promise<WebsiteRow[]> {
  const due = db
    .select({
      hostname: websites.hostname,
      userId: websites.userId,
      checkedAt: websites.checkedAt,
      turn: sql<number>`row_number() over (partition by ${websites.userId}
        order by ${websites.checkedAt} is not null, ${websites.checkedAt}, ${websites.hostname})`.as("turn"),
    })
    .from(websites)
    .innerJoin(users, eq(users.id, websites.userId))
    .where(
      and(
        eq(websites.status, status),
        live(now),
        eq(users.isActive, true),
        or(isNull(websites.checkedAt), lt(websites.checkedAt, checkedBefore)),
      ),
    )
    .as("due");
  return db
    .select({ website: websites })
    .from(due)
    .innerJoin(websites, and(eq(websites.hostname, due.hostname), eq(websites.userId, due.userId)))
    .orderBy(sql`${due.turn}`, sql`${due.checkedAt} is not null`, due.checkedAt, due.hostname)
    .limit(limit)
    .then((rows) => rows.map((r) => r.website));
}

/** Deletes up to `limit` claims that lapsed unproven; answers how many went. */
export async function purgeLapsedWebsites(db: Db, now: Date, limit = 1_000): Promise<number> {
  const lapsed = await db
    .delete(websites)
    .where(
      sql`rowid IN (SELECT rowid FROM websites WHERE status = 'pending' AND created_at < ${now.getTime() - CLAIM_TTL_MS} LIMIT ${limit})`,
    )
    .returning({ hostname: websites.hostname });
  return lapsed.length;
}

/** Active claims whose custom hostnames are not registered at Cloudflare yet. */
export async function websitesWithoutCustomHostnames(db: Db, limit: number): Promise<WebsiteRow[]> {
  return db
    .select()
    .from(websites)
    .where(and(eq(websites.status, "active"), isNull(websites.customHostnameIds)))
    .limit(limit);
}

/** Remembers the custom hostnames registered for an active claim. */
export async function setCustomHostnameIds(db: Db, userId: string, hostname: string, ids: string[]): Promise<boolean> {
  const updated = await db
    .update(websites)
    .set({ customHostnameIds: ids })
    .where(and(ofCustomer(userId, hostname), eq(websites.status, "active"), isNull(websites.customHostnameIds)))
    .returning({ hostname: websites.hostname });
  return updated.length > 0;
}

/** Custom hostnames waiting to be deleted at Cloudflare, oldest first. */
export async function pendingCustomHostnameRemovals(db: Db, limit: number) {
  return db.select().from(customHostnameRemovals).orderBy(asc(customHostnameRemovals.requestedAt)).limit(limit);
}

export async function completeCustomHostnameRemoval(db: Db, id: string): Promise<void> {
  await db.delete(customHostnameRemovals).where(eq(customHostnameRemovals.id, id));
}

/** The customer's active claims by hostname, a page at a time (for writing their delivery entries). */
export async function customerWebsites(db: Db, userId: string, page: PageParams): Promise<WebsiteRow[]> {
  return db
    .select()
    .from(websites)
    .where(and(eq(websites.userId, userId), eq(websites.status, "active")))
    .orderBy(asc(websites.hostname))
    .limit(page.limit)
    .offset(page.offset);
}

/**
 * Of the (customer, website) pairs asked about, those where the customer has a mapping on that website (host,
 * SPEC.md's websites) or has proven the website (an active claim in `websites`, e.g. for edge delivery): one
 * statement, one probe of `url_mappings_host_idx` and one of the claim per pair. Keys `${userId} ${host}`.
 */
export async function websitesAmong(db: Db, pairs: readonly { userId: string; host: string }[]): Promise<Set<string>> {
  if (pairs.length === 0) return new Set();
  const rows = await db.all<{ userId: string; host: string }>(sql`
    select pair.value ->> 'userId' as userId, pair.value ->> 'host' as host from json_each(${JSON.stringify(pairs)}) pair
    where exists (select 1 from ${urlMappings} m
        where m.user_id = pair.value ->> 'userId' and m.host = pair.value ->> 'host')
      or exists (select 1 from ${websites} w
        where w.hostname = pair.value ->> 'host' and w.user_id = pair.value ->> 'userId' and w.status = 'active')`);
  return new Set(rows.map((r) => `${r.userId} ${r.host}`));
}
