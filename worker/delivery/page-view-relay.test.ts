import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { PageViewBundle, PageViewEvent } from "../messages/analytics";
import { MessageGatherer, pickRelay, relayShards } from "./page-view-relay";
import { BUNDLE_MAX_BYTES, BUNDLE_MAX_VIEWS } from "./view-bundle";

let nextId = 0;
const view = (url = "https://shop.test/"): PageViewEvent => ({
  id: `view-${nextId++}`,
  userId: "u1",
  url,
  mappingId: null,
  delivered: false,
  timestamp: Date.parse("2026-11-26T10:00:00Z"),
  userAgent: null,
  referer: null,
});
const bundleOf = (n: number, url?: string): PageViewBundle => ({ views: Array.from({ length: n }, () => view(url)) });
const bytes = (message: unknown) => new TextEncoder().encode(JSON.stringify(message)).byteLength;

function recording(windowMs: number) {
  const messages: PageViewBundle[] = [];
  const gatherer = new MessageGatherer(windowMs, async (m) => void messages.push(m));
  return { gatherer, messages };
}

describe("the page view relay", () => {
  it("puts the small bundles of several isolates in one message, and answers each once it is sent", async () => {
    const { gatherer, messages } = recording(50);
    const [a, b, c] = [bundleOf(2), bundleOf(1), bundleOf(3)];
    let answered = 0;
    const waits = [a, b, c].map((bundle) => gatherer.relay(bundle).then(() => answered++));
    expect(answered).toBe(0);
    await Promise.all(waits);
    expect(answered).toBe(3);
    expect(messages).toHaveLength(1);
    expect(messages[0]!.views.map((v) => v.id)).toEqual([...a.views, ...b.views, ...c.views].map((v) => v.id));
    // The next window opens a message of its own.
    await gatherer.relay(bundleOf(1));
    expect(messages).toHaveLength(2);
  });

  it("sends a message as soon as the next bundle would not fit, so none passes 100 views or 48 KB", async () => {
    const { gatherer, messages } = recording(10_000);
    const many = Array.from({ length: 5 }, () => gatherer.relay(bundleOf(40)));
    // 40 + 40 fit, the third 40 does not: the first message leaves at once, long before its window.
    await many[0];
    expect(messages[0]!.views).toHaveLength(80);
    const long = `https://shop.test/?q=${"€".repeat(2_000)}`;
    const large = Array.from({ length: 8 }, () => gatherer.relay(bundleOf(1, long)));
    await large[0];
    for (const message of messages) {
      expect(message.views.length).toBeLessThanOrEqual(BUNDLE_MAX_VIEWS);
      expect(bytes(message)).toBeLessThanOrEqual(BUNDLE_MAX_BYTES + 100);
    }
  });

  it("fails every bundle of a message the queue did not take, so that each sender sends its own", async () => {
    const gatherer = new MessageGatherer(10, async () => {
      throw new Error("queue down");
    });
    const results = await Promise.allSettled([gatherer.relay(bundleOf(1)), gatherer.relay(bundleOf(2))]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
  });

  it("refuses a bundle larger than a message and takes an empty one without a message", async () => {
    const { gatherer, messages } = recording(10);
    await expect(gatherer.relay(bundleOf(BUNDLE_MAX_VIEWS + 1))).rejects.toThrow(/more than a message/);
    await gatherer.relay({ views: [] });
    expect(messages).toHaveLength(0);
  });

  it("runs as the Durable Object PAGE_VIEW_RELAY, spread over PAGE_VIEW_RELAY_SHARDS objects", async () => {
    expect(await pickRelay(env).relay(bundleOf(2))).toBe(true);
    // A refusal is an answer, not an error: the sender sends the bundle itself.
    expect(await pickRelay(env).relay(bundleOf(BUNDLE_MAX_VIEWS + 1))).toBe(false);
    expect(relayShards({})).toBe(1);
    expect(relayShards({ PAGE_VIEW_RELAY_SHARDS: "8" })).toBe(8);
    expect(relayShards({ PAGE_VIEW_RELAY_SHARDS: "1000" })).toBe(64);
    expect(relayShards({ PAGE_VIEW_RELAY_SHARDS: "none" })).toBe(1);
    const names: string[] = [];
    const namespace = { getByName: (name: string) => (names.push(name), null) };
    const picks = [0, 0.3, 0.99];
    for (const r of picks) pickRelay({ PAGE_VIEW_RELAY: namespace as never, PAGE_VIEW_RELAY_SHARDS: "4" }, () => r);
    expect(names).toEqual(["page-view-relay-0", "page-view-relay-1", "page-view-relay-3"]);
  });
});
