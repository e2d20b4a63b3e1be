/**
 * Placement and SEO fields in a visitor's browser (docs/placement.md): a shop that reserves a 120-pixel slot for
 * the content gets it there without any layout shift, by the snippet and at the edge alike; the mapping's title,
 * description, canonical and JSON-LD are in the DOM with the snippet and in the HTML as served at the edge.
 * The layout shifts measured here are docs/performance.md's figures.
 */
import type { Browser, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import type { CustomerDashboard } from "#contract/responses";
import { launchBrowser } from "./support/browser";
import { startCustomerSite, type CustomerSite } from "./support/customer-site";
import { openPage } from "./support/page-measure";
import { api, baseURL, proveWebsite, registerCustomer } from "./support/product";
import { useBrowserAndMail } from "./support/session";

/** A block of exactly 120 pixels (flow-root keeps the h2's margins inside it). */
const BLOCK =
  '<section id="promo" style="height:120px;display:flow-root;background:#fc0"><h2>Black Friday</h2></section>';
/** The shop keeps 120 pixels free at the top of the page for the content. */
const SLOT = '<div id="slot" style="min-height:120px">';
const BODY =
  `${SLOT}</div><header id="shop-header">Customer shop</header>` +
  '<main style="height:2000px">Original page content</main>';
const JSON_LD = { "@context": "https://schema.org", "@type": "Offer", name: "Black Friday </script> deal" };
const SEO = {
  title: "Black Friday | Shop",
  description: 'Everything 20% off, "today" only',
  canonical: "https://shop.example/offer",
  jsonLd: JSON_LD,
};

const session = useBrowserAndMail();
let edgeBrowser: Browser;
let edgeSite: CustomerSite;
let snippetSite: CustomerSite;

/** Registers a customer whose site serves BODY with their snippet; answers their key and site. */
async function customerWithSite(email: string) {
  const apiKey = await registerCustomer(session.mail, email);
  const { jsSnippet } = await api<CustomerDashboard>("/api/user/dashboard", { apiKey });
  const site = await startCustomerSite(jsSnippet, BODY);
  session.closeLater(site.close);
  return { apiKey, site };
}

const addMapping = (apiKey: string, url: string, extras: object) =>
  api("/api/mappings", { method: "POST", apiKey, body: JSON.stringify({ url, htmlContent: BLOCK, ...extras }) });

const inSlot = (page: Page) =>
  page.evaluate(() => document.querySelector("#slot > [data-dynamic-content]:first-child #promo") !== null);

/** The head as the visitor's DOM has it after the content came. */
const headFields = (page: Page) =>
  page.evaluate(() => ({
    title: document.title,
    description: document.querySelector('meta[name="description"]')?.getAttribute("content"),
    canonical: document.querySelector('link[rel="canonical"]')?.getAttribute("href"),
    jsonLd: JSON.parse(document.querySelector('script[type="application/ld+json"]')?.textContent ?? "null"),
  }));

beforeAll(async () => {
  const edge = await customerWithSite("placement-edge@shop.test");
  edgeSite = edge.site;
  edgeBrowser = await launchBrowser({ "slot.test": new URL(baseURL).host });
  session.closeLater(() => edgeBrowser.close());
  await proveWebsite(edge.apiKey, "slot.test", { origin: `http://127.0.0.1:${edgeSite.port}`, mode: "edge" });
  const placement = { position: "inside", selector: "#slot" };
  await addMapping(edge.apiKey, "http://slot.test/offer", { placement, seo: SEO });

  const snippet = await customerWithSite("placement-snippet@shop.test");
  snippetSite = snippet.site;
  await addMapping(snippet.apiKey, `${snippetSite.origin}/offer`, { placement, seo: SEO });
  await addMapping(snippet.apiKey, `${snippetSite.origin}/top`, {});
  for (const position of ["before", "after"]) {
    await addMapping(snippet.apiKey, `${snippetSite.origin}/${position}`, {
      placement: { position, selector: "#shop-header" },
    });
  }
  await addMapping(snippet.apiKey, `${snippetSite.origin}/replaced`, {
    placement: { position: "replace", selector: "#shop-header" },
  });
});

describe("a mapping placed in a reserved slot", () => {
  it("lands in the slot by the snippet without moving the page, and sets the SEO fields in the DOM", async () => {
    const { page, served, layoutShift, contentRequests } = await openPage(
      session.browser,
      `${snippetSite.origin}/offer`,
    );
    expect(served).not.toContain("data-dynamic-content");
    await expect.poll(() => inSlot(page)).toBe(true);
    expect(contentRequests).toHaveLength(1);
    console.log(`layout shift, snippet, content inside a reserved slot: ${layoutShift}`);
    expect(layoutShift).toBe(0);
    expect(await headFields(page)).toEqual(SEO);

    // The same block at the top of <body> (the default), measured the same way: the measurement does see shifts.
    const top = await openPage(session.browser, `${snippetSite.origin}/top`);
    await expect.poll(() => top.page.locator("body > [data-dynamic-content]:first-child #promo").count()).toBe(1);
    console.log(`layout shift, snippet, content at the top of <body>: ${top.layoutShift}`);
    expect(top.layoutShift).toBeGreaterThan(0);
  });

  it("lands in the slot at the edge, in the HTML as served with the SEO fields in <head>, without moving the page", async () => {
    const { page, served, layoutShift, contentRequests } = await openPage(edgeBrowser, "http://slot.test/offer");
    expect(served).toContain(`${SLOT}<div data-dynamic-content="">${BLOCK}</div>`);
    const head = served.slice(0, served.indexOf("</head>"));
    expect(head).toContain("<title>Black Friday | Shop</title>");
    expect(head).not.toContain("<title>Customer shop</title>");
    expect(head).toContain('name="description" content="Everything 20% off, &quot;today&quot; only"');
    expect(head).toContain('rel="canonical" href="https://shop.example/offer"');
    expect(head).not.toContain("</script> deal");
    expect(contentRequests).toEqual([]);
    console.log(`layout shift, edge, content inside a reserved slot: ${layoutShift}`);
    expect(layoutShift).toBe(0);
    expect(await inSlot(page)).toBe(true);
    expect(await headFields(page)).toEqual(SEO);
  });

  it.each([
    ["before", "#slot + [data-dynamic-content] + #shop-header"],
    ["after", "#shop-header + [data-dynamic-content] + main"],
  ])("puts the content %s an element by the snippet", async (position, order) => {
    const { page } = await openPage(session.browser, `${snippetSite.origin}/${position}`);
    await expect.poll(() => page.locator(order).count()).toBe(1);
    expect(await page.locator("[data-dynamic-content]").count()).toBe(1);
  });

  it("replaces an element by the snippet, and puts it back when the visitor moves to a page without content", async () => {
    const { page } = await openPage(session.browser, `${snippetSite.origin}/replaced`);
    await expect.poll(() => page.locator("[data-dynamic-content] #promo").count()).toBe(1);
    expect(await page.locator("#shop-header").count()).toBe(0);
    await page.evaluate(() => history.pushState({}, "", "/elsewhere"));
    await expect.poll(() => page.locator("#shop-header").count()).toBe(1);
    expect(await page.locator("[data-dynamic-content]").count()).toBe(0);
  });
});
