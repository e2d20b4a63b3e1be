/** @module The preview key of a customer's mapping (db/schema/mappings.ts `url_mappings.preview_key`, delivery/preview.ts). */
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { urlMappings } from "../db/schema";
import { randomToken } from "../lib/crypto";

/** The mapping's preview key, made now if it has none; undefined when the customer has no such mapping. */
export async function ensurePreviewKey(db: Db, userId: string, mappingId: number): Promise<string | undefined> {
  const [row] = await db
    .update(urlMappings)
    .set({ previewKey: sql`coalesce(${urlMappings.previewKey}, ${randomToken(12)})` })
    .where(and(eq(urlMappings.id, mappingId), eq(urlMappings.userId, userId)))
    .returning({ previewKey: urlMappings.previewKey });
  return row?.previewKey ?? undefined;
}

/** Clears the mapping's preview key: every link made so far stops working. False when there is no such mapping. */
export async function revokePreviewKey(db: Db, userId: string, mappingId: number): Promise<boolean> {
  const updated = await db
    .update(urlMappings)
    .set({ previewKey: null })
    .where(and(eq(urlMappings.id, mappingId), eq(urlMappings.userId, userId)))
    .returning({ id: urlMappings.id });
  return updated.length > 0;
}
