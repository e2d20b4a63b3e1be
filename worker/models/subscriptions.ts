/**
 * @module PayPal subscriptions of our customers, one row per PayPal subscription id: the plan it pays for, its
 * status as PayPal last told us, and how far its verified payments cover.
 */
import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { productVersions, subscriptions, type Subscription } from "../db/schema";

export type SubscriptionStatus = Subscription["status"];
/** Statuses in which PayPal may still charge the subscription. */
export const LIVE_STATUSES: SubscriptionStatus[] = ["pending", "active", "suspended"];

/** PayPal's status word (REST `status` or IPN `profile_status`) as ours; null for a word we do not know. */
export function statusFromPayPal(word: string | null | undefined): SubscriptionStatus | null {
  switch (word?.trim().toUpperCase()) {
    case "APPROVAL_PENDING":
    case "APPROVED":
    case "PENDING":
      return "pending";
    case "ACTIVE":
      return "active";
    case "SUSPENDED":
      return "suspended";
    case "CANCELLED":
    case "CANCELED":
      return "cancelled";
    case "EXPIRED":
      return "expired";
    default:
      return null;
  }
}

export async function findSubscription(db: Db, subscriptionId: string): Promise<Subscription | undefined> {
  return db.query.subscriptions.findFirst({ where: eq(subscriptions.subscriptionId, subscriptionId) });
}

/**
 * Stores the subscription, or updates what PayPal confirmed about it (plan, status) when it is this customer's
 * already. Answers the stored row, which belongs to someone else when another customer stored it first.
 */
export async function saveSubscription(
  db: Db,
  values: {
    userId: string;
    subscriptionId: string;
    planId: string | null;
    productVersionId: number | null;
    status: SubscriptionStatus;
  },
): Promise<Subscription> {
  const now = new Date();
  await db
    .insert(subscriptions)
    .values({ ...values, updatedAt: now })
    .onConflictDoUpdate({
      target: subscriptions.subscriptionId,
      set: { planId: values.planId, productVersionId: values.productVersionId, status: values.status, updatedAt: now },
      setWhere: eq(subscriptions.userId, values.userId),
    });
  return (await findSubscription(db, values.subscriptionId))!;
}

/** Stores the subscription unless it is stored already (nothing about it could be confirmed). */
export async function storeUnconfirmedSubscription(db: Db, userId: string, subscriptionId: string) {
  await db
    .insert(subscriptions)
    .values({ userId, subscriptionId, status: "pending", updatedAt: new Date() })
    .onConflictDoNothing({ target: subscriptions.subscriptionId });
  return (await findSubscription(db, subscriptionId))!;
}

export async function setSubscriptionStatus(db: Db, subscriptionId: string, status: SubscriptionStatus) {
  await db
    .update(subscriptions)
    .set({ status, updatedAt: new Date() })
    .where(eq(subscriptions.subscriptionId, subscriptionId));
}

/** A verified payment covers up to `until`: coverage only ever grows here, and a pending subscription is active. */
export async function extendCoverage(db: Db, subscriptionId: string, until: Date) {
  await db
    .update(subscriptions)
    .set({
      paidThrough: sql`max(coalesce(${subscriptions.paidThrough}, 0), ${until.getTime()})`,
      status: sql`case when ${subscriptions.status} = 'pending' then 'active' else ${subscriptions.status} end`,
      updatedAt: new Date(),
    })
    .where(eq(subscriptions.subscriptionId, subscriptionId));
}

/** Sets the coverage outright (after a refund or reversal took a payment back, or PayPal disowned it). */
export async function setCoverage(db: Db, subscriptionId: string, until: Date | null) {
  await db
    .update(subscriptions)
    .set({ paidThrough: until, updatedAt: new Date() })
    .where(eq(subscriptions.subscriptionId, subscriptionId));
}

/** The customer's newest subscription whose coverage reaches past `since` and that nothing replaced. */
export async function coveringSubscription(db: Db, userId: string, since: Date): Promise<Subscription | undefined> {
  return db.query.subscriptions.findFirst({
    where: and(
      eq(subscriptions.userId, userId),
      isNotNull(subscriptions.productVersionId),
      isNull(subscriptions.replacedBy),
      gt(subscriptions.paidThrough, since),
    ),
    orderBy: desc(subscriptions.id),
  });
}

/** The customer's newest stored subscription that PayPal may still charge and nothing replaced. */
export async function newestLiveSubscription(db: Db, userId: string): Promise<Subscription | undefined> {
  return db.query.subscriptions.findFirst({
    where: and(
      eq(subscriptions.userId, userId),
      inArray(subscriptions.status, LIVE_STATUSES),
      isNull(subscriptions.replacedBy),
    ),
    orderBy: desc(subscriptions.id),
  });
}

/** The customer's subscriptions stored before `current` that PayPal may still charge and nothing replaced yet. */
export async function olderLiveSubscriptions(db: Db, current: Subscription): Promise<Subscription[]> {
  return db.query.subscriptions.findMany({
    where: and(
      eq(subscriptions.userId, current.userId),
      lt(subscriptions.id, current.id),
      inArray(subscriptions.status, LIVE_STATUSES),
      isNull(subscriptions.replacedBy),
    ),
  });
}

export async function markReplaced(db: Db, subscriptionIds: string[], replacedBy: string) {
  if (subscriptionIds.length === 0) return;
  await db
    .update(subscriptions)
    .set({ replacedBy, updatedAt: new Date() })
    .where(inArray(subscriptions.subscriptionId, subscriptionIds));
}

/** Replaced subscriptions PayPal may still charge: the cancels we owe PayPal. */
export async function subscriptionsToCancel(db: Db, limit: number): Promise<Subscription[]> {
  return db.query.subscriptions.findMany({
    where: and(isNotNull(subscriptions.replacedBy), inArray(subscriptions.status, LIVE_STATUSES)),
    orderBy: [asc(subscriptions.checkedAt), asc(subscriptions.id)],
    limit,
  });
}

/** Live subscriptions to ask PayPal about, the least recently asked first. */
export async function subscriptionsToCheck(db: Db, limit: number): Promise<Subscription[]> {
  return db.query.subscriptions.findMany({
    where: and(isNull(subscriptions.replacedBy), inArray(subscriptions.status, LIVE_STATUSES)),
    orderBy: [sql`${subscriptions.checkedAt} is not null`, asc(subscriptions.checkedAt), asc(subscriptions.id)],
    limit,
  });
}

export async function markChecked(db: Db, subscriptionId: string, now: Date) {
  await db.update(subscriptions).set({ checkedAt: now }).where(eq(subscriptions.subscriptionId, subscriptionId));
}

/**
 * How many customers hold a subscription to the version that PayPal may still charge (live, not replaced by a plan
 * change): they pay its price through its PayPal plan, so neither may change under them.
 */
export async function liveSubscribersOf(db: Db, productVersionId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(distinct ${subscriptions.userId})` })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.productVersionId, productVersionId),
        inArray(subscriptions.status, LIVE_STATUSES),
        isNull(subscriptions.replacedBy),
      ),
    );
  return row?.n ?? 0;
}

/** The customer's newest subscription that no plan change replaced, with the name of the plan it pays for. */
export async function currentSubscription(db: Db, userId: string) {
  const [row] = await db
    .select({ subscription: subscriptions, plan: productVersions.name })
    .from(subscriptions)
    .leftJoin(productVersions, eq(productVersions.id, subscriptions.productVersionId))
    .where(and(eq(subscriptions.userId, userId), isNull(subscriptions.replacedBy)))
    .orderBy(desc(subscriptions.id))
    .limit(1);
  return row;
}
