import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Mapping } from "#contract/responses";
import { deliveryChanges, users } from "../db/schema";
import type { Env } from "../env";
import { runEveryMinute } from "../scheduled";
import { countingKv } from "../test/delivery-store";
import { call, createVerifiedCustomer, db, testEnv } from "../test/helpers";
import { at, Location, restore } from "../test/locations";
import { changeFeed } from "./change-feed";
import {
  ChangeFeedFollower,
  FEED_READ_EVERY_MS,
  FEED_TRUSTED_MS,
  KEPT_UNCHANGED_MS,
  KV_PROPAGATION_MS,
} from "./change-feed-follower";
import { EDGE_HOST_CACHE_MS, readEdgeHost, writeEdgeHost } from "./edge-hosts";
import { edgeHostKey, stateKey } from "./keys";
import { lookupDelivery, PROPAGATION_MS, STATE_CACHE_MS } from "./store";
import { syncCustomerState } from "./sync";

afterEach(() => {
  restore();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const MINUTE = 60_000;

/** Sets the clock (writers stamp their changes with it) and answers it. */
function clockAt(t: number): number {
  vi.setSystemTime(t);
  return t;
}

/** The isolate's feed read at `t`, as the delivery routes start it after their answer. */
async function follow(e: Env, t: number, feed = changeFeed) {
  clockAt(t);
  await feed.refreshIfDue(e, t);
}

async function add(apiKey: string, url: string, htmlContent: string) {
  const res = await call("/api/mappings", { method: "POST", apiKey, json: { url, htmlContent } });
  expect(res.status).toBe(201);
  return (await res.json()) as Mapping;
}

/** A customer with one mapping whose last change is minutes old, and a viewer counting the KV reads of each view. */
async function customerWithPage(start: number) {
  vi.useFakeTimers({ now: start - 10 * MINUTE, toFake: ["Date"] });
  const { user, apiKey } = await createVerifiedCustomer("c@example.com");
  const mapping = await add(apiKey, "https://shop.test/a", "A");
  const counted = countingKv();
  const view = async (t: number) => {
    clockAt(t);
    const before = counted.calls.reads;
    const { match } = await lookupDelivery(counted.env, user.id, "shop.test/a", t);
    return { html: match && "html" in match ? match.html : null, reads: counted.calls.reads - before };
  };
  return { user, apiKey, mapping, env: counted.env, view };
}

describe("the change feed: kept entries used past their short times while unchanged", () => {
  it("keeps a customer's state for up to an hour while the feed, read every ten seconds, has no change of it", async () => {
    at(new Location());
    const start = Date.now();
    const { env: e, view } = await customerWithPage(start);
    await follow(e, start);
    // Read once the feed covers KV's propagation before the read: the state and the URL.
    const readAt = start + KV_PROPAGATION_MS + 10_000;
    expect(await view(readAt)).toEqual({ html: "A", reads: 2 });
    for (let t = readAt; t < readAt + 50 * MINUTE; t += FEED_READ_EVERY_MS) await follow(e, t);
    // 50 minutes on, past the state's 30 seconds: no KV read at all.
    expect(await view(readAt + 50 * MINUTE)).toEqual({ html: "A", reads: 0 });
    // Past the hour the state is read again, whatever the feed says (and the URL, its hour over too).
    for (let t = readAt + 50 * MINUTE; t <= readAt + KEPT_UNCHANGED_MS; t += FEED_READ_EVERY_MS) await follow(e, t);
    expect(await view(readAt + KEPT_UNCHANGED_MS + 1_000)).toEqual({ html: "A", reads: 2 });
    expect(await view(readAt + KEPT_UNCHANGED_MS + 7_000)).toEqual({ html: "A", reads: 0 });
  });

  it("a change written at another location is served here within PROPAGATION_MS: the feed makes the kept state go", async () => {
    const here = new Location();
    at(here);
    const start = Date.now();
    const { apiKey, mapping, env: e, view } = await customerWithPage(start);
    await follow(e, start);
    const readAt = start + KV_PROPAGATION_MS + 10_000;
    expect((await view(readAt)).html).toBe("A");
    for (let t = readAt; t <= readAt + 5 * MINUTE; t += FEED_READ_EVERY_MS) await follow(e, t);
    expect(await view(readAt + 5 * MINUTE)).toEqual({ html: "A", reads: 0 });

    // Elsewhere, the customer edits the page: a new URL entry, a new content version, their state written.
    at(new Location());
    const changedAt = clockAt(readAt + 5 * MINUTE + 1_000);
    const res = await call(`/api/mappings/${mapping.id}`, { method: "PATCH", apiKey, json: { htmlContent: "B" } });
    expect(res.status).toBe(200);
    at(here);
    // The next read of the feed has the change: the state kept here is read again, and the new version with it.
    await follow(e, changedAt + FEED_READ_EVERY_MS);
    const next = await view(changedAt + FEED_READ_EVERY_MS + 1_000);
    expect(next.reads).toBeGreaterThanOrEqual(1);
    // Within the promise however KV's propagation went, with the feed read all along.
    for (let t = changedAt + 2 * FEED_READ_EVERY_MS; t <= changedAt + PROPAGATION_MS; t += FEED_READ_EVERY_MS) {
      await follow(e, t);
    }
    expect((await view(changedAt + PROPAGATION_MS)).html).toBe("B");
  });

  it("a feed not read for 30 seconds keeps nothing past the short times", async () => {
    at(new Location());
    const start = Date.now();
    const { env: e, view } = await customerWithPage(start);
    await follow(e, start);
    const readAt = start + KV_PROPAGATION_MS + 10_000;
    expect((await view(readAt)).reads).toBe(2);
    await follow(e, readAt);
    // Still within the feed's trust: kept.
    expect(await view(readAt + FEED_TRUSTED_MS)).toEqual({ html: "A", reads: 0 });
    // The feed not read since (D1 down, no request started a read): the state's 30 seconds are all it gets.
    expect(await view(readAt + FEED_TRUSTED_MS + STATE_CACHE_MS)).toEqual({ html: "A", reads: 1 });
  });

  it("a state read within KV's propagation of its last change is kept for its 30 seconds only", async () => {
    at(new Location());
    const start = Date.now();
    const { user, env: e, view } = await customerWithPage(start);
    await follow(e, start);
    const changedAt = clockAt(start + 2 * MINUTE);
    await db().update(users).set({ isActive: false }).where(eq(users.id, user.id));
    await syncCustomerState(testEnv(), user.id);
    await db().update(users).set({ isActive: true }).where(eq(users.id, user.id));
    await syncCustomerState(testEnv(), user.id);
    // Read 20 s after the change: KV may still have answered the older state, so the feed does not vouch for it.
    const readAt = changedAt + 20_000;
    await follow(e, readAt);
    expect((await view(readAt)).reads).toBe(2);
    for (let t = readAt; t <= readAt + 3 * MINUTE; t += FEED_READ_EVERY_MS) await follow(e, t);
    expect((await view(readAt + STATE_CACHE_MS + 1_000)).reads).toBe(1);
    // Still within the propagation: 30 seconds again.
    const pastPropagation = changedAt + KV_PROPAGATION_MS + STATE_CACHE_MS;
    expect((await view(pastPropagation)).reads).toBe(1);
    // That read was past it: this one is kept.
    expect(await view(pastPropagation + 2 * MINUTE)).toEqual({ html: "A", reads: 0 });
  });

  it("the isolates of a location share a read of the feed: another isolate follows from it without reading D1", async () => {
    at(new Location());
    // Both reads within one ten-second window: the page is kept for its window.
    const start = (Math.floor(Date.now() / FEED_READ_EVERY_MS) + 1) * FEED_READ_EVERY_MS;
    vi.useFakeTimers({ now: start, toFake: ["Date"] });
    const first = new ChangeFeedFollower();
    const second = new ChangeFeedFollower();
    await follow(testEnv(), start, first);
    const noD1 = testEnv({
      DB: new Proxy(env.DB, {
        get: () => {
          throw new Error("D1 read by the second isolate");
        },
      }),
    });
    // Had it read D1, its read would have failed and it would vouch for nothing.
    await follow(noD1, start + 1_000, second);
    // It started where the first did: what it vouches for is what the first does.
    const later = start + KV_PROPAGATION_MS + 20_000;
    expect(second.unchangedSince("s:someone", later - KV_PROPAGATION_MS, start + 2_000)).toBe(true);
    expect(first.unchangedSince("s:someone", later - KV_PROPAGATION_MS, start + 2_000)).toBe(true);
  });

  it("a read of the feed that failed (D1 down) is tried again ten seconds later, not at every request", async () => {
    at(new Location());
    vi.spyOn(console, "error").mockImplementation(() => {});
    const start = Date.now();
    vi.useFakeTimers({ now: start, toFake: ["Date"] });
    let asked = 0;
    const down = testEnv({
      DB: new Proxy(env.DB, {
        get: () => {
          asked++;
          throw new Error("D1 down");
        },
      }),
    });
    const feed = new ChangeFeedFollower();
    for (const t of [0, 1_000, 5_000, 9_999]) await follow(down, start + t, feed);
    expect(asked).toBe(1);
    await follow(down, start + FEED_READ_EVERY_MS, feed);
    expect(asked).toBe(2);
    expect(feed.unchangedSince("s:someone", start, start + FEED_READ_EVERY_MS)).toBe(false);
  });

  it("a backlog past one refresh's reads (a bulk change) starts the feed afresh: nothing read before it is vouched for", async () => {
    at(new Location());
    const start = Date.now();
    vi.useFakeTimers({ now: start, toFake: ["Date"] });
    const feed = new ChangeFeedFollower();
    await follow(testEnv(), start, feed);
    const readAt = start + 2 * MINUTE;
    await follow(testEnv(), readAt, feed);
    expect(feed.unchangedSince("s:someone", readAt - KV_PROPAGATION_MS, readAt)).toBe(true);
    const keys = Array.from({ length: 5_001 }, (_, i) => `s:bulk${i}`);
    await env.DB.prepare("INSERT INTO delivery_changes (key, changed_at) SELECT value, ? FROM json_each(?)")
      .bind(readAt + 1_000, JSON.stringify(keys))
      .run();
    await follow(testEnv(), readAt + FEED_READ_EVERY_MS, feed);
    expect(feed.unchangedSince("s:someone", readAt - KV_PROPAGATION_MS, readAt + FEED_READ_EVERY_MS)).toBe(false);
    expect(feed.unchangedSince("s:bulk5000", readAt + FEED_READ_EVERY_MS + 10_000, readAt + 20_000)).toBe(true);
  });

  it("an edge website's entry is kept past its minute while unchanged, and read again once its change is in the feed", async () => {
    const here = new Location();
    at(here);
    const start = Date.now();
    vi.useFakeTimers({ now: start, toFake: ["Date"] });
    const { user } = await createVerifiedCustomer("c@example.com");
    await env.DELIVERY.put(edgeHostKey("feed.test"), JSON.stringify({ userId: user.id, origin: "https://o.test" }));
    const counted = countingKv();
    const e = counted.env;
    await follow(e, start);
    const readAt = start + KV_PROPAGATION_MS + 10_000;
    clockAt(readAt);
    expect((await readEdgeHost(e, "feed.test", readAt))?.userId).toBe(user.id);
    expect(counted.calls.reads).toBe(1);
    for (let t = readAt; t <= readAt + 10 * MINUTE; t += FEED_READ_EVERY_MS) await follow(e, t);
    expect((await readEdgeHost(e, "feed.test", readAt + 10 * MINUTE))?.userId).toBe(user.id);
    expect(counted.calls.reads).toBe(1);
    // Released elsewhere: the feed has it, and the entry is read again past its minute.
    at(new Location());
    const releasedAt = clockAt(readAt + 10 * MINUTE + 1_000);
    await writeEdgeHost(testEnv(), "feed.test", undefined, user.id);
    at(here);
    await follow(e, releasedAt + FEED_READ_EVERY_MS);
    expect(await readEdgeHost(e, "feed.test", releasedAt + EDGE_HOST_CACHE_MS + 1_000)).toBeNull();
    expect(counted.calls.reads).toBe(2);
  });

  it("a delivery request starts a read of the feed after its answer", async () => {
    const start = Date.now();
    const res = await call(`/api/content?u=nobody&url=${encodeURIComponent("https://shop.test/")}`);
    await res.text();
    // Followed from that read on: a state read past KV's propagation since is vouched for.
    const later = Date.now() + KV_PROPAGATION_MS + 10_000;
    expect(changeFeed.unchangedSince(stateKey("nobody"), later - KV_PROPAGATION_MS, start + 1_000)).toBe(true);
  });

  it("the minute cron deletes the feed's rows past two hours", async () => {
    const now = Date.now();
    await db()
      .insert(deliveryChanges)
      .values([
        { key: "s:old", changedAt: now - 2 * KEPT_UNCHANGED_MS - 1_000 },
        { key: "s:new", changedAt: now - 2 * KEPT_UNCHANGED_MS + 60_000 },
      ]);
    await runEveryMinute(testEnv(), new Date(now));
    expect((await db().select().from(deliveryChanges)).map((r) => r.key)).toEqual(["s:new"]);
  });
});
