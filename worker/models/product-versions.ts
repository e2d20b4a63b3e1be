/** @module Product versions (plans) and their limits. */
import { asc, eq } from "drizzle-orm";
import type { ProductVersion } from "../contract/responses";
import type { Db } from "../db/client";
import { productVersions, type ProductVersion as ProductVersionRow } from "../db/schema";

export async function getDefaultProductVersion(db: Db) {
  return db.query.productVersions.findFirst({ where: eq(productVersions.isDefault, true) });
}

export async function getProductVersion(db: Db, id: number) {
  return db.query.productVersions.findFirst({ where: eq(productVersions.id, id) });
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

export async function listProductVersions(db: Db): Promise<ProductVersion[]> {
  const rows = await db
    .select()
    .from(productVersions)
    .orderBy(asc(productVersions.priceCents), asc(productVersions.id));
  return rows.map(toProductVersion);
}
