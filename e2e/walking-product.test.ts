/**
 * The walking product, as a website owner uses it: register on /register (the mail arrives at a real SMTP
 * server), follow the link, add a mapping on /dashboard, embed the snippet in a page on another origin, see the
 * HTML first in its body, and see the hit on the Analytics tab. And a visitor of the landing page
 * (/register-form), whose mailed link brings them back there, on to the dashboard, their account and out; the
 * used link offers "Log in" and "Register again".
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { CustomerDashboard, Stats } from "#contract/responses";
import { startCustomerSite } from "./support/customer-site";
import { useBrowserAndMail } from "./support/session";
import { api, baseURL, countPendingViews, COUNTS_POLL, linkIn, siteUrl } from "./support/product";

const OWNER = "owner@shop.test";
const HTML = '<section id="promo"><h2>Black Friday: 30% off</h2></section>';

const session = useBrowserAndMail();

async function openAnalytics(page: Page) {
  await page.goto(`${baseURL}/dashboard`);
  await page.getByRole("tab", { name: "Analytics" }).click();
}

/** Signs up with `email` on the registration page at `path` (`submit` is its button); answers the mailed link. */
async function signUp(page: Page, path: string, submit: string, email: string): Promise<string> {
  await page.goto(`${baseURL}${path}`);
  await page.getByLabel(/email/i).fill(email);
  await page.getByRole("button", { name: submit }).click();
  await expect.poll(() => page.getByText("Check Your Email").isVisible()).toBe(true);
  const verification = await session.mail.waitFor(email, (m) => linkIn(m.text) !== undefined);
  return linkIn(verification.text)!;
}

describe("a website owner", () => {
  it("registers, adds a mapping, embeds the snippet on their site and sees the hit", async () => {
    const page = await session.browser.newPage();

    const link = await signUp(page, "/register", "Register", OWNER);
    expect(link.startsWith(`${baseURL}/verify-email?token=`)).toBe(true);
    await page.goto(link);
    await expect.poll(() => page.getByText("Registration Successful").isVisible(), { timeout: 15_000 }).toBe(true);
    const apiKey = await page.evaluate(() => localStorage.getItem("apiKey"));
    expect(apiKey).toMatch(/^dc_/);
    const keyMail = await session.mail.waitFor(OWNER, (m) => (m.text ?? "").includes(apiKey!));
    expect(keyMail.subject).toBe("Your Dynamic Content API key");

    // The customer's site exists before the mapping: its URL is the one to map.
    const { jsSnippet } = await api<CustomerDashboard>("/api/user/dashboard", { apiKey: apiKey! });
    const site = await startCustomerSite(jsSnippet);
    session.closeLater(site.close);
    const pageUrl = `${site.origin}/landing`;

    await page.goto(`${baseURL}/dashboard`);
    await page.getByRole("tab", { name: "URL Mappings" }).click();
    await page.getByLabel("URL", { exact: true }).fill(pageUrl);
    await page.getByLabel("HTML Content").fill(HTML);
    await page.getByRole("button", { name: "Add Mapping" }).click();
    await expect.poll(() => page.getByText("URL mapping added successfully").first().isVisible()).toBe(true);
    await expect.poll(() => page.getByRole("cell", { name: pageUrl }).isVisible()).toBe(true);
    // Customer HTML is shown as text, never rendered.
    expect(await page.locator("#promo").count()).toBe(0);

    const visitor = await session.browser.newPage();
    await visitor.goto(pageUrl);
    const injected = visitor.locator("body > [data-dynamic-content]");
    await expect.poll(() => injected.count(), { timeout: 15_000 }).toBe(1);
    const first = await visitor.evaluate(() => {
      const el = document.body.firstElementChild;
      return { marked: el?.hasAttribute("data-dynamic-content"), html: el?.innerHTML };
    });
    expect(first).toEqual({ marked: true, html: HTML });
    expect(await visitor.locator("#promo h2").textContent()).toBe("Black Friday: 30% off");
    expect(await visitor.locator("#shop-header").count()).toBe(1);

    // A client-side navigation asks again: another page has no mapping, so the injection goes away.
    await visitor.evaluate(() => history.pushState({}, "", "/other"));
    await expect.poll(() => injected.count(), { timeout: 10_000 }).toBe(0);
    await visitor.evaluate(() => history.back());
    await expect.poll(() => injected.count(), { timeout: 10_000 }).toBe(1);

    // Every view so far counted (the minute cron fired now, as at each full minute): the landing page's two and
    // /other's one.
    const totalRequests = async () => (await api<Stats>("/api/user/stats", { apiKey: apiKey! })).totalRequests;
    await expect.poll(async () => (await countPendingViews(), await totalRequests()), COUNTS_POLL).toBe(3);
    const expectedUrl = pageUrl.replace(/^http:\/\//, "");
    await expect
      .poll(async () => {
        await countPendingViews();
        await openAnalytics(page);
        const row = page.getByRole("row").filter({ hasText: expectedUrl });
        // The tab asks the server for its rows after it opens: give them a moment before reading.
        await row
          .first()
          .waitFor({ timeout: 3_000 })
          .catch(() => undefined);
        if ((await row.count()) === 0) return 0;
        // Columns: URL, Total Hits, Last Accessed. Two visits to the landing page so far.
        return Number(await row.first().getByRole("cell").nth(1).innerText());
      }, COUNTS_POLL)
      .toBe(2);

    // The chart of that one page: today's bar, from its own daily rollup (two page views, both delivered).
    const chart = page.getByRole("region", { name: "Requests over time" });
    await chart.getByLabel("Page URL").fill(pageUrl);
    await chart.getByRole("button", { name: "Show" }).click();
    const lastBar = (region: typeof chart) => region.getByRole("listitem").last().getAttribute("aria-label");
    await expect.poll(() => lastBar(chart)).toMatch(/: 2 requests, 2 deliveries, 0 from crawlers$/);
    // The Overview shows the whole account's last 30 days: the landing page's two views and /other's one.
    await page.getByRole("tab", { name: "Overview" }).click();
    const overview = page.getByRole("region", { name: "Requests over time" });
    await expect.poll(() => overview.getByRole("listitem").count()).toBe(30);
    await expect.poll(() => lastBar(overview)).toMatch(/: 3 requests, 2 deliveries, 0 from crawlers$/);
  });

  it("signs up on the landing page, follows its mailed link back there, finds the dashboard and logs out", async () => {
    const visitor = "landing@shop.test";
    const page = await session.browser.newPage();

    const link = await signUp(page, "/register-form", "Get Instant Access now", visitor);
    // The outside addresses are the operator's, set at run time.
    const footer = page.getByRole("contentinfo");
    expect(await footer.getByRole("link", { name: "Pricing" }).getAttribute("href")).toBe(`${siteUrl}/pricing`);
    expect(await page.locator('img[src$="/e2e-pixel.gif"]').count()).toBe(1);
    expect(link.startsWith(`${baseURL}/register-form?token=`)).toBe(true);
    await page.goto(link);
    const toDashboard = page.getByRole("link", { name: "Go to Dashboard" });
    await expect.poll(() => toDashboard.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem("apiKey"))).toMatch(/^dc_/);

    // A second visit of the used link is page B's failure, in its own words.
    const again = await session.browser.newPage();
    await again.goto(link);
    await expect
      .poll(() => again.getByText("Failed to verify email. The link may be expired or invalid.").isVisible())
      .toBe(true);
    // No dead end: "Log in", or "Register again" on this page's own form.
    expect(await again.getByRole("link", { name: "Log in", exact: true }).getAttribute("href")).toBe("/login");
    await again.getByRole("link", { name: "Register again", exact: true }).click();
    await again.waitForURL(`${baseURL}/register-form`);
    await expect.poll(() => again.getByRole("button", { name: "Get Instant Access now" }).isVisible()).toBe(true);
    await again.close();

    await toDashboard.click();
    await page.waitForURL(`${baseURL}/dashboard`);
    await expect.poll(() => page.getByRole("tab", { name: "Analytics" }).isVisible()).toBe(true);

    await page.locator('a[href="/user-dashboard"]').click();
    await page.waitForURL(`${baseURL}/user-dashboard`);
    await expect.poll(() => page.getByText(visitor).first().isVisible()).toBe(true);
    expect(await page.locator('a[href="/dashboard"]').count()).toBe(1);

    await page.getByRole("button", { name: "Logout" }).click();
    await page.waitForURL(`${baseURL}/login`);
    await expect.poll(() => page.getByText("Successfully logged out").first().isVisible()).toBe(true);
    expect(await page.evaluate(() => [localStorage.getItem("apiKey"), localStorage.getItem("userRole")])).toEqual([
      null,
      null,
    ]);
  });
});
