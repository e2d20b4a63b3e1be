/** @module Product versions (plans) and their limits. */
import { and, asc, count, eq, ne } from "drizzle-orm";
import type { z } from "zod";
import type { ProductVersion } from "#contract/responses";
import { formatNumber } from "#contract/input-caps";
import type { productVersionBody, productVersionPatchBody } from "#contract/schemas";
import type { Db } from "../db/client";
import { isUniqueViolation } from "../db/unique-violation";
import { Refusal } from "../lib/refusal";
import type { Page, PageParams } from "#contract/page";
import { liveSubscribersOf } from "./subscriptions";
import { productVersions, users, type ProductVersion as ProductVersionRow } from "../db/schema";
import { pageOf } from "./page";

export async function getDefaultProductVersion(db: Db) {
  return db.query.productVersions.findFirst({ where: eq(productVersions.isDefault, true) });
}

export async function getProductVersion(db: Db, id: number) {
  return db.query.productVersions.findFirst({ where: eq(productVersions.id, id) });
}

export async function findProductVersionByPlanId(db: Db, paypalPlanId: string) {
  return db.query.productVersions.findFirst({ where: eq(productVersions.paypalPlanId, paypalPlanId) });
}

export function toProductVersion(row: ProductVersionRow): ProductVersion {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    eventsLimit: row.eventsLimit,
    websitesLimit: row.websitesLimit,
    dynamicContentLimit: row.dynamicContentLimit,
    price: row.priceCents === null ? null : row.priceCents / 100,
    paypalPlanId: row.paypalPlanId,
    isDefault: row.isDefault,
  };
}

/** The plans, cheapest first, a page at a time (there are few; the plan dialog asks for them all). */
export async function listProductVersions(db: Db, page: PageParams): Promise<Page<ProductVersion>> {
  return pageOf(
    db,
    db
      .select()
      .from(productVersions)
      .orderBy(asc(productVersions.priceCents), asc(productVersions.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(productVersions),
    toProductVersion,
  );
}

export type ProductVersionInput = z.output<typeof productVersionBody>;
export type ProductVersionChange = z.output<typeof productVersionPatchBody>;

const cents = (price: number | null | undefined) =>
  price === null || price === undefined ? null : Math.round(price * 100);

/** The stored columns of a new version. */
function newColumns(input: ProductVersionInput) {
  return {
    name: input.name,
    description: input.description || null,
    eventsLimit: input.eventsLimit,
    websitesLimit: input.websitesLimit,
    dynamicContentLimit: input.dynamicContentLimit,
    priceCents: cents(input.price),
    paypalPlanId: input.paypalPlanId || null,
    isDefault: input.isDefault ?? false,
  };
}

/** The stored columns a change sets: only those its body names. */
function changedColumns(change: ProductVersionChange): Partial<ReturnType<typeof newColumns>> {
  return {
    ...(change.name !== undefined ? { name: change.name } : {}),
    ...(change.description !== undefined ? { description: change.description || null } : {}),
    ...(change.eventsLimit !== undefined ? { eventsLimit: change.eventsLimit } : {}),
    ...(change.websitesLimit !== undefined ? { websitesLimit: change.websitesLimit } : {}),
    ...(change.dynamicContentLimit !== undefined ? { dynamicContentLimit: change.dynamicContentLimit } : {}),
    ...(change.price !== undefined ? { priceCents: cents(change.price) } : {}),
    ...(change.paypalPlanId !== undefined ? { paypalPlanId: change.paypalPlanId || null } : {}),
    ...(change.isDefault !== undefined ? { isDefault: change.isDefault } : {}),
  };
}

async function userIdsOn(db: Db, versionId: number): Promise<string[]> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.productVersionId, versionId));
  return rows.map((r) => r.id);
}

/**
 * Refused (409) when another version carries the PayPal plan id: a buyer of that plan would be given the other
 * version. The unique index decides when two saves race; this names the version that has it.
 */
async function refuseTakenPlanId(db: Db, paypalPlanId: string | null | undefined, ownId?: number) {
  if (!paypalPlanId) return;
  const holder = await findProductVersionByPlanId(db, paypalPlanId);
  if (holder && holder.id !== ownId) {
    throw new Refusal(
      409,
      `PayPal plan id ${paypalPlanId} already belongs to ${holder.name}: each PayPal plan id belongs to one ` +
        "product version.",
    );
  }
}

/** Runs a write that sets `paypalPlanId`, refused as above, also when another save of that id wins a race. */
async function savingPlanId<T>(
  db: Db,
  paypalPlanId: string | null | undefined,
  ownId: number | undefined,
  write: () => Promise<T>,
): Promise<T> {
  await refuseTakenPlanId(db, paypalPlanId, ownId);
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err, "product_versions.paypal_plan_id")) await refuseTakenPlanId(db, paypalPlanId, ownId);
    throw err;
  }
}

const subscribers = (n: number, name: string) =>
  `${formatNumber(n)} customer${n === 1 ? " holds a live subscription" : "s hold live subscriptions"} to ${name}`;

/**
 * Makes a version, the default one in the same batch as the old default loses its flag when it is. Refused (409)
 * for a PayPal plan id another version has.
 */
export async function createProductVersion(db: Db, input: ProductVersionInput): Promise<ProductVersion> {
  const values = newColumns(input);
  const write = db.insert(productVersions).values(values).returning();
  const results = await savingPlanId(db, values.paypalPlanId, undefined, async () =>
    values.isDefault
      ? await db.batch([
          db.update(productVersions).set({ isDefault: false }).where(eq(productVersions.isDefault, true)),
          write,
        ])
      : [undefined, await write],
  );
  return toProductVersion((results[1] as ProductVersionRow[])[0]!);
}

/**
 * Changes what the body names of a version and keeps the rest. Refused (409) for a PayPal plan id another version
 * has, and where it would strand customers: its price or PayPal plan while customers subscribe to it (PayPal keeps
 * charging the old plan and price), or its default flag taken off (another version is made the default instead).
 * Answers the version and the users on it (whose delivery states the caller writes), or null for no such id.
 */
export async function updateProductVersion(db: Db, id: number, change: ProductVersionChange) {
  const stored = await getProductVersion(db, id);
  if (!stored) return null;
  const values = changedColumns(change);
  const repriced =
    (values.priceCents !== undefined && values.priceCents !== stored.priceCents) ||
    (values.paypalPlanId !== undefined && values.paypalPlanId !== stored.paypalPlanId);
  if (repriced) {
    const live = await liveSubscribersOf(db, id);
    if (live > 0) {
      throw new Refusal(
        409,
        `${subscribers(live, stored.name)}: its price and PayPal plan cannot change. Create a new version with the ` +
          "new price and plan instead; existing subscribers keep theirs.",
      );
    }
  }
  if (stored.isDefault && values.isDefault === false) {
    throw new Refusal(409, `${stored.name} is the default version: make another version the default instead.`);
  }
  if (Object.keys(values).length === 0) return { version: toProductVersion(stored), userIds: [] };
  const write = db.update(productVersions).set(values).where(eq(productVersions.id, id)).returning();
  const clearOldDefault = db
    .update(productVersions)
    .set({ isDefault: false })
    .where(and(eq(productVersions.isDefault, true), ne(productVersions.id, id)));
  const results = await savingPlanId(db, values.paypalPlanId, id, async () =>
    values.isDefault ? await db.batch([clearOldDefault, write]) : [undefined, await write],
  );
  const [saved] = results[1] as ProductVersionRow[];
  return { version: toProductVersion(saved!), userIds: await userIdsOn(db, id) };
}

/**
 * Deletes a version; its users move to the default version. Refused (409) for the default version itself, and while
 * customers hold live subscriptions to it (PayPal would go on charging them for a plan nobody grants). Answers the
 * moved users, or null for no such id.
 */
export async function deleteProductVersion(db: Db, id: number): Promise<string[] | null> {
  const version = await getProductVersion(db, id);
  if (!version) return null;
  if (version.isDefault) {
    throw new Refusal(
      409,
      `${version.name} is the default version: make another version the default before deleting it.`,
    );
  }
  const live = await liveSubscribersOf(db, id);
  if (live > 0) {
    throw new Refusal(
      409,
      `${subscribers(live, version.name)}: it cannot be deleted. Create a new version for new customers instead; ` +
        "existing subscribers keep theirs.",
    );
  }
  const fallback = await getDefaultProductVersion(db);
  const moved = await userIdsOn(db, id);
  await db.batch([
    db
      .update(users)
      .set({ productVersionId: fallback?.id ?? null, planSource: "default", planPaidThrough: null })
      .where(eq(users.productVersionId, id)),
    db.delete(productVersions).where(eq(productVersions.id, id)),
  ]);
  return moved;
}
