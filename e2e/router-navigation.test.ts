/**
 * The snippet on a shop built with React Router (history mode, data router, ScrollRestoration), driven as a
 * visitor drives it: first load, link clicks, back and forward. One page view is one request to /api/content and
 * one count, however often the router rewrites the current history entry, and the content follows the page.
 */
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import type { AnalyticsRow, CustomerDashboard } from "#contract/responses";
import { api, countPendingViews, COUNTS_POLL, registerCustomer } from "./support/product";
import { startRouterSite, type RouterSite } from "./support/router-site";
import { useBrowserAndMail } from "./support/session";

const CUSTOMER = "router@shop.test";
const OFFER = '<p id="offer-banner">Spring sale</p>';

const session = useBrowserAndMail();
let site: RouterSite;
let apiKey: string;

beforeAll(async () => {
  apiKey = await registerCustomer(session.mail, CUSTOMER);
  const { jsSnippet } = await api<CustomerDashboard>("/api/user/dashboard", { apiKey });
  site = await startRouterSite(jsSnippet);
  session.closeLater(site.close);
  await api("/api/mappings", {
    method: "POST",
    apiKey,
    body: JSON.stringify({ url: `${site.origin}/offer`, htmlContent: OFFER }),
  });
});

/** The pages the snippet asked /api/content for, in order (their paths). */
function recordContentRequests(page: Page): string[] {
  const asked: string[] = [];
  page.on("request", (request) => {
    if (!request.url().includes("/api/content")) return;
    asked.push(new URL(new URL(request.url()).searchParams.get("url")!).pathname);
  });
  return asked;
}

const banner = (page: Page) => page.locator("body > [data-dynamic-content] #offer-banner");

describe("the snippet on a React Router shop", () => {
  it("asks once per page on first load, link clicks, back and forward, and counts each view once", async () => {
    const page = await session.browser.newPage();
    const asked = recordContentRequests(page);

    await page.goto(`${site.origin}/offer?utm_source=newsletter`);
    await expect.poll(() => banner(page).count()).toBe(1);
    await page.getByRole("heading", { name: "Offer" }).waitFor();
    // The router has started (and rewritten its entry); a script tidies the campaign parameter away.
    await page.evaluate(() => history.replaceState(history.state, "", location.pathname));
    await page.waitForLoadState("networkidle");
    expect(asked).toEqual(["/offer"]);

    await page.getByRole("link", { name: "About" }).click();
    await page.getByRole("heading", { name: "About" }).waitFor();
    await expect.poll(() => banner(page).count()).toBe(0);
    await page.getByRole("link", { name: "Offer" }).click();
    await expect.poll(() => banner(page).count()).toBe(1);
    await page.goBack();
    await page.getByRole("heading", { name: "About" }).waitFor();
    await expect.poll(() => banner(page).count()).toBe(0);
    await page.goForward();
    await expect.poll(() => banner(page).count()).toBe(1);
    await page.waitForLoadState("networkidle");
    // The content stays where the snippet put it, outside the router's root: one container, first in <body>.
    expect(await page.locator("[data-dynamic-content]").count()).toBe(1);
    expect(asked).toEqual(["/offer", "/about", "/offer", "/about", "/offer"]);

    const host = new URL(site.origin).host;
    await expect
      .poll(async () => {
        await countPendingViews();
        const rows = await api<AnalyticsRow[]>("/api/analytics", { apiKey });
        return Object.fromEntries(rows.map((r) => [r.url, r.totalHits]));
      }, COUNTS_POLL)
      .toEqual({ [`${host}/offer`]: 3, [`${host}/about`]: 2 });
  });
});
