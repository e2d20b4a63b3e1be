/** @module Product versions (plans) and their limits. */
import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { productVersions } from "../db/schema";

export async function getDefaultProductVersion(db: Db) {
  return db.query.productVersions.findFirst({ where: eq(productVersions.isDefault, true) });
}

export async function getProductVersion(db: Db, id: number) {
  return db.query.productVersions.findFirst({ where: eq(productVersions.id, id) });
}
