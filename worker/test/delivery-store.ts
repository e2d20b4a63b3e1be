/**
 * Test helpers for the delivery store: what KV holds for a customer, and what D1 says it must hold, computed here
 * with SQL of its own (not the code under test), so that a test can prove the two agree.
 */
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { edgeHostIndexPrefix, edgeHostKey, stateKey, urlKey, urlKeyPrefix } from "../delivery/keys";
import { mayBePublished } from "../delivery/published-filter";
import {
  decodeUrlEntry,
  stateFromD1,
  type CustomerState,
  type DeliveredEntry,
  type DeliveredMapping,
} from "../delivery/store";
import { db, testEnv } from "./helpers";

export const storedState = (userId: string) => env.DELIVERY.get<CustomerState>(stateKey(userId), "json");

/**
 * The entry of one URL: its mapping and HTML (or, asked as `DeliveredAudiences`, its choice by audience), or null
 * when the store holds none.
 */
export async function storedEntry<T extends DeliveredEntry = DeliveredMapping>(
  userId: string,
  normalizedUrl: string,
): Promise<T | null> {
  const { value, metadata } = await env.DELIVERY.getWithMetadata<{ m: number | null }>(
    await urlKey(userId, normalizedUrl),
    "text",
  );
  return value === null ? null : (decodeUrlEntry(value, metadata) as T | null);
}

/** Every URL entry of the customer, by key. */
async function storedEntries(userId: string): Promise<Record<string, DeliveredEntry>> {
  const entries: Record<string, DeliveredEntry> = {};
  let cursor: string | undefined;
  do {
    const listed = await env.DELIVERY.list<{ m: number | null }>({ prefix: urlKeyPrefix(userId), cursor });
    for (const key of listed.keys) {
      entries[key.name] = decodeUrlEntry((await env.DELIVERY.get(key.name))!, key.metadata!)!;
    }
    cursor = listed.list_complete ? undefined : listed.cursor;
  } while (cursor);
  return entries;
}

/** What D1 delivers per URL: the newest published mapping of each normalised URL, by key, and those URLs. */
async function deliveredByD1(userId: string): Promise<{ entries: Record<string, DeliveredMapping>; urls: string[] }> {
  const { results } = await env.DB.prepare(
    `select id, normalized_url as url, html_content as html, placement, seo from (
       select *, row_number() over (partition by normalized_url order by created_at desc, id desc) as newest
       from url_mappings where user_id = ? and published_at is not null)
     where newest = 1`,
  )
    .bind(userId)
    .all<{ id: number; url: string; html: string; placement: string | null; seo: string | null }>();
  const entries: Record<string, DeliveredMapping> = {};
  const urls = results.map((row) => row.url);
  for (const row of results) {
    entries[await urlKey(userId, row.url)] = {
      mappingId: row.id,
      html: row.html,
      ...(row.placement ? { placement: JSON.parse(row.placement) } : {}),
      ...(row.seo ? { seo: JSON.parse(row.seo) } : {}),
    };
  }
  return { entries, urls };
}

/** The customer's edge websites as the store has them (listed by its index), and their host entries. */
async function storedEdgeHosts(userId: string): Promise<Record<string, unknown>> {
  const prefix = edgeHostIndexPrefix(userId);
  const hosts: Record<string, unknown> = {};
  for (const key of (await env.DELIVERY.list({ prefix })).keys) {
    const hostname = key.name.slice(prefix.length);
    hosts[hostname] = await env.DELIVERY.get(edgeHostKey(hostname), "json");
  }
  return hosts;
}

/** The customer's edge websites as D1 has them. */
async function edgeHostsByD1(userId: string): Promise<Record<string, unknown>> {
  const { results } = await env.DB.prepare(
    "select hostname, user_id as userId, origin from websites where user_id = ? and mode = 'edge'",
  )
    .bind(userId)
    .all<{ hostname: string; userId: string; origin: string }>();
  return Object.fromEntries(results.map((w) => [w.hostname, { userId: w.userId, origin: w.origin }]));
}

/**
 * The store holds exactly what D1 delivers for the customer: their state (whose filter lets every delivered URL
 * through), one entry per delivered URL, and the entries of their edge websites.
 */
export async function expectStoreMatchesD1(userId: string, because = "") {
  const [state, stored, delivered, storedHosts, hostsInD1] = await Promise.all([
    stateFromD1(db(), userId, { published: true }),
    storedEntries(userId),
    deliveredByD1(userId),
    storedEdgeHosts(userId),
    edgeHostsByD1(userId),
  ]);
  expect(stored, `URL entries ${because}`).toEqual(delivered.entries);
  expect(storedHosts, `edge websites ${because}`).toEqual(hostsInD1);
  const kept = await storedState(userId);
  if (state) expect(kept, `state ${because}`).toEqual(state);
  else expect(kept?.active ?? false, `state of a customer that does not exist ${because}`).toBe(false);
  const filter = kept?.published;
  if (filter) {
    const ruledOut = delivered.urls.filter((url) => !mayBePublished(filter, url));
    expect(ruledOut, `delivered URLs the state's filter rules out ${because}`).toEqual([]);
  }
}

/** The delivery store's KV, counting the reads and writes made to it, in a test env of its own. */
export function countingKv() {
  const calls = { reads: 0, writes: 0, keysWritten: [] as string[] };
  const inner = env.DELIVERY;
  const kv = {
    get: (...args: Parameters<KVNamespace["get"]>) => (calls.reads++, inner.get(...args)),
    getWithMetadata: (...args: Parameters<KVNamespace["getWithMetadata"]>) => (
      calls.reads++,
      inner.getWithMetadata(...args)
    ),
    put: (key: string, ...rest: unknown[]) => (
      calls.writes++,
      calls.keysWritten.push(key),
      inner.put(key, ...(rest as [string]))
    ),
    delete: (key: string) => (calls.writes++, calls.keysWritten.push(key), inner.delete(key)),
    list: (...args: Parameters<KVNamespace["list"]>) => (calls.reads++, inner.list(...args)),
  } as unknown as KVNamespace;
  return { calls, env: testEnv({ DELIVERY: kv }) };
}
