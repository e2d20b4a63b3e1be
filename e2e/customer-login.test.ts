/**
 * A customer logs in with an emailed code (read from a real SMTP server), lands on /user-dashboard, sees the usage
 * bars move after a mapping and a delivery on their site, and opens the plan dialog.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { CustomerDashboard } from "#contract/responses";
import { startCustomerSite } from "./support/customer-site";
import { useBrowserAndMail } from "./support/session";
import { api, baseURL, countPendingViews, COUNTS_POLL, registerCustomer } from "./support/product";

const CUSTOMER = "Returning@Shop.test";
const email = CUSTOMER.toLowerCase();

const session = useBrowserAndMail();

/** The progress bar's value and the 'used / limit' text of one usage line. */
async function usageLine(page: Page, label: string) {
  const bar = page.getByRole("progressbar", { name: label });
  const line = page.locator("div.space-y-2").filter({ has: bar });
  return { value: await bar.getAttribute("aria-valuenow"), text: await line.innerText() };
}

describe("a returning customer", () => {
  it("logs in with the mailed code and sees their usage move", async () => {
    const apiKey = await registerCustomer(session.mail, email);
    const page = await session.browser.newPage();

    await page.goto(`${baseURL}/login`);
    await page.getByLabel(/email/i).fill(CUSTOMER);
    await page.getByRole("button", { name: "Send Code" }).click();
    await expect.poll(() => page.getByText(email).first().isVisible()).toBe(true);

    const codeMail = await session.mail.waitFor(email, (m) => /login code is \d{5}/.test(m.text ?? ""));
    const code = codeMail.text!.match(/login code is (\d{5})/)![1]!;
    await page.getByLabel("Code").fill(code);
    await page.getByRole("button", { name: "Verify Code" }).click();

    await page.waitForURL(`${baseURL}/user-dashboard`);
    expect(await page.evaluate(() => localStorage.getItem("apiKey"))).toBe(apiKey);
    await expect.poll(() => page.getByText(email).first().isVisible()).toBe(true);
    // The top bar hides Login here.
    expect(await page.getByRole("link", { name: "Login", exact: true }).count()).toBe(0);

    await page.getByRole("tab", { name: "Usage" }).click();
    expect(await usageLine(page, "Active websites")).toMatchObject({ value: "0" });
    expect((await usageLine(page, "Content generations this month")).text).toContain("0 / 1000");

    // A mapping on their site and one visit to it.
    const { jsSnippet } = await api<CustomerDashboard>("/api/user/dashboard", { apiKey });
    const site = await startCustomerSite(jsSnippet);
    session.closeLater(site.close);
    await api("/api/mappings", {
      method: "POST",
      apiKey,
      body: JSON.stringify({ url: `${site.origin}/welcome`, htmlContent: "<p>Welcome back</p>" }),
    });
    const visitor = await session.browser.newPage();
    await visitor.goto(`${site.origin}/welcome`);
    await expect.poll(() => visitor.locator("[data-dynamic-content]").count(), { timeout: 15_000 }).toBe(1);

    await expect
      .poll(async () => {
        await countPendingViews();
        await page.reload();
        await page.getByRole("tab", { name: "Usage" }).click();
        return (await usageLine(page, "Content generations this month")).text;
      }, COUNTS_POLL)
      .toContain("1 / 1000");
    expect(await usageLine(page, "Active websites")).toMatchObject({ value: "100" });
    expect(await usageLine(page, "API content updates this month")).toMatchObject({ value: "10" });

    await page.getByRole("tab", { name: "Account" }).click();
    await page.getByRole("button", { name: "Upgrade / Change Plans" }).click();
    await expect.poll(() => page.getByRole("dialog", { name: "Choose Your Plan" }).isVisible()).toBe(true);
  });
});
