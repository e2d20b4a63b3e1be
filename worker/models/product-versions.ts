/** @module Product versions (plans) and their limits. */
import { and, asc, count, eq, ne } from "drizzle-orm";
import type { z } from "zod";
import type { ProductVersion } from "../contract/responses";
import type { productVersionBody } from "../contract/schemas";
import type { Db } from "../db/client";
import type { Page, PageParams } from "./page";
import { productVersions, users, type ProductVersion as ProductVersionRow } from "../db/schema";

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
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(productVersions)
      .orderBy(asc(productVersions.priceCents), asc(productVersions.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(productVersions),
  ]);
  return { rows: rows.map(toProductVersion), total: total?.n ?? 0 };
}

export type ProductVersionInput = z.output<typeof productVersionBody>;

function columns(input: ProductVersionInput) {
  return {
    name: input.name,
    description: input.description || null,
    eventsLimit: input.eventsLimit,
    websitesLimit: input.websitesLimit,
    dynamicContentLimit: input.dynamicContentLimit,
    priceCents: input.price === null || input.price === undefined ? null : Math.round(input.price * 100),
    paypalPlanId: input.paypalPlanId || null,
    isDefault: input.isDefault ?? false,
  };
}

async function userIdsOn(db: Db, versionId: number): Promise<string[]> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.productVersionId, versionId));
  return rows.map((r) => r.id);
}

/**
 * Creates (id null) or updates a version; making it the default clears the old default in the same batch.
 * Answers the version and the users on it (whose delivery states the caller writes), or null for no such id.
 */
export async function saveProductVersion(db: Db, id: number | null, input: ProductVersionInput) {
  const values = columns(input);
  if (id !== null && !(await getProductVersion(db, id))) return null;
  const clearOldDefault = db
    .update(productVersions)
    .set({ isDefault: false })
    .where(and(eq(productVersions.isDefault, true), id === null ? undefined : ne(productVersions.id, id)));
  const write =
    id === null
      ? db.insert(productVersions).values(values).returning()
      : db.update(productVersions).set(values).where(eq(productVersions.id, id)).returning();
  const results = values.isDefault ? await db.batch([clearOldDefault, write]) : [undefined, await write];
  const [saved] = results[1] as ProductVersionRow[];
  return { version: toProductVersion(saved!), userIds: await userIdsOn(db, saved!.id) };
}

/**
 * Deletes a version; its users move to the default version (none when the default itself is deleted). Answers
 * the moved users, or null for no such id.
 */
export async function deleteProductVersion(db: Db, id: number): Promise<string[] | null> {
  const version = await getProductVersion(db, id);
  if (!version) return null;
  const fallback = version.isDefault ? undefined : await getDefaultProductVersion(db);
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
