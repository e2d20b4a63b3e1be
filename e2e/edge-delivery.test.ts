/**
 * Edge delivery, as a visitor's browser meets it: shop.test is the customer's website, set to edge mode, and
 * Chromium resolves it to the local Worker (its --host-resolver-rules), which proxies to the customer's server on
 * another local port. The content is in the HTML as served, the page does not move, a page without a mapping is
 * the origin's byte for byte, and the snippet on the page asks nothing on first load but follows navigation.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AnalyticsRow, CustomerDashboard } from "../worker/contract/responses";
import { launchBrowser } from "./support/browser";
import { startCustomerSite, type CustomerSite } from "./support/customer-site";
import { openPage } from "./support/page-measure";
import { api, baseURL, registerCustomer } from "./support/product";
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
  edgeBrowser = await launchBrowser({ "shop.test": new URL(baseURL).host });
  session.closeLater(() => edgeBrowser.close());

  await api("/api/websites/shop.test", {
    method: "PUT",
    apiKey,
    body: JSON.stringify({ origin: `http://127.0.0.1:${site.port}`, mode: "edge" }),
  });
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

    // Counted: the edge's first loads (/offer twice in this file), and each navigation the snippet followed.
    await expect
      .poll(async () => {
        const rows = await api<AnalyticsRow[]>("/api/analytics", { apiKey });
        return Object.fromEntries(rows.filter((r) => r.url.startsWith("shop.test")).map((r) => [r.url, r.totalHits]));
      })
      .toEqual({
        "shop.test/offer": 3,
        "shop.test/no-mapping-here": 1,
        "shop.test/elsewhere": 1,
      });
  });
});
