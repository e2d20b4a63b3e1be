/** @module Users as the admin console sees them: account, plan, limits and usage from the counters. */
import { desc, eq, sql } from "drizzle-orm";
import type { AdminUser } from "../contract/responses";
import type { Db } from "../db/client";
import { paypalTransactions, productVersions, urlMappings, usageCounters, users } from "../db/schema";
import { nextPeriod, periodEnded } from "../billing/periods";
import { planLimit } from "./limits";
import { hostOfSql } from "./usage";

export async function listAdminUsers(db: Db, onlyUserId?: string, now = new Date()): Promise<AdminUser[]> {
  const rows = await db
    .select({
      user: users,
      versionName: productVersions.name,
      websitesLimit: productVersions.websitesLimit,
      eventsLimit: productVersions.eventsLimit,
      dynamicContentLimit: productVersions.dynamicContentLimit,
      totalRequests: usageCounters.totalRequests,
      periodDeliveries: usageCounters.periodDeliveries,
      periodRequests: usageCounters.periodRequests,
      mappingCount: sql<number>`(select count(*) from ${urlMappings} where ${urlMappings.userId} = ${users.id})`,
      uniqueUrlsCount: sql<number>`(select count(distinct ${urlMappings.normalizedUrl}) from ${urlMappings}
        where ${urlMappings.userId} = ${users.id})`,
      websitesUsed: sql<number>`(select count(distinct ${hostOfSql(urlMappings.normalizedUrl)}) from ${urlMappings}
        where ${urlMappings.userId} = ${users.id})`,
      eventsUsed: sql<number>`(select count(*) from ${urlMappings} where ${urlMappings.userId} = ${users.id}
        and ${urlMappings.createdAt} >= coalesce(${users.billingPeriodStart}, 0))`,
      profileStatus: sql<string | null>`(select ${paypalTransactions.profileStatus} from ${paypalTransactions}
        where ${paypalTransactions.userId} = ${users.id}
        order by ${paypalTransactions.receivedAt} desc, ${paypalTransactions.id} desc limit 1)`,
    })
    .from(users)
    .leftJoin(productVersions, eq(productVersions.id, users.productVersionId))
    .leftJoin(usageCounters, eq(usageCounters.userId, users.id))
    .where(onlyUserId ? eq(users.id, onlyUserId) : undefined)
    .orderBy(desc(users.createdAt), desc(users.id));
  return rows.map(({ user, ...r }) => {
    // A period that has ended shows as the one that follows it, with nothing used yet: whatever counts usage or adds
    // a mapping moves the period on first (billing/periods.ts), so no usage of the new period can be stored before.
    const ended = periodEnded(user, now);
    const period = ended
      ? nextPeriod(user.billingPeriodEnd!, now)
      : { start: user.billingPeriodStart, end: user.billingPeriodEnd };
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
      uniqueUrlsCount: r.uniqueUrlsCount,
      dynamicContentCount: r.mappingCount,
      eventsUsed: ended ? 0 : r.eventsUsed,
      websitesUsed: r.websitesUsed,
      dynamicContentDeliveryUsed: ended ? 0 : (r.periodDeliveries ?? 0),
      periodRequests: ended ? 0 : (r.periodRequests ?? 0),
      requestLimit: user.requestLimit,
      uniqueUrlLimit: planLimit(r.websitesLimit),
      eventsLimit: planLimit(r.eventsLimit),
      dynamicContentLimit: planLimit(r.dynamicContentLimit),
      apiKey: null,
      billingPeriodStart: period.start?.toISOString() ?? null,
      billingPeriodEnd: period.end?.toISOString() ?? null,
    };
  });
}

export async function getAdminUser(db: Db, userId: string): Promise<AdminUser | undefined> {
  const [user] = await listAdminUsers(db, userId);
  return user;
}

export async function listUserEmails(db: Db): Promise<string[]> {
  const rows = await db.select({ email: users.email }).from(users).orderBy(users.email);
  return rows.map((r) => r.email);
}
