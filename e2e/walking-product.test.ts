/**
 * The walking product, as a website owner uses it: register on /register (the mail arrives at a real SMTP
 * server), follow the link, add a mapping on /dashboard, embed the snippet in a page on another origin, see the
 * HTML first in its body, and see the hit on the Analytics tab.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { CustomerDashboard } from "../worker/contract/responses";
import { startCustomerSite } from "./support/customer-site";
import { useBrowserAndMail } from "./support/session";
import { api, baseURL, linkIn } from "./support/product";

const OWNER = "owner@shop.test";
const HTML = '<section id="promo"><h2>Black Friday: 30% off</h2></section>';

const session = useBrowserAndMail();

async function openAnalytics(page: Page) {
  await page.goto(`${baseURL}/dashboard`);
  await page.getByRole("tab", { name: "Analytics" }).click();
}

describe("a website owner", () => {
  it("registers, adds a mapping, embeds the snippet on their site and sees the hit", async () => {
    const page = await session.browser.newPage();

    await page.goto(`${baseURL}/register`);
    await expect.poll(() => page.getByText("Register for API Access").isVisible()).toBe(true);
    await page.getByLabel(/email/i).fill(OWNER);
    await page.getByRole("button", { name: "Register" }).click();
    await expect.poll(() => page.getByText("Check Your Email").isVisible()).toBe(true);

    const verification = await session.mail.waitFor(OWNER, (m) => linkIn(m.text) !== undefined);
    const link = linkIn(verification.text)!;
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

    const expectedUrl = pageUrl.replace(/^http:\/\//, "");
    await expect
      .poll(
        async () => {
          await openAnalytics(page);
          const row = page.getByRole("row").filter({ hasText: expectedUrl });
          if ((await row.count()) === 0) return 0;
          // Columns: URL, Total Hits, Last Accessed. Two visits to the landing page so far.
          return Number(await row.first().getByRole("cell").nth(1).innerText());
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toBe(2);
  });
});
