import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env as bindings } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ADDRESS_DAILY_EXPOSURES, type ExperimentResults } from "#contract/experiments";
import { productVersions, users, websites } from "../db/schema";
import type { AnalyticsMessage } from "../messages/analytics";
import {
  call,
  countViews,
  createAdmin,
  createCustomerOnPlan,
  createVerifiedCustomer,
  db,
  postAbTest,
  testEnv,
} from "../test/helpers";
import { syncCustomerState } from "./sync";
import { provenWebsite, standInDns } from "../test/websites";
import { forgetResolutions } from "../http/outbound-target";
import { EDGE_LOOP_HEADER } from "./edge-proxy";
import { app } from "../app";
import { EDGE_MARK } from "#contract/delivery-paths";

const ORIGIN = "https://origin.shop.test";
const PAGE = "<!doctype html><html><head><title>Shop</title></head><body><h1>Welcome</h1></body></html>";

/** The customer's origin server: answers what `serve` says and records what it was asked. */
function stubOrigin(serve: (request: Request) => Response | Promise<Response>) {
  const asked: Request[] = [];
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.startsWith(ORIGIN)) return realFetch(input, init);
    asked.push(request.clone());
    return serve(request);
  });
  return asked;
}

const html = (body: string, headers: Record<string, string> = {}) =>
  new Response(body, { headers: { "Content-Type": "text/html; charset=utf-8", ...headers } });

/**
 * A customer whose shop.test is a proven edge website (with `assetOrigin`, if given), with one mapping on it; on the
 * default plan (1,000 content deliveries a period) or on `plan`.
 */
async function edgeCustomer(plan?: { dynamicContentLimit: number | null }, assetOrigin: string | null = null) {
  const customer = plan
    ? await createCustomerOnPlan(plan)
    : await createVerifiedCustomer(`c${crypto.randomUUID()}@example.com`);
  await provenWebsite(customer.user.id, "shop.test", { origin: ORIGIN, mode: "edge", assetOrigin });
  const mapping = await call("/api/mappings", {
    method: "POST",
    apiKey: customer.apiKey,
    json: { url: "https://shop.test/offer", htmlContent: "<p>Sale</p>" },
  });
  expect(mapping.status).toBe(201);
  return customer;
}

afterEach(() => vi.restoreAllMocks());

describe("edge delivery", () => {
  it("streams the content into the origin's page, first in <body> in the snippet's container, and counts one page view", async () => {
    const { user } = await edgeCustomer();
    const asked = stubOrigin(() =>
      html(PAGE, { "Set-Cookie": "cart=1; Path=/", "Content-Length": String(PAGE.length) }),
    );
    const env = testEnv();
    const res = await call(
      "https://www.shop.test/offer",
      { headers: { "CF-Connecting-IP": "203.0.113.5", Cookie: "session=abc", "User-Agent": "Test" } },
      env,
    );
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(
      "<!doctype html><html><head>" +
        EDGE_MARK +
        '<title>Shop</title></head><body><div data-dynamic-content=""><p>Sale</p></div><h1>Welcome</h1></body></html>',
    );
    expect(res.headers.get("Set-Cookie")).toBe("cart=1; Path=/");
    expect(res.headers.get("Content-Length")).toBeNull();
    // None of the product's own headers on the customer's page.
    expect(res.headers.get("Content-Security-Policy")).toBeNull();

    expect(asked).toHaveLength(1);
    expect(asked[0]!.url).toBe(`${ORIGIN}/offer`);
    expect(asked[0]!.headers.get("Cookie")).toBe("session=abc");
    expect(asked[0]!.headers.get("X-Forwarded-Host")).toBe("www.shop.test");
    expect(asked[0]!.headers.get("X-Forwarded-For")).toBe("203.0.113.5");
    // The loop mark is derived from APP_SECRET: only the Worker's own requests carry it.
    expect(asked[0]!.headers.get(EDGE_LOOP_HEADER)).toMatch(/^[0-9a-f]{64}$/);

    expect(env.sent).toHaveLength(1);
    expect(env.sent[0]).toMatchObject({ userId: user.id, url: "https://www.shop.test/offer", delivered: true });
  });

  it("passes a page without a mapping through byte for byte, and counts it as a request", async () => {
    const { user } = await edgeCustomer();
    const asked = stubOrigin(() => html(PAGE));
    const env = testEnv();
    const res = await call("https://shop.test/about?lang=de", {}, env);
    expect(await res.text()).toBe(PAGE);
    expect(asked[0]!.url).toBe(`${ORIGIN}/about?lang=de`);
    expect(env.sent).toEqual([expect.objectContaining({ userId: user.id, delivered: false, mappingId: null })]);
  });

  it.each([
    ["a POST", "/offer", { method: "POST", body: "q=1" }, () => html(PAGE)],
    ["a HEAD", "/offer", { method: "HEAD" }, () => html("")],
    ["a redirect", "/offer", {}, () => new Response(null, { status: 301, headers: { Location: "/new" } })],
    [
      "an error page",
      "/offer",
      {},
      () => new Response(PAGE, { status: 404, headers: { "Content-Type": "text/html" } }),
    ],
    ["an image", "/logo.png", {}, () => new Response("PNG", { headers: { "Content-Type": "image/png" } })],
  ])("passes %s through untouched and counts nothing", async (_, path, init: RequestInit, serve) => {
    await edgeCustomer();
    const asked = stubOrigin(serve);
    const env = testEnv();
    const res = await call(`https://shop.test${path}`, init, env);
    const expected = serve();
    expect(res.status).toBe(expected.status);
    expect(res.headers.get("Location")).toBe(expected.headers.get("Location"));
    expect(await res.text()).toBe(init.method === "HEAD" ? "" : await expected.text());
    expect(asked[0]!.method).toBe(init.method ?? "GET");
    if (init.method === "POST") expect(await asked[0]!.text()).toBe("q=1");
    expect(env.sent).toEqual([]);
  });

  it.each(["image", "script", "empty"])(
    "passes an HTML answer the browser fetched as %s (Sec-Fetch-Dest) through untouched and counts nothing",
    async (destination) => {
      await edgeCustomer();
      stubOrigin(() => html(PAGE));
      const env = testEnv();
      const res = await call("https://shop.test/offer", { headers: { "Sec-Fetch-Dest": destination } }, env);
      expect(await res.text()).toBe(PAGE);
      expect(env.sent).toEqual([]);
    },
  );

  it("passes a favicon asked for over plain HTTP (no Sec-Fetch-Dest) through untouched, by its Accept", async () => {
    await edgeCustomer();
    stubOrigin(() => html(PAGE));
    const env = testEnv();
    const accept = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8";
    const res = await call("https://shop.test/offer", { headers: { Accept: accept } }, env);
    expect(await res.text()).toBe(PAGE);
    expect(env.sent).toEqual([]);
  });

  it("treats a document or frame the browser asks for as a page view", async () => {
    await edgeCustomer();
    stubOrigin(() => html(PAGE));
    const env = testEnv();
    for (const destination of ["document", "iframe"]) {
      const res = await call("https://shop.test/offer", { headers: { "Sec-Fetch-Dest": destination } }, env);
      expect(await res.text()).toContain("<p>Sale</p>");
    }
    expect(env.sent).toHaveLength(2);
  });

  it("follows the same URL rules as the snippet: a campaign link to a page under a prefix gets its content", async () => {
    const { apiKey } = await edgeCustomer();
    const blog = await call("/api/mappings", {
      method: "POST",
      apiKey,
      json: { url: "https://shop.test/blog/*", htmlContent: "<p>Blog</p>" },
    });
    expect(blog.status).toBe(201);
    const asked = stubOrigin(() => html(PAGE));
    const env = testEnv();
    const res = await call("https://shop.test/blog/2026/post?utm_source=newsletter&id=7", {}, env);
    expect(await res.text()).toContain('<div data-dynamic-content=""><p>Blog</p></div>');
    // The origin gets the URL as the visitor asked it; the view is counted without the tracking parameters.
    expect(asked[0]!.url).toBe(`${ORIGIN}/blog/2026/post?utm_source=newsletter&id=7`);
    expect(env.sent[0]).toMatchObject({ url: "https://shop.test/blog/2026/post?id=7", delivered: true });
  });

  it("answers 508 instead of proxying to itself when the origin points back at the Worker", async () => {
    await edgeCustomer();
    const asked = stubOrigin(() => html(PAGE));
    await call("https://shop.test/offer");
    const mark = asked[0]!.headers.get(EDGE_LOOP_HEADER)!;
    // The Worker's own request, come back through an origin that points at it.
    const res = await call("https://shop.test/offer", { headers: { [EDGE_LOOP_HEADER]: mark } });
    expect(res.status).toBe(508);
    expect(await res.text()).toContain("points back at Dynamic Content");
    expect(asked).toHaveLength(1);
  });

  it("takes no loop header from a visitor: it is removed, and the page is served", async () => {
    await edgeCustomer();
    const asked = stubOrigin(() => html(PAGE));
    const res = await call("https://shop.test/offer", { headers: { [EDGE_LOOP_HEADER]: "1" } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("<p>Sale</p>");
    expect(asked[0]!.headers.get(EDGE_LOOP_HEADER)).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ["//evil.test/x", "//evil.test/x"],
    ["/\\evil.test/x", "//evil.test/x"],
    ["/%2F%2Fevil.test/x", "/%2F%2Fevil.test/x"],
    ["/%5Cevil.test/x", "/%5Cevil.test/x"],
    ["//evil.test:8080/x?y=1", "//evil.test:8080/x?y=1"],
  ])("fetches only the stored origin for the path %s", async (path, onOrigin) => {
    await edgeCustomer();
    const asked = stubOrigin(() => html(PAGE));
    const res = await call(`https://shop.test${path}`);
    expect(res.status).toBe(200);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.url).toBe(`${ORIGIN}${onOrigin}`);
  });

  it("drops the origin's validators and range from a page it put content into, and keeps them on others", async () => {
    await edgeCustomer();
    const validators = { ETag: '"v1"', "Last-Modified": "Wed, 01 Jan 2026 00:00:00 GMT" };
    stubOrigin(() => html(PAGE, validators));
    const rewritten = await call("https://shop.test/offer");
    expect(await rewritten.text()).toContain("<p>Sale</p>");
    expect(rewritten.headers.get("ETag")).toBeNull();
    expect(rewritten.headers.get("Last-Modified")).toBeNull();
    const untouched = await call("https://shop.test/about");
    expect(untouched.headers.get("ETag")).toBe('"v1"');
  });

  it("passes a partial answer (206) through as it is, never rewritten", async () => {
    await edgeCustomer();
    const partial = PAGE.slice(0, 20);
    stubOrigin(
      () =>
        new Response(partial, {
          status: 206,
          headers: { "Content-Type": "text/html", "Content-Range": `bytes 0-19/${PAGE.length}` },
        }),
    );
    const env = testEnv();
    const res = await call("https://shop.test/offer", { headers: { Range: "bytes=0-19" } }, env);
    expect(res.status).toBe(206);
    expect(res.headers.get("Content-Range")).toBe(`bytes 0-19/${PAGE.length}`);
    expect(await res.text()).toBe(partial);
    expect(env.sent).toEqual([]);
  });

  it("answers 502 with a message when the origin cannot be reached, and counts nothing", async () => {
    await edgeCustomer();
    stubOrigin(() => {
      throw new TypeError("Network connection lost.");
    });
    const env = testEnv();
    const res = await call("https://shop.test/offer", {}, env);
    expect(res.status).toBe(502);
    expect(await res.text()).toBe("This website's server could not be reached. Please try again in a moment.");
    expect(env.sent).toEqual([]);
  });

  it("in production calls no origin whose name now resolves to a private address, and asks DNS once a minute (P-11)", async () => {
    await edgeCustomer();
    const asked = stubOrigin(() => html(PAGE));
    const dns = standInDns();
    const host = new URL(ORIGIN).hostname;
    dns.addresses.set(host, ["127.0.0.1"]);
    const production = testEnv({ ENVIRONMENT: "production" });
    const refused = await call("https://shop.test/offer", {}, production);
    expect(refused.status).toBe(502);
    expect(await refused.text()).toBe("This website's server is not a public server Dynamic Content may call.");
    expect(asked).toEqual([]);
    expect(production.sent).toEqual([]);

    // A minute later (what was kept is forgotten) the name answers a public address again.
    dns.addresses.set(host, ["93.184.216.34"]);
    forgetResolutions();
    expect((await call("https://shop.test/offer", {}, production)).status).toBe(200);
    const lookups = dns.resolved.length;
    expect((await call("https://shop.test/offer", {}, production)).status).toBe(200);
    expect(dns.resolved).toHaveLength(lookups);
    expect(asked).toHaveLength(2);
  });

  it("asks no visitor budget for a customer without a request or dynamic-content limit, one per page view otherwise", async () => {
    let calls = 0;
    const inner = testEnv().CONTENT_VISITOR_LIMITER;
    const limiter: RateLimit = { limit: (options) => (calls++, inner.limit(options)) };
    stubOrigin(() => html(PAGE));
    const view = async (env = testEnv({ CONTENT_VISITOR_LIMITER: limiter })) => {
      expect(await (await call("https://shop.test/offer", {}, env)).text()).toContain("<p>Sale</p>");
      return env.sent.length;
    };

    const unlimited = await edgeCustomer({ dynamicContentLimit: null });
    for (let i = 0; i < 3; i++) expect(await view()).toBe(1);
    expect(calls).toBe(0);
    // The same website, now of a metered customer's.
    const admin = await createAdmin();
    const limited = await call(`/api/admin/users/${unlimited.user.id}/limits`, {
      method: "PATCH",
      apiKey: admin.apiKey,
      json: { requestLimit: 1000 },
    });
    expect(limited.status).toBe(200);
    for (let i = 0; i < 3; i++) expect(await view()).toBe(1);
    expect(calls).toBe(3);
  });

  it("serves a metered customer's page without content past the visitor's budget, and counts nothing", async () => {
    await edgeCustomer();
    stubOrigin(() => html(PAGE));
    const env = testEnv({ CONTENT_VISITOR_LIMITER: { limit: async () => ({ success: false }) } });
    expect(await (await call("https://shop.test/offer", {}, env)).text()).toBe(PAGE);
    expect(env.sent).toEqual([]);
  });

  it("stops proxying a deactivated customer's website at once (421), asks nothing, and serves it again once active", async () => {
    const { user } = await edgeCustomer();
    const admin = await createAdmin();
    const setActive = (isActive: boolean) =>
      call(`/api/admin/users/${user.id}/status`, { method: "PATCH", apiKey: admin.apiKey, json: { isActive } });
    expect((await setActive(false)).status).toBe(200);
    const asked = stubOrigin(() => html(PAGE));
    const env = testEnv();
    for (const path of ["/offer", "/logo.png"]) {
      const res = await call(`https://shop.test${path}`, { method: path === "/offer" ? "GET" : "HEAD" }, env);
      expect(res.status, path).toBe(421);
    }
    expect(asked).toEqual([]);
    expect(env.sent).toEqual([]);
    expect((await setActive(true)).status).toBe(200);
    expect(await (await call("https://shop.test/offer", {}, env)).text()).toContain("<p>Sale</p>");
  });

  it("proxies no more edge websites than the plan allows: the first proven, whatever the plan becomes", async () => {
    const customer = await createCustomerOnPlan({ websitesLimit: 2 });
    const proven = Date.now();
    for (const [i, hostname] of ["shop.test", "second.test"].entries()) {
      await provenWebsite(customer.user.id, hostname, { origin: ORIGIN, mode: "edge" });
      await db()
        .update(websites)
        .set({ verifiedAt: new Date(proven + i) })
        .where(eq(websites.hostname, hostname));
    }
    stubOrigin(() => html(PAGE));
    const plan = (await db().select().from(users).where(eq(users.id, customer.user.id)))[0]!.productVersionId!;
    await syncCustomerState(bindings, customer.user.id);
    expect((await call("https://second.test/")).status).toBe(200);
    // Down to one website: the one proven first stays served, the other answers 421 until the plan allows it.
    await db().update(productVersions).set({ websitesLimit: 1 }).where(eq(productVersions.id, plan));
    await syncCustomerState(bindings, customer.user.id);
    expect((await call("https://shop.test/")).status).toBe(200);
    expect((await call("https://second.test/")).status).toBe(421);
    await db().update(productVersions).set({ websitesLimit: null }).where(eq(productVersions.id, plan));
    await syncCustomerState(bindings, customer.user.id);
    expect((await call("https://second.test/")).status).toBe(200);
  });

  it("leaves the product's own host alone, and answers 421 with nothing of ours for any other host", async () => {
    await edgeCustomer();
    const asked = stubOrigin(() => html(PAGE));
    expect((await call("http://dc.test/api/site-config")).status).toBe(200);
    // (`/snippet.js` never reaches the Worker: a public static asset on any host; snippet-asset.test.ts.)
    for (const url of [
      "https://unknown.test/api/site-config",
      "https://unknown.test/admin-login",
      "https://unknown.test/api/auth",
      "https://dc.acme.workers.dev/",
      "http://127.0.0.2/",
    ]) {
      const res = await call(url);
      expect(res.status, url).toBe(421);
      expect(res.headers.get("Content-Type"), url).toBe("text/plain; charset=utf-8");
      expect(await res.text(), url).toBe("Misdirected Request: this host is not served here.");
    }
    expect(asked).toEqual([]);
  });

  it("routes every leading www. to the website, as claims name it", async () => {
    await edgeCustomer();
    const asked = stubOrigin(() => html(PAGE));
    const res = await call("https://www.www.shop.test/");
    expect(res.status).toBe(200);
    expect(asked).toHaveLength(1);
  });

  it("serves nothing for a hostname that is only claimed, not proven", async () => {
    const customer = await createVerifiedCustomer("c@example.com");
    const claim = await call("/api/websites/pending.test", {
      method: "PUT",
      apiKey: customer.apiKey,
      json: { origin: ORIGIN, mode: "edge" },
    });
    expect(claim.status).toBe(201);
    const asked = stubOrigin(() => html(PAGE));
    expect((await call("https://pending.test/")).status).toBe(421);
    expect(asked).toEqual([]);
  });

  it("stops rewriting and counting a deleted customer's website at once, then answers 421", async () => {
    const { user } = await edgeCustomer();
    const admin = await createAdmin();
    stubOrigin(() => html(PAGE));
    const deleted = await call(`/api/admin/users/${user.id}`, { method: "DELETE", apiKey: admin.apiKey });
    expect(deleted.status).toBe(200);
    const env = testEnv();
    const res = await call("https://shop.test/offer", {}, env);
    expect(res.status).toBe(421);
    expect(env.sent).toEqual([]);
  });

  it("does not count the snippet's first load on an edge website again, but counts its navigations", async () => {
    const { user } = await edgeCustomer();
    const env = testEnv();
    const ask = (nav: string) =>
      call(`/api/content?u=${user.id}&url=${encodeURIComponent("https://shop.test/offer")}${nav}`, {}, env);
    const first = await ask("");
    expect(await first.text()).toBe("<p>Sale</p>");
    expect(env.sent).toEqual([]);
    expect(await (await ask("&nav=1")).text()).toBe("<p>Sale</p>");
    expect(env.sent).toEqual([expect.objectContaining({ userId: user.id, delivered: true })]);
  });

  describe("placement and SEO fields", () => {
    const SLOTTED =
      '<!doctype html><html><head><meta charset="utf-8"><title>Shop</title>' +
      '<meta name="description" content="Old"><link rel="canonical" href="https://shop.test/old"></head>' +
      '<body><header>H</header><div id="slot" class="s">Slot</div><div id="slot">Second</div><footer>F</footer></body></html>';

    async function edgeMapping(extras: object) {
      const customer = await edgeCustomer();
      const mappings = (await (await call("/api/mappings", { apiKey: customer.apiKey })).json()) as { id: number }[];
      const res = await call(`/api/mappings/${mappings[0]!.id}`, {
        method: "PATCH",
        apiKey: customer.apiKey,
        json: extras,
      });
      expect(res.status).toBe(200);
      stubOrigin(() => html(SLOTTED));
      return (await call("https://shop.test/offer")).text();
    }

    const container = '<div data-dynamic-content=""><p>Sale</p></div>';
    it.each([
      ["before", `${container}<div id="slot" class="s">Slot</div>`],
      ["after", `<div id="slot" class="s">Slot</div>${container}`],
      ["inside", `<div id="slot" class="s">${container}Slot</div>`],
      ["replace", `<header>H</header>${container}<div id="slot">Second</div>`],
    ])("puts the content %s the first element the selector names, and nowhere else", async (position, expected) => {
      const page = await edgeMapping({ placement: { position, selector: "#slot" } });
      expect(page).toContain(expected);
      expect(page.split("data-dynamic-content").length - 1).toBe(1);
      // Not at the top of <body> as well.
      expect(page).toContain("<body><header>H</header>");
    });

    it("inserts nothing when the selector names no element, and serves the page otherwise as it was", async () => {
      const page = await edgeMapping({ placement: { position: "inside", selector: "#missing" } });
      expect(page).toBe(SLOTTED.replace("<head>", `<head>${EDGE_MARK}`));
    });

    /** The page at `selector`'s placement, read whole before the request's background work is waited for. */
    async function streamedPage(selector: string) {
      const customer = await edgeCustomer();
      const mappings = (await (await call("/api/mappings", { apiKey: customer.apiKey })).json()) as { id: number }[];
      const id = mappings[0]!.id;
      const patched = await call(`/api/mappings/${id}`, {
        method: "PATCH",
        apiKey: customer.apiKey,
        json: { placement: { position: "inside", selector } },
      });
      expect(patched.status).toBe(200);
      stubOrigin(() => html(SLOTTED));
      const env = testEnv();
      const ctx = createExecutionContext();
      await (await app.request("https://shop.test/offer", {}, env, ctx)).text();
      await waitOnExecutionContext(ctx);
      return { id, userId: customer.user.id, env };
    }

    it("reports a selector that named no element with the views, once the page has streamed", async () => {
      const { id, userId, env } = await streamedPage("#missing");
      expect(env.sent).toEqual([expect.objectContaining({ mappingId: id, delivered: true })]);
      const misses = env.analyticsMessages.flatMap((m) => ("views" in m ? (m.misses ?? []) : []));
      expect(misses).toEqual([{ userId, mappingId: id, timestamp: expect.any(Number) }]);
    });

    it("reports no miss when the selector names an element", async () => {
      const { id, env } = await streamedPage("#slot");
      expect(env.sent).toEqual([expect.objectContaining({ mappingId: id, delivered: true })]);
      expect(env.analyticsMessages.some((m) => "views" in m && m.misses !== undefined)).toBe(false);
    });

    it("writes the SEO fields at the end of <head>, escaped, in place of the page's own", async () => {
      const page = await edgeMapping({
        seo: {
          title: "Sale </title><script>alert(1)</script>",
          description: 'Say "hi" & <b>',
          canonical: "https://shop.test/sale?a=1&b=2",
          robots: "noindex, nofollow",
          jsonLd: { "@type": "Offer", name: "</script><script>alert(2)</script> <!--" },
        },
      });
      const head = page.slice(page.indexOf("<head>"), page.indexOf("</head>") + "</head>".length);
      expect(head).toBe(
        `<head>${EDGE_MARK}<meta charset="utf-8">` +
          "<title>Sale &lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>" +
          '<meta data-dynamic-content="" name="description" content="Say &quot;hi&quot; &amp; &lt;b&gt;">' +
          '<meta data-dynamic-content="" name="robots" content="noindex, nofollow">' +
          '<link data-dynamic-content="" rel="canonical" href="https://shop.test/sale?a=1&amp;b=2">' +
          '<script data-dynamic-content="" type="application/ld+json">' +
          '{"@type":"Offer","name":"\\u003c/script\\u003e\\u003cscript\\u003ealert(2)\\u003c/script\\u003e \\u003c!--"}' +
          "</script></head>",
      );
      // The JSON-LD a crawler reads back is the customer's, unchanged.
      const ld = head.slice(head.indexOf('json">') + 6, head.lastIndexOf("</script>"));
      expect(JSON.parse(ld)).toEqual({ "@type": "Offer", name: "</script><script>alert(2)</script> <!--" });
      expect(page).toContain(`<body>${container}<header>`);
    });

    it("writes the SEO fields before <body> when the page has no </head>", async () => {
      const customer = await edgeCustomer();
      const [mapping] = (await (await call("/api/mappings", { apiKey: customer.apiKey })).json()) as { id: number }[];
      await call(`/api/mappings/${mapping!.id}`, {
        method: "PATCH",
        apiKey: customer.apiKey,
        json: { seo: { robots: "noindex" } },
      });
      stubOrigin(() => html("<title>Shop</title><body><h1>Welcome</h1></body>"));
      expect(await (await call("https://shop.test/offer")).text()).toBe(
        '<title>Shop</title><meta data-dynamic-content="" name="robots" content="noindex">' +
          `<body>${container}<h1>Welcome</h1></body>`,
      );
    });
  });
});

describe("an experiment at the edge", () => {
  it("keeps a new visitor's id in a cookie, Secure on https only, and treats a crawler like any visitor but for the counts", async () => {
    const customer = await createVerifiedCustomer(`c${crypto.randomUUID()}@example.com`);
    await provenWebsite(customer.user.id, "shop.test", { origin: ORIGIN, mode: "edge" });
    const mapping = await postAbTest(customer.apiKey, "https://shop.test/offer", ["signup"]);
    expect(mapping.status).toBe(201);
    stubOrigin(() => html(PAGE));
    const view = (url: string, headers: Record<string, string> = {}) =>
      call(url, { headers: { "User-Agent": "Test", ...headers } });
    const shown = async (res: Response) => (await res.text()).match(/data-dynamic-content=""><p>([AB])<\/p>/)?.[1];
    const COOKIE = /^dc_vid=([A-Za-z0-9_-]{8,64}); Path=\/; Max-Age=31536000; SameSite=Lax(; Secure)?$/;

    const secure = await view("https://shop.test/offer");
    expect(secure.headers.get("Set-Cookie")).toMatch(COOKIE);
    expect(secure.headers.get("Set-Cookie")).toMatch(/; Secure$/);
    // A browser drops a Secure cookie set over http: there the visitor would be new on every view.
    const plain = await view("http://shop.test/offer");
    const cookie = plain.headers.get("Set-Cookie");
    expect(cookie).toMatch(COOKIE);
    expect(cookie).not.toContain("Secure");
    const variant = await shown(plain);
    expect(variant).toBeDefined();

    const again = await view("http://shop.test/offer", { Cookie: `dc_vid=${COOKIE.exec(cookie!)![1]}` });
    expect(again.headers.get("Set-Cookie")).toBeNull();
    expect(await shown(again)).toBe(variant);

    // Never chosen by user agent: a crawler gets a fresh id and its variant, and with an id, that id's variant.
    const crawler = await view("https://shop.test/offer", { "User-Agent": "Googlebot/2.1" });
    expect(crawler.headers.get("Set-Cookie")).toMatch(COOKIE);
    expect(["A", "B"]).toContain(await shown(crawler));
    const known = await view("http://shop.test/offer", {
      "User-Agent": "Googlebot/2.1",
      Cookie: `dc_vid=${COOKIE.exec(cookie!)![1]}`,
    });
    expect(known.headers.get("Set-Cookie")).toBeNull();
    expect(await shown(known)).toBe(variant);
  });

  it("holds out a share of an audience at the edge: the fallback for their cookie's id, a cookie for the cookieless", async () => {
    const customer = await createVerifiedCustomer(`c${crypto.randomUUID()}@example.com`);
    await provenWebsite(customer.user.id, "shop.test", { origin: ORIGIN, mode: "edge" });
    const post = (json: object) =>
      call("/api/mappings", {
        method: "POST",
        apiKey: customer.apiKey,
        json: { url: "https://shop.test/offer", ...json },
      });
    expect((await post({ htmlContent: "<p>all</p>" })).status).toBe(201);
    const audience = { name: "Germany", country: ["DE"] };
    expect((await post({ htmlContent: "<p>de</p>", audience, holdout: 50, goals: ["signup"] })).status).toBe(201);
    stubOrigin(() => html(PAGE));
    const shown = async (res: Response) => (await res.text()).match(/data-dynamic-content=""><p>(\w+)<\/p>/)?.[1];
    const view = (cookie?: string) =>
      call("https://shop.test/offer", {
        headers: { "User-Agent": "Test", "CF-IPCountry": "DE", ...(cookie ? { Cookie: `dc_vid=${cookie}` } : {}) },
      });

    const seen = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const vid = `edge-holdout-${i}`;
      const first = await shown(await view(vid));
      expect(await shown(await view(vid))).toBe(first);
      seen.add(first!);
    }
    expect([...seen].sort()).toEqual(["all", "de"]);
    const fresh = await view();
    expect(fresh.headers.get("Set-Cookie")).toMatch(/^dc_vid=[A-Za-z0-9_-]{8,64};/);
    expect(["all", "de"]).toContain(await shown(fresh));
  });

  it("counts cookieless page loads from one address as at most 20 new visitors a day", async () => {
    const customer = await createVerifiedCustomer(`c${crypto.randomUUID()}@example.com`);
    await provenWebsite(customer.user.id, "shop.test", { origin: ORIGIN, mode: "edge" });
    const created = await postAbTest(customer.apiKey, "https://shop.test/offer", ["signup"]);
    const { id } = (await created.json()) as { id: number };
    stubOrigin(() => html(PAGE));
    const messages: AnalyticsMessage[] = [];
    // A bot with a browser's user agent and no cookie: every load a new visitor id.
    for (let i = 0; i < ADDRESS_DAILY_EXPOSURES + 10; i++) {
      const e = testEnv();
      const res = await call(
        "https://shop.test/offer",
        { headers: { "User-Agent": "Mozilla/5.0 Chrome/126.0", "CF-Connecting-IP": "198.51.100.23" } },
        e,
      );
      expect(res.headers.get("Set-Cookie")).toMatch(/^dc_vid=/);
      messages.push(...e.analyticsMessages);
    }
    await countViews(messages);
    const results = await call(`/api/mappings/${id}/experiment`, { apiKey: customer.apiKey });
    const { variants } = (await results.json()) as ExperimentResults;
    expect(variants.reduce((sum, v) => sum + v.visitors, 0)).toBe(ADDRESS_DAILY_EXPOSURES);
  });
});

describe("audiences at the edge (docs/audiences.md)", () => {
  const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148";
  const DESKTOP = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120 Safari/537.36";

  /** A customer whose edge page has a fallback and the audience mappings given. */
  async function audienceCustomer(audiences: Record<string, unknown>[]) {
    const customer = await createVerifiedCustomer(`c${crypto.randomUUID()}@example.com`);
    await provenWebsite(customer.user.id, "shop.test", { origin: ORIGIN, mode: "edge" });
    for (const json of [{ htmlContent: "<p>all</p>" }, ...audiences]) {
      const res = await call("/api/mappings", {
        method: "POST",
        apiKey: customer.apiKey,
        json: { url: "https://shop.test/offer", ...json },
      });
      expect(res.status).toBe(201);
    }
    stubOrigin(() => html(PAGE, { "Cache-Control": "public, max-age=600" }));
    return customer;
  }

  const shown = async (res: Response) => (await res.text()).match(/data-dynamic-content=""><p>([^<]*)<\/p>/)?.[1];
  const view = (headers: Record<string, string>) => call("https://shop.test/offer", { headers });

  it("reads CF-IPCountry, the user agent and the Referer, names the audience in X-Audience and keeps the page private", async () => {
    await audienceCustomer([
      {
        htmlContent: "<p>de mobile</p>",
        audience: { name: "Deutschland – mobil", country: ["DE"], device: ["mobile"] },
      },
      { htmlContent: "<p>search</p>", audience: { name: "Search", referrer: ["search"] } },
    ]);
    const deMobile = await view({ "CF-IPCountry": "DE", "User-Agent": IPHONE });
    expect(await shown(deMobile)).toBe("de mobile");
    expect(decodeURIComponent(deMobile.headers.get("X-Audience")!)).toBe("Deutschland – mobil");
    expect(deMobile.headers.get("Cache-Control")).toBe("private, no-store");

    const crawler = await view({ "CF-IPCountry": "DE", "User-Agent": `${IPHONE} (compatible; Googlebot/2.1)` });
    expect(await shown(crawler)).toBe("de mobile");

    const search = await view({ "User-Agent": DESKTOP, Referer: "https://www.google.de/" });
    expect(await shown(search)).toBe("search");
    expect(search.headers.get("X-Audience")).toBe("Search");

    const fallback = await view({ "CF-IPCountry": "FR", "User-Agent": DESKTOP });
    expect(await shown(fallback)).toBe("all");
    expect(fallback.headers.get("X-Audience")).toBeNull();
    expect(fallback.headers.get("Cache-Control")).toBe("private, no-store");
  });

  it("gives a new visitor a dated id and the 30-minute dc_new cookie: new while it is there, returning after", async () => {
    await audienceCustomer([{ htmlContent: "<p>welcome</p>", audience: { name: "New", visitor: "new" } }]);
    const first = await view({ "User-Agent": DESKTOP });
    expect(await shown(first)).toBe("welcome");
    const cookies = first.headers.getSetCookie();
    expect(cookies).toHaveLength(2);
    expect(cookies[0]).toMatch(/^dc_vid=\d+_[0-9a-f]{32}; Path=\/; Max-Age=31536000; SameSite=Lax; Secure$/);
    expect(cookies[1]).toBe("dc_new=1; Path=/; Max-Age=1800; SameSite=Lax; Secure");
    const vid = /^dc_vid=([^;]+)/.exec(cookies[0]!)![1]!;

    const soon = await view({ "User-Agent": DESKTOP, Cookie: `dc_vid=${vid}; dc_new=1` });
    expect(await shown(soon)).toBe("welcome");
    expect(soon.headers.getSetCookie()).toEqual([]);
    const later = await view({ "User-Agent": DESKTOP, Cookie: `dc_vid=${vid}` });
    expect(await shown(later)).toBe("all");
  });

  it("leaves a page without audiences as it was: no cookie, no X-Audience, the origin's Cache-Control", async () => {
    await edgeCustomer();
    stubOrigin(() => html(PAGE, { "Cache-Control": "public, max-age=600" }));
    const res = await view({ "CF-IPCountry": "DE", "User-Agent": IPHONE, Referer: "https://www.google.de/" });
    expect(await shown(res)).toBe("Sale");
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(res.headers.get("X-Audience")).toBeNull();
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=600");
  });
});

describe('subresources from the asset origin (docs/edge-delivery.md, "Assets from another host")', () => {
  const CDN = "https://cdn.shop.example";
  /** One element of each kind the option moves, and of each it leaves alone. */
  const ASSET_PAGE =
    '<!doctype html><html><head><link rel="stylesheet" href="/site.css"><link rel="icon" href="favicon.ico">' +
    '<link rel="preload" href="/f.woff2" as="font" crossorigin><link rel="modulepreload" href="/m.js">' +
    '<link rel="canonical" href="https://shop.test/offer"><link rel="stylesheet" href="https://fonts.other.test/f.css">' +
    '<script src="/app.js?v=1&amp;x=2"></script><script src="/sri.js" integrity="sha384-abc"></script>' +
    '</head><body><a href="/next"><img src="/a.png" srcset="/a.png 1x, https://www.shop.test/a@2x.png 2x"></a>' +
    '<picture><source srcset="/c.webp" type="image/webp"><img src="https://img.other.test/c.jpg"></picture>' +
    '<video src="/v.mp4" poster="/v.jpg"><source src="/v.webm"></video><audio src="//shop.test/s.mp3"></audio>' +
    '<iframe src="/frame"></iframe><form action="/buy"></form><img src="data:image/gif;base64,R0lGOD"></body></html>';
  const MOVED_PAGE =
    `<!doctype html><html><head><link rel="stylesheet" href="${CDN}/site.css"><link rel="icon" href="${CDN}/favicon.ico">` +
    `<link rel="preload" href="${CDN}/f.woff2" as="font" crossorigin><link rel="modulepreload" href="${CDN}/m.js">` +
    '<link rel="canonical" href="https://shop.test/offer"><link rel="stylesheet" href="https://fonts.other.test/f.css">' +
    `<script src="${CDN}/app.js?v=1&amp;x=2"></script><script src="/sri.js" integrity="sha384-abc"></script>` +
    `</head><body><a href="/next"><img src="${CDN}/a.png" srcset="${CDN}/a.png 1x, ${CDN}/a@2x.png 2x"></a>` +
    `<picture><source srcset="${CDN}/c.webp" type="image/webp"><img src="https://img.other.test/c.jpg"></picture>` +
    `<video src="${CDN}/v.mp4" poster="${CDN}/v.jpg"><source src="${CDN}/v.webm"></video><audio src="${CDN}/s.mp3"></audio>` +
    '<iframe src="/frame"></iframe><form action="/buy"></form><img src="data:image/gif;base64,R0lGOD"></body></html>';

  const assetCustomer = (assetOrigin: string | null) => edgeCustomer(undefined, assetOrigin);

  it("moves every kind of own subresource of a page without a mapping, and leaves anchors, forms, frames and other hosts", async () => {
    await assetCustomer(CDN);
    stubOrigin(() => html(ASSET_PAGE, { ETag: '"v1"' }));
    const env = testEnv();
    const res = await call("https://shop.test/about", {}, env);
    expect(await res.text()).toBe(MOVED_PAGE);
    // The validators describe the origin's body, not this one.
    expect(res.headers.get("ETag")).toBeNull();
    expect(env.sent).toEqual([expect.objectContaining({ delivered: false, mappingId: null })]);
  });

  it("moves them in the same pass that puts the content into a mapped page", async () => {
    await assetCustomer(CDN);
    stubOrigin(() => html(ASSET_PAGE));
    const body = await (await call("https://www.shop.test/offer")).text();
    expect(body).toBe(
      MOVED_PAGE.replace("<head>", `<head>${EDGE_MARK}`).replace(
        "<body>",
        '<body><div data-dynamic-content=""><p>Sale</p></div>',
      ),
    );
  });

  it("moves them in HTML fetched by the page's own code, and leaves other types and HEAD as the origin sent them", async () => {
    await assetCustomer(CDN);
    stubOrigin((request) =>
      request.url.endsWith(".css")
        ? new Response("body{background:url(/bg.png)}", { headers: { "Content-Type": "text/css" } })
        : html('<img src="/a.png">', { "Content-Length": "18" }),
    );
    const fragment = await call("https://shop.test/part", { headers: { "Sec-Fetch-Dest": "empty" } });
    expect(await fragment.text()).toBe(`<img src="${CDN}/a.png">`);
    const css = await call("https://shop.test/site.css");
    expect(await css.text()).toBe("body{background:url(/bg.png)}");
    const head = await call("https://shop.test/about", { method: "HEAD" });
    expect(head.headers.get("Content-Length")).toBe("18");
  });

  it("is off unless set: the same page passes through byte for byte, its validators kept", async () => {
    await assetCustomer(null);
    stubOrigin(() => html(ASSET_PAGE, { ETag: '"v1"' }));
    const res = await call("https://shop.test/about");
    expect(await res.text()).toBe(ASSET_PAGE);
    expect(res.headers.get("ETag")).toBe('"v1"');
  });
});
