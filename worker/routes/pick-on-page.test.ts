import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { PickFrame } from "#contract/responses";
import { THROTTLES } from "../auth/throttle";
import { SHOW_MESSAGE_TYPE } from "#contract/place-content";
import { PICK_MESSAGE_TYPE } from "#contract/pick-selector";
import { SELECTOR_UNSUPPORTED } from "#contract/placement";
import { PICK_CHECK_NEEDS_PREFIX } from "#contract/schemas";
import { urlStats } from "../db/schema";
import { PICK_FRAME_INVALID } from "../websites/pick-frame";
import { recordRateEvent } from "../models/rate-limits";
import { call, createVerifiedCustomer, db, testEnv } from "../test/helpers";
import { standInDns, type DnsStandIn } from "../test/websites";
import { INSTALL_CHECK_TARGET_PROBLEMS } from "../websites/install-check";
import { PICK_NO_ORIGIN } from "./pick-on-page";

const PAGE = "https://shop.test/offer";
const DELIVERY = "https://cdn.dc.test";

let serve: (request: Request) => Response | Promise<Response>;
let dns: DnsStandIn;
beforeEach(() => {
  serve = () =>
    new Response(
      `<!doctype html><html><head><title>Shop</title><script src="/app.js"></script></head>` +
        `<body><section id="hero" onclick="steal()">Offer</section><script>steal()</script></body></html>`,
      { headers: { "Content-Type": "text/html; charset=utf-8" } },
    );
  dns = standInDns((request) => (dns.addresses.has(new URL(request.url).hostname) ? serve(request) : undefined));
  dns.addresses.set("shop.test", ["93.184.216.34"]);
});
afterEach(() => vi.restoreAllMocks());

const production = (overrides = {}) => testEnv({ ENVIRONMENT: "production", DELIVERY_ORIGIN: DELIVERY, ...overrides });

async function frameLink(url: string, env = production()) {
  const { apiKey } = await createVerifiedCustomer(`c${crypto.randomUUID()}@example.com`);
  const res = await call("/api/pick-on-page", { method: "POST", apiKey, json: { url } }, env);
  return { res, body: (await res.json()) as PickFrame & { error?: string }, apiKey };
}

describe("POST /api/pick-on-page", () => {
  it("answers a frame link on the delivery origin, not the dashboard's", async () => {
    const { res, body } = await frameLink(PAGE);
    expect(res.status).toBe(200);
    expect(body.frameOrigin).toBe(DELIVERY);
    expect(new URL(body.frameUrl).origin).toBe(DELIVERY);
    expect(new URL(body.frameUrl).pathname).toBe("/pick-frame");
  });

  it("refuses a URL the outbound rule refuses, with its message", async () => {
    const { res, body } = await frameLink("https://127.0.0.1/admin");
    expect(res.status).toBe(400);
    expect(body.error).toBe(INSTALL_CHECK_TARGET_PROBLEMS["public-host"]);
  });

  it("answers 503 when delivery shares the dashboard's origin in production", async () => {
    const { res, body } = await frameLink(PAGE, testEnv({ ENVIRONMENT: "production" }));
    expect(res.status).toBe(503);
    expect(body.error).toBe(PICK_NO_ORIGIN);
  });

  it("needs a signed-in customer", async () => {
    const res = await call("/api/pick-on-page", { method: "POST", json: { url: PAGE } }, production());
    expect(res.status).toBe(401);
  });

  it("is throttled per account", async () => {
    const { user, apiKey } = await createVerifiedCustomer(`c${crypto.randomUUID()}@example.com`);
    for (let i = 0; i < THROTTLES["pick-on-page"].perAccount.max; i++) {
      await recordRateEvent(db(), `pick-on-page:account:${user.id.toLowerCase()}`);
    }
    const res = await call("/api/pick-on-page", { method: "POST", apiKey, json: { url: PAGE } }, production());
    expect(res.status).toBe(429);
  });
});

describe("GET /pick-frame", () => {
  it("serves the page without its scripts, with the picker, framed by the dashboard only", async () => {
    const env = production();
    const { body } = await frameLink(PAGE, env);
    const res = await call(body.frameUrl, {}, env);
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain('<base href="https://shop.test/offer">');
    expect(page).toContain('<section id="hero"');
    expect(page).not.toContain("app.js");
    expect(page).not.toContain("<script>steal()");
    expect(page).toContain(PICK_MESSAGE_TYPE);
    expect(page).toContain(SHOW_MESSAGE_TYPE);
    const nonce = /<script nonce="([^"]+)">/.exec(page)?.[1];
    expect(nonce).toBeTruthy();
    // Listening before the body is shown: no element can be clicked before the picker runs.
    expect(page.indexOf(`<script nonce="${nonce}">`)).toBeLessThan(page.indexOf("<body"));
    const policy = res.headers.get("Content-Security-Policy") ?? "";
    expect(policy).toContain(`script-src 'nonce-${nonce}'`);
    expect(policy).toContain("frame-ancestors https://dc.test");
  });

  it("puts the picker first in a page without a head or body", async () => {
    serve = () =>
      new Response('<script>x()</script><section id="hero">Offer</section>', {
        headers: { "Content-Type": "text/html" },
      });
    const env = production();
    const { body } = await frameLink(PAGE, env);
    const page = await (await call(body.frameUrl, {}, env)).text();
    expect(page.match(/<script nonce=/g)).toHaveLength(1);
    expect(page.indexOf("<script nonce=")).toBeLessThan(page.indexOf('<section id="hero"'));
  });

  it("refuses a missing, forged or expired token, and fetches nothing", async () => {
    const env = production();
    const fetched = vi.fn(serve);
    serve = fetched;
    const { body } = await frameLink(PAGE, env);
    const forged = new URL(body.frameUrl);
    forged.searchParams.set("t", `${forged.searchParams.get("t")!.split(".")[0]}.00`);
    for (const url of [`${DELIVERY}/pick-frame`, forged.href]) {
      const res = await call(url, {}, env);
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: string }).error).toBe(PICK_FRAME_INVALID);
    }
    vi.useFakeTimers({ now: Date.now() + 11 * 60 * 1000, toFake: ["Date"] });
    try {
      expect((await call(body.frameUrl, {}, env)).status).toBe(403);
    } finally {
      vi.useRealTimers();
    }
    expect(fetched).not.toHaveBeenCalled();
  });

  it("is not served on the dashboard's origin", async () => {
    const env = production();
    const { body } = await frameLink(PAGE, env);
    const onDashboard = body.frameUrl.replace(DELIVERY, "https://dc.test");
    expect((await call(onDashboard, {}, env)).status).toBe(404);
  });

  it("is throttled per address", async () => {
    const env = production();
    const { body } = await frameLink(PAGE, env);
    const res = await call(body.frameUrl, { headers: { "CF-Connecting-IP": "198.51.100.7" } }, env);
    expect(res.status).toBe(200);
    for (let i = 0; i < THROTTLES["pick-on-page"].perIp.max; i++) {
      await recordRateEvent(db(), "pick-on-page:ip:198.51.100.7");
    }
    const refused = await call(body.frameUrl, { headers: { "CF-Connecting-IP": "198.51.100.7" } }, env);
    expect(refused.status).toBe(429);
  });
});

describe("POST /api/pick-on-page/check", () => {
  const page = (body: string, status = 200) =>
    new Response(`<!doctype html><html><body>${body}</body></html>`, {
      status,
      headers: { "Content-Type": "text/html; charset=utf-8" },
    });

  /** A customer whose visitors viewed `urls` (normalised), the first most recently. */
  async function customerWithViews(urls: string[]) {
    const { user, apiKey } = await createVerifiedCustomer(`c${crypto.randomUUID()}@example.com`);
    const now = Date.now();
    await db()
      .insert(urlStats)
      .values(
        urls.map((url, i) => ({
          userId: user.id,
          url,
          hits: 1,
          lastAccessed: new Date(now - i * 60_000),
          lastAccessedHour: Math.floor((now - i * 60_000) / 3_600_000),
        })),
      );
    return { user, apiKey };
  }

  const check = (apiKey: string, json: unknown) =>
    call("/api/pick-on-page/check", { method: "POST", apiKey, json }, production());

  it("looks for the selector on the 3 most recently viewed other pages under the prefix", async () => {
    serve = (request) => {
      const path = new URL(request.url).pathname;
      if (path === "/offers/spring") return page('<main><section id="hero">Spring</section></main>');
      if (path === "/offers/summer") return page("<main>No hero here</main>");
      if (path === "/offers/gone") return page("Gone", 404);
      return page('<section id="hero">Elsewhere</section>');
    };
    const fetched = vi.fn(serve);
    serve = fetched;
    const { apiKey } = await customerWithViews([
      "shop.test/offers/spring",
      "shop.test/offersale", // not under the prefix
      "shop.test/offers", // the page picked on
      "shop.test/offers/summer",
      "shop.test/offers/gone",
      "shop.test/offers/autumn", // the fourth: not checked
    ]);
    const res = await check(apiKey, { url: "https://shop.test/offers/*", selector: "#hero" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      pages: [
        { url: "https://shop.test/offers/spring", found: true },
        { url: "https://shop.test/offers/summer", found: false },
        { url: "https://shop.test/offers/gone", found: null },
      ],
    });
    expect(fetched).toHaveBeenCalledTimes(3);
  });

  it("answers no pages when visitors viewed none under the prefix", async () => {
    const { apiKey } = await customerWithViews(["shop.test/other"]);
    const res = await check(apiKey, { url: "https://shop.test/offers/*", selector: "#hero" });
    expect(await res.json()).toEqual({ pages: [] });
  });

  it("refuses an exact URL, a selector outside the grammar and a URL the outbound rule refuses", async () => {
    const { apiKey } = await customerWithViews(["shop.test/offers/spring"]);
    const exact = await check(apiKey, { url: "https://shop.test/offers", selector: "#hero" });
    expect(exact.status).toBe(400);
    expect(JSON.stringify(await exact.json())).toContain(PICK_CHECK_NEEDS_PREFIX);
    const sibling = await check(apiKey, { url: "https://shop.test/offers/*", selector: "h1 + p" });
    expect(sibling.status).toBe(400);
    expect(JSON.stringify(await sibling.json())).toContain(SELECTOR_UNSUPPORTED);
    const local = await check(apiKey, { url: "https://127.0.0.1/offers/*", selector: "#hero" });
    expect(local.status).toBe(400);
    expect(((await local.json()) as { error: string }).error).toBe(INSTALL_CHECK_TARGET_PROBLEMS["public-host"]);
  });

  it("shares the pick-on-page throttle", async () => {
    const { user, apiKey } = await customerWithViews(["shop.test/offers/spring"]);
    for (let i = 0; i < THROTTLES["pick-on-page"].perAccount.max; i++) {
      await recordRateEvent(db(), `pick-on-page:account:${user.id.toLowerCase()}`);
    }
    expect((await check(apiKey, { url: "https://shop.test/offers/*", selector: "#hero" })).status).toBe(429);
  });
});
