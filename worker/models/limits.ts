/**
 * @module The limits that apply to a customer, and whether they are reached. A product version's limit of null
 * or 0 means unlimited (SPEC.md §9); the admin's per-user request limit is unlimited only when null. The admin's
 * per-user websites and dynamic-content limits (`users.websitesLimit`, `users.dynamicContentLimit`) replace the
 * plan's when set, read the same way (0 = unlimited); null leaves the plan's.
 */
import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { inList } from "../db/expressions";
import {
  productVersions,
  urlMappings,
  usageCounters,
  users,
  websites,
  type ProductVersion,
  type User,
} from "../db/schema";
import { Refusal } from "../lib/refusal";
import { hostOf } from "#contract/normalize-url";
import { hasWebsite, usageOf } from "./usage";

export const planLimit = (n: number | null | undefined) => (n ? n : null);

/** The customer's limit: the admin's per-user override when set, else the plan's (null: unlimited). */
const customerLimit = (override: number | null, plan: number | null | undefined) => planLimit(override ?? plan);

type PlanLimits = Partial<Pick<ProductVersion, "websitesLimit" | "eventsLimit" | "dynamicContentLimit">>;
type UserLimits = Pick<User, "websitesLimit" | "dynamicContentLimit">;

/** The limits that hold for the customer (null: unlimited): the plan's, each replaced by the admin's override if any. */
export function customerLimits(user: UserLimits, plan: PlanLimits | null | undefined) {
  return {
    websitesLimit: customerLimit(user.websitesLimit, plan?.websitesLimit),
    eventsLimit: planLimit(plan?.eventsLimit),
    dynamicContentLimit: customerLimit(user.dynamicContentLimit, plan?.dynamicContentLimit),
  };
}

/**
 * A user with their plan's limits and their period's usage, as every reader of both selects them (with
 * `users` joined left to `product_versions` and `usage_counters`); `customerLimits` then applies the user's own.
 */
export const planAndUsageColumns = {
  user: users,
  websitesLimit: productVersions.websitesLimit,
  eventsLimit: productVersions.eventsLimit,
  dynamicContentLimit: productVersions.dynamicContentLimit,
  periodDeliveries: usageCounters.periodDeliveries,
  periodRequests: usageCounters.periodRequests,
};

export interface DeliveryLimitState {
  userId: string;
  isActive: boolean;
  dynamicContentLimit: number | null;
  requestLimit: number | null;
  periodDeliveries: number;
  periodRequests: number;
  /** When the period the counters belong to ends. */
  billingPeriodEnd: Date | null;
  /** Whether the delivery store holds every published URL of the customer (users.deliveryStoreComplete). */
  deliveryStoreComplete: boolean;
  /** When the customer's URL entries last changed (users.contentVersion; 0: not since versions exist). */
  contentVersion: number;
  /**
   * The hostnames of the customer's proven edge websites (`websites`) that are served: the first proven, up to the
   * plan's websites limit. The edge proxies these only, and counts their first page loads.
   */
  edgeHosts: string[];
  /** The depths of the customer's published prefix mappings (docs/url-rules.md), ascending. */
  prefixDepths: number[];
  /** The customer's own tracking parameters (users.ignoredParameters). */
  ignoredParameters: string[];
  /** The goals the customer's experiments measure (`POST /api/goals` counts no other), sorted. */
  goals: string[];
}

/**
 * Whether the customer's plan limits what their page views spend (a dynamic-content or a request limit): then a
 * visitor may spend only a share of it (the content endpoint's per-visitor budget, the reducers' visitor counts).
 */
export const isMetered = (usage: DeliveryLimitState) =>
  usage.dynamicContentLimit !== null || usage.requestLimit !== null;

/** The smallest of the customer's limits (requests or deliveries a period); null when their plan limits neither. */
export function smallestLimitOf(usage: DeliveryLimitState): number | null {
  const limits = [usage.requestLimit, usage.dynamicContentLimit].filter((limit) => limit !== null);
  return limits.length === 0 ? null : Math.min(...limits);
}

/** Deliveries stop once either the dynamic-content or the request limit of the period is reached. */
export function deliveryLimitReached(s: DeliveryLimitState): boolean {
  return (
    (s.dynamicContentLimit !== null && s.periodDeliveries >= s.dynamicContentLimit) ||
    (s.requestLimit !== null && s.periodRequests >= s.requestLimit)
  );
}

/** Customers with their period counters and limits, in one query whatever the number of ids. */
export async function customersWithUsage(
  db: Db,
  userIds: string[],
): Promise<{ user: User; usage: DeliveryLimitState }[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .select({
      ...planAndUsageColumns,
      edgeHosts: sql<string>`(select json_group_array(json_array(${websites.verifiedAt}, ${websites.hostname}))
        from ${websites}
        where ${websites.userId} = ${users.id} and ${websites.mode} = 'edge' and ${websites.status} = 'active')`,
      prefixDepths: sql<string>`(select json_group_array(distinct ${urlMappings.prefixDepth}) from ${urlMappings}
        where ${urlMappings.userId} = ${users.id} and ${urlMappings.prefixDepth} is not null
          and ${urlMappings.publishedAt} is not null)`,
      // From the goals' own column (db/raw.ts), never the customer's experiment JSON: one statement serves many
      // customers, and one experiment SQLite cannot read must not fail it for the others.
      goals: sql<string>`(select json_group_array(distinct measured.value) from ${urlMappings},
          json_each(${urlMappings.experimentGoals}) measured
        where ${urlMappings.userId} = ${users.id} and ${urlMappings.experimentId} is not null)`,
    })
    .from(users)
    .leftJoin(productVersions, eq(productVersions.id, users.productVersionId))
    .leftJoin(usageCounters, eq(usageCounters.userId, users.id))
    .where(inList(users.id, userIds));
  return rows.map(({ user, ...r }) => {
    const limits = customerLimits(user, r);
    return {
      user,
      usage: {
        userId: user.id,
        isActive: user.isActive,
        requestLimit: user.requestLimit,
        dynamicContentLimit: limits.dynamicContentLimit,
        periodDeliveries: r.periodDeliveries ?? 0,
        periodRequests: r.periodRequests ?? 0,
        billingPeriodEnd: user.billingPeriodEnd,
        deliveryStoreComplete: user.deliveryStoreComplete,
        contentVersion: user.contentVersion,
        edgeHosts: servedEdgeHosts(JSON.parse(r.edgeHosts) as [number | null, string][], limits.websitesLimit),
        prefixDepths: (JSON.parse(r.prefixDepths) as number[]).sort((a, b) => a - b),
        ignoredParameters: user.ignoredParameters,
        goals: (JSON.parse(r.goals) as string[]).sort(),
      },
    };
  });
}

/** Of the customer's proven edge websites ([proven at, hostname]), those served: the first proven, up to `limit`. */
function servedEdgeHosts(proven: [number | null, string][], limit: number | null): string[] {
  const first = proven.sort(([a, x], [b, y]) => (a ?? 0) - (b ?? 0) || (x < y ? -1 : 1));
  return first
    .slice(0, limit ?? first.length)
    .map(([, hostname]) => hostname)
    .sort();
}

export async function deliveryLimitStates(db: Db, userIds: string[]): Promise<DeliveryLimitState[]> {
  return (await customersWithUsage(db, userIds)).map((c) => c.usage);
}

export const eventsLimitReached = (eventsLimit: number) =>
  `Your plan allows ${eventsLimit} content updates per billing period. Upgrade your plan or wait for the next period.`;

export const websitesLimitReached = (websitesLimit: number, host: string) =>
  `Your plan allows ${websitesLimit} website${websitesLimit === 1 ? "" : "s"}. Upgrade your plan to add ${host}.`;

/** The customer's limits on adding mappings and edge websites (null: unlimited). */
export async function mappingLimits(db: Db, user: User) {
  const version = user.productVersionId
    ? await db.query.productVersions.findFirst({ where: eq(productVersions.id, user.productVersionId) })
    : undefined;
  const { websitesLimit, eventsLimit } = customerLimits(user, version);
  return { websitesLimit, eventsLimit };
}

/**
 * What the customer may still add this period (a bulk import): mappings (null: no limit), and the websites limit
 * with the websites they have.
 */
export async function roomForMappings(db: Db, user: User) {
  const { websitesLimit, eventsLimit } = await mappingLimits(db, user);
  if (websitesLimit === null && eventsLimit === null) return { eventsLeft: null, websitesLimit, activeWebsites: 0 };
  const usage = await usageOf(db, user, null);
  return {
    eventsLeft: eventsLimit === null ? null : Math.max(0, eventsLimit - usage.dynamicEvents),
    eventsLimit,
    websitesLimit,
    activeWebsites: usage.activeWebsites,
  };
}

/**
 * Refuses (403, with the reason) a mapping that would go over the plan's limits: a new one over the websites or
 * events limit. A mapping that `moves` to this URL (an edit) is held to the websites limit only, since it was
 * counted as an event when it was created and an edit creates none (edits are free: docs/decisions.md); and it
 * adds no website when it was the last mapping on its old one. A deleted mapping that is `restored` is held to both:
 * content that comes back is content the plan's events pay for.
 */
export async function assertCanAddMapping(
  db: Db,
  user: User,
  normalizedUrl: string,
  { moves }: { moves?: { id: number; from: string } } = {},
): Promise<void> {
  const limits = await mappingLimits(db, user);
  const websitesLimit = limits.websitesLimit;
  const eventsLimit = moves ? null : limits.eventsLimit;
  if (websitesLimit === null && eventsLimit === null) return;
  const usage = await usageOf(db, user, null);
  if (eventsLimit !== null && usage.dynamicEvents >= eventsLimit) {
    throw new Refusal(403, eventsLimitReached(eventsLimit));
  }
  if (websitesLimit !== null && usage.activeWebsites >= websitesLimit) {
    const host = hostOf(normalizedUrl);
    const leavesAWebsite = moves !== undefined && !(await hasWebsite(db, user.id, hostOf(moves.from), moves.id));
    if (!leavesAWebsite && !(await hasWebsite(db, user.id, host))) {
      throw new Refusal(403, websitesLimitReached(websitesLimit, host));
    }
  }
}
