/**
 * @module A URL's audience mappings (docs/audiences.md): those published or scheduled, which its delivery entry
 * holds, are at most AUDIENCE_MAPPINGS_PER_URL_MAX; counted from `url_mappings_audience_idx` alone.
 */
import { and, count, eq, isNotNull, ne, or } from "drizzle-orm";
import { AUDIENCE_MAPPINGS_FULL, AUDIENCE_MAPPINGS_PER_URL_MAX } from "#contract/audiences";
import type { Db } from "../db/client";
import { urlMappings } from "../db/schema";
import { Refusal } from "../lib/refusal";

/** The partial index's condition, written as it is so that SQLite uses it. */
const liveAudience = and(
  isNotNull(urlMappings.audience),
  or(isNotNull(urlMappings.publishedAt), isNotNull(urlMappings.publishAt)),
);

/** Refuses (409) a mapping for an audience, published or scheduled, at a URL that has the most it may already. */
export async function assertAudienceRoom(db: Db, userId: string, normalizedUrl: string, exceptId?: number) {
  const [row] = await db
    .select({ n: count() })
    .from(urlMappings)
    .where(
      and(
        eq(urlMappings.userId, userId),
        eq(urlMappings.normalizedUrl, normalizedUrl),
        liveAudience,
        exceptId === undefined ? undefined : ne(urlMappings.id, exceptId),
      ),
    );
  if ((row?.n ?? 0) >= AUDIENCE_MAPPINGS_PER_URL_MAX) throw new Refusal(409, AUDIENCE_MAPPINGS_FULL);
}
