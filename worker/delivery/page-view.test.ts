import { describe, expect, it } from "vitest";
import type { AdminOverview } from "#contract/responses";
import { call, createAdmin, createVerifiedCustomer, testEnv, type TestEnv } from "../test/helpers";
import type { Env } from "../env";
import { visitorId } from "./page-view";

const SECRET = { APP_SECRET: "test-secret-0123456789abcdef0123456789abcdef" };
const DAY = 86_400_000;

describe("the visitor a page view names", () => {
  it("is a daily hash of the address: the same all day, another the next day, never the address", async () => {
    const now = Date.parse("2026-11-25T10:00:00Z");
    const id = await visitorId(SECRET, "203.0.113.7", now);
    expect(id).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(id).not.toContain("203");
    expect(await visitorId(SECRET, "203.0.113.7", now + 3_600_000)).toBe(id);
    expect(await visitorId(SECRET, "203.0.113.7", now + DAY)).not.toBe(id);
    expect(await visitorId(SECRET, "203.0.113.8", now)).not.toBe(id);
    expect(await visitorId({ APP_SECRET: "another-secret-0123456789abcdef0123456789" }, "203.0.113.7", now)).not.toBe(
      id,
    );
    expect(await visitorId(SECRET, "unknown", now)).toBeNull();
  });

  it("travels with the content endpoint's analytics message, one per IPv6 /64", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    await call("/api/mappings", { method: "POST", apiKey, json: { url: "https://shop.test/", htmlContent: "x" } });
    const e = testEnv();
    const ask = (ip?: string) =>
      call(
        `/api/content?u=${user.id}&url=${encodeURIComponent("https://shop.test/")}`,
        { headers: ip ? { "CF-Connecting-IP": ip } : {} },
        e,
      );
    await ask("2001:db8:1:2::1");
    await ask("2001:db8:1:2::ffff");
    await ask();
    expect(e.sent.map((m) => m.visitor)).toEqual([e.sent[0]!.visitor, e.sent[0]!.visitor, null]);
    expect(e.sent[0]!.visitor).toMatch(/^[A-Za-z0-9_-]{16}$/);
  });
});

describe("page views on the queue", () => {
  async function customerWithPage() {
    const { user, apiKey } = await createVerifiedCustomer("bundles@example.com");
    await call("/api/mappings", { method: "POST", apiKey, json: { url: "https://shop.test/", htmlContent: "x" } });
    return user;
  }
  const ask = (userId: string, e: TestEnv, url = "https://shop.test/") =>
    call(`/api/content?u=${userId}&url=${encodeURIComponent(url)}`, {}, e);

  it("go a few at a time: the views of an isolate's window travel in one message, each with its own id", async () => {
    const user = await customerWithPage();
    const e = testEnv({ PAGE_VIEW_BUNDLE_MS: "300" });
    await Promise.all(Array.from({ length: 5 }, () => ask(user.id, e)));
    expect(e.analyticsMessages).toHaveLength(1);
    expect(e.sent).toHaveLength(5);
    expect(new Set(e.sent.map((v) => v.id)).size).toBe(5);
    // After the window, the next view opens a message of its own.
    await ask(user.id, e);
    expect(e.analyticsMessages).toHaveLength(2);
  });

  it("split when a message is full, so none passes 48 KB (a queue bills each 64 KB of a message again)", async () => {
    const user = await customerWithPage();
    const e = testEnv({ PAGE_VIEW_BUNDLE_MS: "2000" });
    // Three UTF-8 bytes a character: the cap counts bytes, as the queue does.
    const long = `https://shop.test/?q=${"€".repeat(2_000)}`;
    const referer = `https://shop.test/?q=${"x".repeat(2_000)}`;
    await Promise.all(
      Array.from({ length: 60 }, () =>
        call(`/api/content?u=${user.id}&url=${encodeURIComponent(long)}`, { headers: { Referer: referer } }, e),
      ),
    );
    expect(e.sent).toHaveLength(60);
    expect(e.analyticsMessages.length).toBeGreaterThan(1);
    const bytes = (message: unknown) => new TextEncoder().encode(JSON.stringify(message)).byteLength;
    for (const message of e.analyticsMessages) expect(bytes(message)).toBeLessThanOrEqual(48 * 1024);
    // Full bundles go straight to the queue; only a small one (at most half a message) goes through the relay.
    expect(e.relayed.length).toBeLessThan(e.analyticsMessages.length);
    for (const bundle of e.relayed) expect(bytes(bundle)).toBeLessThanOrEqual(24 * 1024);
  }, 15_000);

  it("go through the relay when few, and straight to the queue when the relay fails or refuses", async () => {
    const user = await customerWithPage();
    const e = testEnv({ PAGE_VIEW_BUNDLE_MS: "200" });
    await Promise.all([ask(user.id, e), ask(user.id, e)]);
    expect(e.relayed).toHaveLength(1);
    expect(e.relayed[0]!.views).toHaveLength(2);
    expect(e.analyticsMessages).toHaveLength(1);

    // A relay that restarted (the call throws) or could not send (it answers false).
    for (const relay of [() => Promise.reject(new Error("relay restarted")), () => Promise.resolve(false)]) {
      const failing = testEnv({
        PAGE_VIEW_BUNDLE_MS: "200",
        PAGE_VIEW_RELAY: { getByName: () => ({ relay }) } as unknown as Env["PAGE_VIEW_RELAY"],
      });
      await ask(user.id, failing);
      expect(failing.sent).toHaveLength(1);
      expect(failing.analyticsMessages).toHaveLength(1);
    }
  });

  it("that the queue refuses are recorded as lost, by day, for the admin's overview", async () => {
    const user = await customerWithPage();
    const refusing = testEnv({
      ANALYTICS_QUEUE: { send: () => Promise.reject(new Error("queue down")) } as unknown as Env["ANALYTICS_QUEUE"],
    });
    await ask(user.id, refusing);
    await ask(user.id, refusing);
    const admin = await createAdmin();
    const overview = (await (await call("/api/admin/overview", { apiKey: admin.apiKey })).json()) as AdminOverview;
    expect(overview.analytics.lost).toEqual([
      { day: new Date().toISOString().slice(0, 10), reason: "enqueue", items: 2 },
    ]);
  });
});
