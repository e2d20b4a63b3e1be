import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Mapping } from "#contract/responses";
import { deliveryRepairs, users } from "../db/schema";
import type { Env } from "../env";
import { requestRepairs } from "../models/delivery-repairs";
import { countingKv, storedState } from "../test/delivery-store";
import { call, createVerifiedCustomer, db, testEnv } from "../test/helpers";
import { at, failingCaches, Location, restore } from "../test/locations";
import { EDGE_HOST_CACHE_MS, readEdgeHost, writeEdgeHost } from "./edge-hosts";
import { edgeHostKey, stateKey, urlKey } from "./keys";
import { drainRepairs } from "./repairs";
import { KV_PROPAGATION_MS } from "./change-feed-follower";
import { lookupDelivery, STATE_CACHE_MS, URL_CACHE_MS } from "./store";
import { syncCustomerState } from "./sync";

afterEach(() => {
  restore();
  vi.restoreAllMocks();
});

/** Steps between views, past the isolate's 5-second memo, so that each view asks the location's cache. */
const STEP = 6_000;

async function add(apiKey: string, url: string, htmlContent: string) {
  const res = await call("/api/mappings", { method: "POST", apiKey, json: { url, htmlContent } });
  expect(res.status).toBe(201);
  return (await res.json()) as Mapping;
}

async function edit(apiKey: string, id: number, htmlContent: string) {
  expect((await call(`/api/mappings/${id}`, { method: "PATCH", apiKey, json: { htmlContent } })).status).toBe(200);
}

/** A view of the customer's page at `now` through `kv`: the HTML delivered (null: nothing) and the KV reads it cost. */
function viewer(userId: string, counted = countingKv()) {
  const { calls, env: kvEnv } = counted;
  return async (url: string, now: number, e: Env = kvEnv) => {
    const before = calls.reads;
    const { match } = await lookupDelivery(e, userId, url, now);
    return { html: match && "html" in match ? match.html : null, reads: calls.reads - before };
  };
}

/** The customer's content version as their state in KV carries it. */
const versionOf = async (userId: string) => (await storedState(userId))!.version!;

/** Makes the customer's content version older than KV's propagation (as if their last change was minutes ago). */
async function versionLongAgo(userId: string) {
  await db()
    .update(users)
    .set({ contentVersion: Date.now() - 2 * KV_PROPAGATION_MS })
    .where(eq(users.id, userId));
  await syncCustomerState(testEnv(), userId);
}

describe("the location's cache in front of KV", () => {
  it("a view costs two KV reads cold and none warm; the state is read again after 30 s, a URL's entry or absence after an hour", async () => {
    at(new Location());
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    await add(apiKey, "https://shop.test/a", "A");
    await versionLongAgo(user.id);
    const view = viewer(user.id);
    const t = Date.now() + STEP;
    expect(await view("shop.test/a", t)).toEqual({ html: "A", reads: 2 });
    // The state is kept: its filter of the customer's URLs rules an unmapped page out, with no read at all.
    expect(await view("shop.test/unmapped", t + STEP)).toEqual({ html: null, reads: 0 });
    expect(await view("shop.test/a", t + 2 * STEP)).toEqual({ html: "A", reads: 0 });
    // Past the state's 30 seconds: the state alone is read; the URLs are kept under the same version.
    expect(await view("shop.test/a", t + STATE_CACHE_MS + STEP)).toEqual({ html: "A", reads: 1 });
    expect(await view("shop.test/unmapped", t + STATE_CACHE_MS + 2 * STEP)).toEqual({ html: null, reads: 0 });
    // Past the hour, the URL too.
    expect(await view("shop.test/a", t + URL_CACHE_MS + STEP)).toEqual({ html: "A", reads: 2 });
  });

  it("a state without a filter (one written before filters, or of a customer past their size) costs an unmapped page its URL's read, once", async () => {
    at(new Location());
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    await add(apiKey, "https://shop.test/a", "A");
    await versionLongAgo(user.id);
    const { published, ...unfiltered } = (await storedState(user.id))!;
    expect(published).toEqual(expect.any(String));
    await env.DELIVERY.put(stateKey(user.id), JSON.stringify(unfiltered));
    const view = viewer(user.id);
    const t = Date.now() + STEP;
    expect(await view("shop.test/a", t)).toEqual({ html: "A", reads: 2 });
    expect(await view("shop.test/unmapped", t + STEP)).toEqual({ html: null, reads: 1 });
    expect(await view("shop.test/unmapped", t + 2 * STEP)).toEqual({ html: null, reads: 0 });
  });

  it("a page published since a location kept the state is served there once the new state is, at the writer's at once", async () => {
    const far = new Location();
    at(far);
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    await add(apiKey, "https://shop.test/a", "A");
    await versionLongAgo(user.id);
    const view = viewer(user.id);
    const t = Date.now() + STEP;
    expect(await view("shop.test/b", t)).toEqual({ html: null, reads: 2 });
    // Written at another location: this one keeps the state whose filter rules b out until it lapses.
    at(new Location());
    await add(apiKey, "https://shop.test/b", "B");
    expect((await view("shop.test/b", t + STEP)).html).toBe("B");
    // Past this isolate's memo of the new state (the test's locations share one isolate).
    at(far);
    expect((await view("shop.test/b", t + 2 * STEP)).html).toBeNull();
    expect((await view("shop.test/b", t + STATE_CACHE_MS + STEP)).html).toBe("B");
  });

  it("keeps each customer's entries apart: the same URL at one location delivers each customer's own", async () => {
    at(new Location());
    const first = await createVerifiedCustomer("a@example.com");
    const second = await createVerifiedCustomer("b@example.com");
    await add(first.apiKey, "https://shop.test/a", "first's");
    await add(second.apiKey, "https://shop.test/a", "second's");
    await versionLongAgo(first.user.id);
    await versionLongAgo(second.user.id);
    const t = Date.now() + STEP;
    expect((await viewer(first.user.id)("shop.test/a", t)).html).toBe("first's");
    expect((await viewer(second.user.id)("shop.test/a", t + STEP)).html).toBe("second's");
    expect(await viewer(first.user.id)("shop.test/a", t + 2 * STEP)).toEqual({ html: "first's", reads: 0 });
  });

  it("a change is served at once at the writer's location, at another once its cached state lapses", async () => {
    const writer = new Location();
    const other = new Location();
    at(writer);
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const mapping = await add(apiKey, "https://shop.test/a", "old");
    await versionLongAgo(user.id);
    const view = viewer(user.id);
    const start = Date.now();
    expect((await view("shop.test/a", start)).html).toBe("old");
    at(other);
    expect((await view("shop.test/a", start + STEP)).html).toBe("old");

    at(writer);
    await edit(apiKey, mapping.id, "new");
    const version = await versionOf(user.id);
    // The writer forgot the state it kept; the entry kept under the old version is not used under the new one.
    expect(await view("shop.test/a", version + STEP)).toEqual({ html: "new", reads: 2 });
    at(other);
    // Another location keeps the old state up to its 30 seconds (and KV's propagation, see below), then reads it.
    expect((await view("shop.test/a", version + 2 * STEP)).html).toBe("old");
    expect((await view("shop.test/a", start + STEP + STATE_CACHE_MS)).html).toBe("new");
  });

  it("an entry KV still answers from before a version is served no later than KV's 60 s past the version", async () => {
    at(new Location());
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const mapping = await add(apiKey, "https://shop.test/a", "old");
    const key = await urlKey(user.id, "shop.test/a");
    const before = await env.DELIVERY.getWithMetadata(key, "text");
    await edit(apiKey, mapping.id, "new");
    const version = await versionOf(user.id);
    // This location's KV answers the entry from before the change until told otherwise (eventual consistency).
    let lagging = true;
    const { calls, env: counting } = countingKv();
    const stale = testEnv({
      DELIVERY: {
        ...counting.DELIVERY,
        get: counting.DELIVERY.get.bind(counting.DELIVERY),
        getWithMetadata: ((k: string, type: "text") =>
          lagging && k === key
            ? (calls.reads++, Promise.resolve(before))
            : counting.DELIVERY.getWithMetadata(k, type)) as KVNamespace["getWithMetadata"],
      } as KVNamespace,
    });
    const view = viewer(user.id, { calls, env: stale });
    expect((await view("shop.test/a", version + 10_000)).html).toBe("old");
    lagging = false;
    // Kept until the version is as old as KV's propagation, not longer.
    expect((await view("shop.test/a", version + KV_PROPAGATION_MS - 1)).html).toBe("old");
    expect((await view("shop.test/a", version + KV_PROPAGATION_MS)).html).toBe("new");
    // Read once the version was older than KV's propagation: kept for the hour.
    expect(await view("shop.test/a", version + KV_PROPAGATION_MS + STEP)).toEqual({ html: "new", reads: 0 });
    expect(await view("shop.test/a", version + KV_PROPAGATION_MS + STATE_CACHE_MS + STEP)).toEqual({
      html: "new",
      reads: 1,
    });
  });

  it("a failing Cache API costs the view its KV reads, never the view, and fails no change", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    at(failingCaches);
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const mapping = await add(apiKey, "https://shop.test/a", "A");
    await edit(apiKey, mapping.id, "B");
    await versionLongAgo(user.id);
    const view = viewer(user.id);
    const t = Date.now() + STEP;
    expect(await view("shop.test/a", t)).toEqual({ html: "B", reads: 2 });
    expect(await view("shop.test/a", t + STEP)).toEqual({ html: "B", reads: 2 });
  });

  it("an edge website's entry (or its absence) costs a location one KV read a minute; its writer's location forgets it", async () => {
    at(new Location());
    const { user } = await createVerifiedCustomer("c@example.com");
    await env.DELIVERY.put(edgeHostKey("shop.test"), JSON.stringify({ userId: user.id, origin: "https://o.test" }));
    const { calls, env: counting } = countingKv();
    const t = Date.now() + STEP;
    expect(await readEdgeHost(counting, "shop.test", t)).toEqual({ userId: user.id, origin: "https://o.test" });
    expect(await readEdgeHost(counting, "unknown.test", t)).toBeNull();
    expect(calls.reads).toBe(2);
    expect(await readEdgeHost(counting, "shop.test", t + STEP)).toEqual({ userId: user.id, origin: "https://o.test" });
    expect(await readEdgeHost(counting, "unknown.test", t + STEP)).toBeNull();
    expect(calls.reads).toBe(2);
    await readEdgeHost(counting, "shop.test", t + EDGE_HOST_CACHE_MS);
    expect(calls.reads).toBe(3);
    // Released: gone at once here.
    await writeEdgeHost(testEnv(), "shop.test", undefined, user.id);
    expect(await readEdgeHost(counting, "shop.test", t + EDGE_HOST_CACHE_MS + STEP)).toBeNull();
  });

  it("a content version a drain of URL repairs could not publish stays a repair until it is published", async () => {
    at(new Location());
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    await add(apiKey, "https://shop.test/a", "A");
    const before = await versionOf(user.id);
    await requestRepairs(db(), [user.id], "url:shop.test/a");
    const refusingState = testEnv({
      DELIVERY: {
        ...env.DELIVERY,
        get: env.DELIVERY.get.bind(env.DELIVERY),
        getWithMetadata: env.DELIVERY.getWithMetadata.bind(env.DELIVERY),
        delete: env.DELIVERY.delete.bind(env.DELIVERY),
        put: (key: string, ...rest: [string]) =>
          key === stateKey(user.id)
            ? Promise.reject(new Error("KV PUT failed: 429 Too Many Requests"))
            : env.DELIVERY.put(key, ...rest),
      } as KVNamespace,
    });
    await drainRepairs(refusingState, 100);
    expect(await versionOf(user.id)).toBe(before);
    const owed = await db().select({ target: deliveryRepairs.target }).from(deliveryRepairs);
    expect(owed.map((r) => r.target)).toContain("version");
    await drainRepairs(testEnv(), 100);
    expect(await versionOf(user.id)).toBeGreaterThan(before);
    expect(await db().select().from(deliveryRepairs)).toEqual([]);
  });
});
