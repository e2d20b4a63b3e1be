/**
 * Audiences (docs/audiences.md), as visitors' browsers meet them in both delivery modes: the snippet on the
 * customer's own page sends the page's referrer, so a visitor who came from a search engine gets the "search"
 * audience's content and a direct visitor the fallback; at the edge (aud.test, proven through DNS and reached by
 * Chromium's --host-resolver-rules) a phone in Germany (`CF-IPCountry`, which Cloudflare sets and local runs send)
 * gets the DE-mobile audience's content in the HTML as served, and a crawler with the same attributes the same.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CustomerDashboard, Mapping } from "#contract/responses";
import { launchBrowser } from "./support/browser";
import { startCustomerSite, type CustomerSite } from "./support/customer-site";
import { api, baseURL, proveWebsite, registerCustomer } from "./support/product";
import { useBrowserAndMail } from "./support/session";

const EDGE_HOST = "aud.test";
const edgePage = `http://${EDGE_HOST}/landing`;
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148";
const GOOGLEBOT_SMARTPHONE =
  "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

const session = useBrowserAndMail();
let edgeBrowser: Browser;
let site: CustomerSite;

/** A verified customer and their site with the snippet on every page. */
async function customerWithSite(email: string) {
  const apiKey = await registerCustomer(session.mail, email);
  const { jsSnippet } = await api<CustomerDashboard>("/api/user/dashboard", { apiKey });
  const customerSite = await startCustomerSite(jsSnippet);
  session.closeLater(customerSite.close);
  return { apiKey, customerSite };
}

/** The page's fallback and one audience mapping, `<p id=c>` naming which. */
async function addMappings(apiKey: string, url: string, audience: Record<string, unknown>) {
  for (const body of [
    { url, htmlContent: "<p id=c>everyone</p>" },
    { url, htmlContent: `<p id=c>${audience.name}</p>`, audience },
  ]) {
    await api<Mapping>("/api/mappings", { method: "POST", apiKey, body: JSON.stringify(body) });
  }
}

beforeAll(async () => {
  const snippetCustomer = await customerWithSite("audiences@shop.test");
  site = snippetCustomer.customerSite;
  await addMappings(snippetCustomer.apiKey, `${site.origin}/landing`, { name: "search", referrer: ["search"] });

  // Another customer's: a plan's one website is the snippet's page or the edge website.
  const edge = await customerWithSite("audiences-edge@shop.test");
  edgeBrowser = await launchBrowser({ [EDGE_HOST]: new URL(baseURL).host });
  session.closeLater(() => edgeBrowser.close());
  await proveWebsite(edge.apiKey, EDGE_HOST, { origin: `http://127.0.0.1:${edge.customerSite.port}`, mode: "edge" });
  await addMappings(edge.apiKey, edgePage, { name: "DE mobile", country: ["DE"], device: ["mobile"] });
});

afterAll(() => edgeBrowser?.close());

describe("audiences delivered by the snippet", () => {
  it("shows a visitor from a search engine the search audience's content, and a direct visitor the fallback", async () => {
    const context = await session.browser.newContext();
    const shown = async (referer?: string) => {
      const page = await context.newPage();
      const answer = page.waitForResponse((r) => r.url().includes("/api/content?"));
      await page.goto(`${site.origin}/landing`, referer ? { referer } : {});
      const asked = new URL((await answer).url());
      const json = (await (await answer).json()) as { audience?: string };
      const content = page.locator("[data-dynamic-content] #c");
      await expect.poll(() => content.count()).toBe(1);
      const text = await content.innerText();
      await page.close();
      return { text, audience: json.audience, r: asked.searchParams.get("r") };
    };
    expect(await shown("https://www.google.com/")).toEqual({
      text: "search",
      audience: "search",
      r: "https://www.google.com/",
    });
    expect(await shown()).toEqual({ text: "everyone", audience: undefined, r: null });
    await context.close();
  });
});

describe("audiences at the edge", () => {
  it("serves a phone in Germany the DE-mobile content in the HTML, a crawler with the same attributes the same", async () => {
    const served = async (userAgent: string, country: string) => {
      const context = await edgeBrowser.newContext({ userAgent, extraHTTPHeaders: { "CF-IPCountry": country } });
      const answer = (await (await context.newPage()).goto(edgePage))!;
      const html = await answer.text();
      const result = {
        content: html.match(/<div data-dynamic-content=""><p id=c>([^<]*)<\/p><\/div>/)?.[1],
        audience: answer.headers()["x-audience"],
      };
      await context.close();
      return result;
    };
    expect(await served(IPHONE, "DE")).toEqual({ content: "DE mobile", audience: "DE mobile" });
    expect(await served(GOOGLEBOT_SMARTPHONE, "DE")).toEqual({ content: "DE mobile", audience: "DE mobile" });
    expect(await served(IPHONE, "FR")).toEqual({ content: "everyone", audience: undefined });
  });
});
