/**
 * Preview links (docs/publishing.md): a content team saves a draft, takes its preview link from the dashboard and
 * sees the draft on the real page, by the snippet and at the edge alike, while visitors without the link see the
 * page as it is.
 */
import { describe, expect, it } from "vitest";
import type { CustomerDashboard, Mapping, PreviewLink } from "#contract/responses";
import { launchBrowser } from "./support/browser";
import { startCustomerSite } from "./support/customer-site";
import { api, baseURL, openWithKey, proveWebsite, registerCustomer } from "./support/product";
import { useBrowserAndMail } from "./support/session";

const session = useBrowserAndMail();
const DRAFT = '<section id="launch">New collection, launching Friday</section>';

async function customerWithSite(email: string) {
  const apiKey = await registerCustomer(session.mail, email);
  const { jsSnippet } = await api<CustomerDashboard>("/api/user/dashboard", { apiKey });
  const site = await startCustomerSite(jsSnippet);
  session.closeLater(site.close);
  return { apiKey, site };
}

const addDraft = (apiKey: string, url: string) =>
  api<Mapping>("/api/mappings", {
    method: "POST",
    apiKey,
    body: JSON.stringify({ url, htmlContent: DRAFT, status: "draft" }),
  });

describe("preview links", () => {
  it("show a draft on the real page by the snippet, from the dashboard's Preview, and nothing without the link", async () => {
    const { apiKey, site } = await customerWithSite("preview@shop.test");
    await addDraft(apiKey, `${site.origin}/launch`);

    const dashboard = await openWithKey(session.browser, apiKey, "/dashboard", "URL Mappings");
    await dashboard.getByRole("button", { name: "Preview" }).click();
    const linkField = dashboard.getByRole("dialog").getByLabel("Preview link", { exact: true });
    await expect.poll(() => linkField.inputValue()).toContain("dc_preview=");
    const link = await linkField.inputValue();
    expect(link.startsWith(`${site.origin}/launch?dc_preview=`)).toBe(true);

    const preview = await session.browser.newPage();
    await preview.goto(link);
    await expect.poll(() => preview.locator("[data-dynamic-content] #launch").count()).toBe(1);

    const visitor = await session.browser.newPage();
    await visitor.goto(`${site.origin}/launch`);
    await visitor.waitForLoadState("networkidle");
    expect(await visitor.locator("#launch").count()).toBe(0);
  });

  it("show a draft at the edge, in the page as served, and the live page to everyone else", async () => {
    const { apiKey, site } = await customerWithSite("preview-edge@shop.test");
    const browser = await launchBrowser({ "launch.test": new URL(baseURL).host });
    session.closeLater(() => browser.close());
    await proveWebsite(apiKey, "launch.test", { origin: `http://127.0.0.1:${site.port}`, mode: "edge" });
    const draft = await addDraft(apiKey, "http://launch.test/new");
    const { url } = await api<PreviewLink>(`/api/mappings/${draft.id}/preview`, {
      method: "POST",
      apiKey,
    });

    const page = await browser.newPage();
    const served = await (await page.goto(url))!;
    expect(await served.text()).toContain(`<div data-dynamic-content="">${DRAFT}</div>`);
    expect(served.headers()["cache-control"]).toBe("private, no-store");

    const live = await (await page.goto("http://launch.test/new"))!;
    expect(await live.text()).not.toContain("launching Friday");
  });
});
