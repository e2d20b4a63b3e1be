/**
 * Edge delivery, as a visitor's browser meets it: shop.test is the customer's website, claimed in edge mode and
 * proven with a DNS TXT record (published at the run's DNS-over-HTTPS stand-in), and Chromium resolves it to the
 * local Worker (its --host-resolver-rules), which proxies to the customer's server on another local port. Until
 * it is proven, and for any host that is not the product's or a proven website, the Worker answers 421. The
 * content is in the HTML as served, the page does not move, a page without a mapping is the origin's byte for
 * byte, a `//host` path stays on the origin, and the snippet on the page asks nothing on first load but follows
 * navigation.
 */
import { createServer } from "node:http";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AnalyticsRow, CustomerDashboard, Website } from "#contract/responses";
import { freePort } from "../scripts/dev/lib.mjs";
import { launchBrowser } from "./support/browser";
import { startCustomerSite, type CustomerSite } from "./support/customer-site";
import { openPage } from "./support/page-measure";
import { api, baseURL, countPendingViews, COUNTS_POLL, proveWebsite, registerCustomer } from "./support/product";
import { useBrowserAndMail } from "./support/session";

const CUSTOMER = "edge@shop.test";
const SNIPPET_CUSTOMER = "snippet@shop.test";
/** A block at the top of the page, 120 pixels tall, as the issue measured it. */
const BLOCK = '<section id="promo" style="height:120px;background:#fc0"><h2>Black Friday</h2></section>';
const BODY = '<header id="shop-header">Customer shop</header><main style="height:2000px">Original page content</main>';

const session = useBrowserAndMail();
let edgeBrowser: Browser;
let site: CustomerSite;
let snippetSite: CustomerSite;
let apiKey: string;

const firstChildIsContent = (page: Page) =>
  page.evaluate(() => document.body.firstElementChild?.matches("[data-dynamic-content]") ?? false);

beforeAll(async () => {
  apiKey = await registerCustomer(session.mail, CUSTOMER);
  const { jsSnippet } = await api<CustomerDashboard>("/api/user/dashboard", { apiKey });
  site = await startCustomerSite(jsSnippet, BODY);
  session.closeLater(site.close);
  const product = new URL(baseURL).host;
  edgeBrowser = await launchBrowser({ "shop.test": product, "stranger.test": product });
  session.closeLater(() => edgeBrowser.close());

  const mapping = (url: string) => JSON.stringify({ url, htmlContent: BLOCK });
  await api("/api/mappings", { method: "POST", apiKey, body: mapping("http://shop.test/offer") });
  // The same page delivered by the snippet alone, for comparison: another customer's, on the origin's own host.
  const snippetKey = await registerCustomer(session.mail, SNIPPET_CUSTOMER);
  const snippetUser = await api<CustomerDashboard>("/api/user/dashboard", { apiKey: snippetKey });
  snippetSite = await startCustomerSite(snippetUser.jsSnippet, BODY);
  session.closeLater(snippetSite.close);
  await api("/api/mappings", { method: "POST", apiKey: snippetKey, body: mapping(`${snippetSite.origin}/offer`) });
});

afterAll(() => edgeBrowser?.close());

describe("an edge website", () => {
  it("is served only once its hostname is proven through DNS", async () => {
    const settings = { origin: `http://127.0.0.1:${site.port}`, mode: "edge" };
    const claim = await api<Website>("/api/websites/shop.test", {
      method: "PUT",
      apiKey,
      body: JSON.stringify(settings),
    });
    expect(claim).toMatchObject({
      status: "pending",
      verification: { type: "txt", name: "_dynamic-content.shop.test" },
    });
    const page = await edgeBrowser.newPage();
    const before = await page.goto("http://shop.test/offer");
    expect(before?.status()).toBe(421);
    expect(await page.content()).not.toContain("Customer shop");

    expect(await proveWebsite(apiKey, "shop.test", settings)).toMatchObject({ status: "active" });
    const after = await page.goto("http://shop.test/offer");
    expect(after?.status()).toBe(200);
    expect(await page.locator("#shop-header").count()).toBe(1);
    await page.close();
  });

  it("gives a host that is neither the product's nor a proven website nothing of ours", async () => {
    const page = await edgeBrowser.newPage();
    for (const path of ["/", "/admin-login", "/user-dashboard"]) {
      const res = await page.goto(`http://stranger.test${path}`);
      expect(res?.status(), path).toBe(421);
      expect(await page.locator("#root").count(), path).toBe(0);
    }
    // The snippet is the exception: a public script, the same for everyone, answered as a static asset before the
    // Worker runs, whatever the host (docs/decisions.md "The snippet is a static asset").
    const snippet = await page.goto("http://stranger.test/snippet.js");
    expect(snippet?.status()).toBe(200);
    expect(snippet?.headers()["content-type"]).toBe("text/javascript; charset=utf-8");
    await page.close();
    // The product's own hosts can never be claimed.
    for (const hostname of ["localhost", "127.0.0.1"]) {
      const res = await fetch(`${baseURL}/api/websites/${hostname}`, {
        method: "PUT",
        headers: { "X-API-Key": apiKey, "Content-Type": "application/json" },
        body: JSON.stringify({ origin: `http://127.0.0.1:${site.port}`, mode: "edge" }),
      });
      expect(res.status, hostname).toBe(400);
    }
  });

  it("fetches only the customer's origin for a //host path", async () => {
    const elsewhere: string[] = [];
    const other = createServer((req, res) => {
      elsewhere.push(req.url ?? "");
      res.writeHead(200, { "Content-Type": "text/html" }).end("<p>served by another host</p>");
    });
    const port = await freePort();
    await new Promise<void>((resolve) => other.listen(port, "127.0.0.1", resolve));
    session.closeLater(() => new Promise<void>((resolve) => other.close(() => resolve())));
    const page = await edgeBrowser.newPage();
    for (const path of [`//127.0.0.1:${port}/steal`, `/%2F%2F127.0.0.1:${port}/steal`]) {
      const res = await page.goto(`http://shop.test${path}`);
      expect(res?.status(), path).toBe(200);
      expect(await page.locator("#shop-header").count(), path).toBe(1);
      expect(await page.content(), path).not.toContain("served by another host");
    }
    expect(elsewhere).toEqual([]);
    await page.close();
  });

  it("has its content in the HTML as served, first in <body>, and does not move the page", async () => {
    const edge = await openPage(edgeBrowser, "http://shop.test/offer");
    expect(edge.served).toContain(`<body><div data-dynamic-content="">${BLOCK}</div><header id="shop-header">`);
    expect(await firstChildIsContent(edge.page)).toBe(true);
    expect(await edge.page.locator("[data-dynamic-content]").count()).toBe(1);
    // The snippet on the page saw the edge's mark: no second request, no re-insertion.
    expect(edge.contentRequests).toEqual([]);
    expect(edge.layoutShift).toBe(0);

    // The same page delivered by the snippet alone, measured the same way: the measurement does see shifts.
    const snippet = await openPage(session.browser, `${snippetSite.origin}/offer`);
    expect(snippet.served).not.toContain("data-dynamic-content");
    await expect.poll(() => firstChildIsContent(snippet.page)).toBe(true);
    expect(snippet.layoutShift).toBeGreaterThan(0);
  });

  it("passes a page without a mapping through byte for byte", async () => {
    const { served, page } = await openPage(edgeBrowser, "http://shop.test/no-mapping-here");
    expect(served).toBe(site.page);
    // Not marked by the edge: the snippet asks, and finds nothing to insert.
    expect(await page.locator("[data-dynamic-content]").count()).toBe(0);
  });

  it("follows client-side navigation with the snippet, and counts each page view once", async () => {
    const { page, contentRequests } = await openPage(edgeBrowser, "http://shop.test/offer");
    expect(contentRequests).toEqual([]);
    // A router's replaceState of the same URL asks nothing.
    await page.evaluate(() => history.replaceState({ scroll: 10 }, ""));
    await page.evaluate(() => history.pushState({}, "", "/elsewhere"));
    await expect.poll(() => page.locator("[data-dynamic-content]").count()).toBe(0);
    await page.evaluate(() => history.back());
    await expect.poll(() => page.locator("[data-dynamic-content] #promo").count()).toBe(1);
    expect(contentRequests.map((u) => new URL(u).searchParams.get("url"))).toEqual([
      "http://shop.test/elsewhere",
      "http://shop.test/offer",
    ]);

    // Counted: the edge's first loads (/offer three times in this file once proven), and each navigation the snippet
    // followed.
    await expect
      .poll(async () => {
        await countPendingViews();
        const rows = await api<AnalyticsRow[]>("/api/analytics", { apiKey });
        const counted = ["shop.test/offer", "shop.test/no-mapping-here", "shop.test/elsewhere"];
        return Object.fromEntries(rows.filter((r) => counted.includes(r.url)).map((r) => [r.url, r.totalHits]));
      }, COUNTS_POLL)
      .toEqual({
        "shop.test/offer": 4,
        "shop.test/no-mapping-here": 1,
        "shop.test/elsewhere": 1,
      });
  });
});
