/**
 * @module Users as the admin console sees them: account, plan, limits and usage from the counters. The list pages,
 * searches and sorts in SQL over the users alone; the numbers are then read for the page's users only.
 */
import { asc, count, desc, eq, sql, type SQL } from "drizzle-orm";
import type { AdminUser } from "#contract/responses";
import type { Db } from "../db/client";
import { containsText, inList } from "../db/expressions";
import { mappingTotals, paypalTransactions, productVersions, urlMappings, usageCounters, users } from "../db/schema";
import { nextPeriod, periodEnded } from "../lib/periods";
import { customerLimits, planAndUsageColumns } from "./limits";
import type { Page, PageParams } from "#contract/page";
import { pageOf } from "./page";

export interface AdminUsersQuery extends PageParams {
  /** Part of the email, ignoring case. */
  searchTerm?: string;
  sortBy?: "createdAt" | "email" | "totalRequests" | "requestLimit";
  sortDirection?: "asc" | "desc";
}

/** The order of the list; ties by id, so pages never overlap. A null request limit (unlimited) counts as largest. */
function orderOf(query: AdminUsersQuery): SQL[] {
  const dir = query.sortDirection === "asc" ? asc : desc;
  switch (query.sortBy) {
    case "email":
      return [dir(users.email)];
    case "totalRequests":
      return [dir(sql`coalesce(${usageCounters.totalRequests}, 0)`), dir(users.id)];
    case "requestLimit":
      return [dir(sql`${users.requestLimit} is null`), dir(users.requestLimit), dir(users.id)];
    default:
      return [query.sortDirection === "asc" ? asc(users.createdAt) : desc(users.createdAt), dir(users.id)];
  }
}

/**
 * One page of users, newest first unless `sortBy` says otherwise. `beforeCounts` is awaited with the page's ids
 * before their counters are read (the route settles what the analytics reducers hold of them).
 */
export async function listAdminUsers(
  db: Db,
  query: AdminUsersQuery,
  { beforeCounts, now = new Date() }: { beforeCounts?: (userIds: string[]) => Promise<void>; now?: Date } = {},
): Promise<Page<AdminUser>> {
  const where = query.searchTerm?.trim() ? containsText(users.email, query.searchTerm.trim()) : undefined;
  const page = await pageOf(
    db,
    db
      .select({ id: users.id })
      .from(users)
      .leftJoin(usageCounters, eq(usageCounters.userId, users.id))
      .where(where)
      .orderBy(...orderOf(query))
      .limit(query.limit)
      .offset(query.offset),
    db.select({ n: count() }).from(users).where(where),
    (p) => p.id,
  );
  await beforeCounts?.(page.rows);
  const byId = new Map((await adminUsersByIds(db, page.rows, now)).map((u) => [u.userId, u]));
  return { rows: page.rows.flatMap((id) => byId.get(id) ?? []), total: page.total };
}

/** The users with these ids (at most a page of them) with their plan, limits and usage. */
async function adminUsersByIds(db: Db, ids: string[], now: Date): Promise<AdminUser[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({
      ...planAndUsageColumns,
      versionName: productVersions.name,
      totalRequests: usageCounters.totalRequests,
      mappingCount: mappingTotals.mappings,
      uniqueUrlsCount: mappingTotals.urls,
      websitesUsed: mappingTotals.hosts,
      eventsUsed: sql<number>`(select count(*) from ${urlMappings} where ${urlMappings.userId} = ${users.id}
        and ${urlMappings.createdAt} >= coalesce(${users.billingPeriodStart}, 0))`,
      profileStatus: sql<string | null>`(select ${paypalTransactions.profileStatus} from ${paypalTransactions}
        where ${paypalTransactions.userId} = ${users.id}
        order by ${paypalTransactions.receivedAt} desc, ${paypalTransactions.id} desc limit 1)`,
    })
    .from(users)
    .leftJoin(productVersions, eq(productVersions.id, users.productVersionId))
    .leftJoin(usageCounters, eq(usageCounters.userId, users.id))
    .leftJoin(mappingTotals, eq(mappingTotals.userId, users.id))
    .where(inList(users.id, ids));
  return rows.map(({ user, ...r }) => {
    // A period that has ended shows as the one that follows it, with nothing used yet: whatever counts usage or adds
    // a mapping moves the period on first (billing/periods.ts), so no usage of the new period can be stored before.
    const ended = periodEnded(user, now);
    const period = ended
      ? nextPeriod(user.billingPeriodEnd!, now)
      : { start: user.billingPeriodStart, end: user.billingPeriodEnd };
    const limits = customerLimits(user, r);
    return {
      userId: user.id,
      email: user.email,
      role: user.role,
      emailVerified: user.emailVerified,
      isActive: user.isActive,
      createdAt: user.createdAt.toISOString(),
      productVersionId: user.productVersionId,
      productVersionName: r.versionName,
      profileStatus: r.profileStatus,
      totalRequests: r.totalRequests ?? 0,
      uniqueUrlsCount: r.uniqueUrlsCount ?? 0,
      dynamicContentCount: r.mappingCount ?? 0,
      eventsUsed: ended ? 0 : r.eventsUsed,
      websitesUsed: r.websitesUsed ?? 0,
      dynamicContentDeliveryUsed: ended ? 0 : (r.periodDeliveries ?? 0),
      periodRequests: ended ? 0 : (r.periodRequests ?? 0),
      requestLimit: user.requestLimit,
      uniqueUrlLimit: limits.websitesLimit,
      eventsLimit: limits.eventsLimit,
      dynamicContentLimit: limits.dynamicContentLimit,
      limitOverrides: { uniqueUrlLimit: user.websitesLimit, dynamicContentLimit: user.dynamicContentLimit },
      apiKey: null,
      billingPeriodStart: period.start?.toISOString() ?? null,
      billingPeriodEnd: period.end?.toISOString() ?? null,
    };
  });
}

export async function getAdminUser(db: Db, userId: string, now = new Date()): Promise<AdminUser | undefined> {
  const [user] = await adminUsersByIds(db, [userId], now);
  return user;
}

/** Every account's email, alphabetically, a page at a time; `searchTerm` is part of the email, ignoring case. */
export async function listUserEmails(db: Db, query: PageParams & { searchTerm?: string }): Promise<Page<string>> {
  const where = query.searchTerm?.trim() ? containsText(users.email, query.searchTerm.trim()) : undefined;
  return pageOf(
    db,
    db
      .select({ email: users.email })
      .from(users)
      .where(where)
      .orderBy(users.email)
      .limit(query.limit)
      .offset(query.offset),
    db.select({ n: count() }).from(users).where(where),
    (r) => r.email,
  );
}
