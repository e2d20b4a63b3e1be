import { describe, expect, it } from "vitest";
import { call, createVerifiedCustomer, testEnv } from "../test/helpers";
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
