/**
 * Test helpers for the delivery store: what KV holds for a customer, and what D1 says it must hold, computed here
 * with SQL of its own (not the code under test), so that a test can prove the two agree.
 */
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { stateKey, urlKey, urlKeyPrefix } from "../delivery/keys";
import { stateFromD1, type CustomerState, type DeliveredMapping } from "../delivery/store";
import { db } from "./helpers";

export const storedState = (userId: string) => env.DELIVERY.get<CustomerState>(stateKey(userId), "json");

/** The entry of one URL: its mapping and HTML, or null when the store holds none. */
export async function storedEntry(userId: string, normalizedUrl: string): Promise<DeliveredMapping | null> {
  const { value, metadata } = await env.DELIVERY.getWithMetadata<{ m: number | null }>(
    await urlKey(userId, normalizedUrl),
    "text",
  );
  return value === null ? null : { mappingId: metadata!.m!, html: value };
}

/** Every URL entry of the customer, by key. */
async function storedEntries(userId: string): Promise<Record<string, DeliveredMapping>> {
  const entries: Record<string, DeliveredMapping> = {};
  let cursor: string | undefined;
  do {
    const listed = await env.DELIVERY.list<{ m: number | null }>({ prefix: urlKeyPrefix(userId), cursor });
    for (const key of listed.keys) {
      entries[key.name] = { mappingId: key.metadata!.m!, html: (await env.DELIVERY.get(key.name))! };
    }
    cursor = listed.list_complete ? undefined : listed.cursor;
  } while (cursor);
  return entries;
}

/** What D1 delivers per URL: the newest published mapping of each normalised URL, by key. */
async function deliveredByD1(userId: string): Promise<Record<string, DeliveredMapping>> {
  const { results } = await env.DB.prepare(
    `select id, normalized_url as url, html_content as html from (
       select *, row_number() over (partition by normalized_url order by created_at desc, id desc) as newest
       from url_mappings where user_id = ? and published_at is not null)
     where newest = 1`,
  )
    .bind(userId)
    .all<{ id: number; url: string; html: string }>();
  const entries: Record<string, DeliveredMapping> = {};
  for (const row of results) entries[await urlKey(userId, row.url)] = { mappingId: row.id, html: row.html };
  return entries;
}

/** The store holds exactly what D1 delivers for the customer: their state and one entry per delivered URL. */
export async function expectStoreMatchesD1(userId: string, because = "") {
  const [state, stored, delivered] = await Promise.all([
    stateFromD1(db(), userId),
    storedEntries(userId),
    deliveredByD1(userId),
  ]);
  expect(stored, `URL entries ${because}`).toEqual(delivered);
  const kept = await storedState(userId);
  if (state) expect(kept, `state ${because}`).toEqual(state);
  else expect(kept?.active ?? false, `state of a customer that does not exist ${because}`).toBe(false);
}
