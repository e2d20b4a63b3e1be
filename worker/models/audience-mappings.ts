/**
 * @module A URL's audience mappings (docs/audiences.md): those published or scheduled, which its delivery entry
 * holds, are at most AUDIENCE_MAPPINGS_PER_URL_MAX, storing at most AUDIENCE_MAPPINGS_MAX_BYTES together.
 */
import { and, count, eq, isNotNull, ne, or, sql } from "drizzle-orm";
import {
  AUDIENCE_MAPPINGS_FULL,
  AUDIENCE_MAPPINGS_MAX_BYTES,
  AUDIENCE_MAPPINGS_PER_URL_MAX,
  AUDIENCE_MAPPINGS_TOO_LARGE,
} from "#contract/audiences";
import type { Db } from "../db/client";
import { chunksByJsonSize, inList } from "../db/expressions";
import { urlMappings } from "../db/schema";
import { Refusal } from "../lib/refusal";
import { contentColumnBytes, ROW_BYTES } from "./content-budget";

/** The partial index's condition, written as it is so that SQLite uses it. */
const liveAudience = and(
  isNotNull(urlMappings.audience),
  or(isNotNull(urlMappings.publishedAt), isNotNull(urlMappings.publishAt)),
);

/**
 * Refuses (409) a mapping for an audience, published or scheduled, that stores `bytes` (content-budget.ts
 * `rowBytes`), at a URL that has the most it may already or whose others store too much with it. `exceptId`: the
 * mapping itself, when it is changed.
 */
export async function assertAudienceRoom(
  db: Db,
  userId: string,
  normalizedUrl: string,
  bytes: number,
  exceptId?: number,
) {
  const columns = Object.values(contentColumnBytes(urlMappings));
  const [row] = await db
    .select({ n: count(), bytes: sql<number>`coalesce(sum(${sql.join(columns, sql` + `)}), 0)`.mapWith(Number) })
    .from(urlMappings)
    .where(
      and(
        eq(urlMappings.userId, userId),
        eq(urlMappings.normalizedUrl, normalizedUrl),
        liveAudience,
        exceptId === undefined ? undefined : ne(urlMappings.id, exceptId),
      ),
    );
  const others = row?.n ?? 0;
  if (others >= AUDIENCE_MAPPINGS_PER_URL_MAX) throw new Refusal(409, AUDIENCE_MAPPINGS_FULL);
  const stored = (row?.bytes ?? 0) + ROW_BYTES * others;
  if (stored + bytes > AUDIENCE_MAPPINGS_MAX_BYTES) throw new Refusal(409, AUDIENCE_MAPPINGS_TOO_LARGE);
}

/**
 * For a bulk import: per normalised URL, the customer's published or scheduled audience mappings there (`id:<id>`)
 * and the bytes each stores (content-budget.ts `rowBytes`).
 */
export async function liveAudienceMappingsAt(
  db: Db,
  userId: string,
  normalizedUrls: string[],
): Promise<Map<string, Map<string, number>>> {
  const found = new Map<string, Map<string, number>>();
  const columns = Object.values(contentColumnBytes(urlMappings));
  for (const chunk of chunksByJsonSize(normalizedUrls)) {
    const rows = await db
      .select({
        id: urlMappings.id,
        normalizedUrl: urlMappings.normalizedUrl,
        bytes: sql<number>`${ROW_BYTES} + ${sql.join(columns, sql` + `)}`.mapWith(Number),
      })
      .from(urlMappings)
      .where(and(eq(urlMappings.userId, userId), inList(urlMappings.normalizedUrl, chunk), liveAudience));
    for (const row of rows) {
      const atUrl = found.get(row.normalizedUrl) ?? new Map<string, number>();
      atUrl.set(`id:${row.id}`, row.bytes);
      found.set(row.normalizedUrl, atUrl);
    }
  }
  return found;
}
