/**
 * Getting started in a customer's browser (docs/getting-started.md): the dashboard's checklist waits for the first
 * page view and turns green by itself once a page with the snippet is visited, with no reload; "Check my page" on the
 * Snippet page finds the snippet on the customer's page, and says so when a page lacks it.
 */
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import type { CustomerDashboard } from "#contract/responses";
import { startCustomerSite, type CustomerSite } from "./support/customer-site";
import { api, countPendingViews, openWithKey, registerCustomer } from "./support/product";
import { useBrowserAndMail } from "./support/session";

const session = useBrowserAndMail();
let apiKey: string;
let withSnippet: CustomerSite;
let withoutSnippet: CustomerSite;

/**
 * How long the first view may take to show: gathered 5 s in its isolate and up to 2.5 s in the relay, consumed
 * within a second, then the checklist's next 3-second poll; the rest is room for a busy machine.
 */
const SEEN_WITHIN_MS = 30_000;

beforeAll(async () => {
  apiKey = await registerCustomer(session.mail, "getting-started@shop.test");
  const { jsSnippet } = await api<CustomerDashboard>("/api/user/dashboard", { apiKey });
  withSnippet = await startCustomerSite(jsSnippet);
  withoutSnippet = await startCustomerSite("");
  session.closeLater(withSnippet.close);
  session.closeLater(withoutSnippet.close);
  await api("/api/mappings", {
    method: "POST",
    apiKey,
    body: JSON.stringify({ url: `${withSnippet.origin}/offer`, htmlContent: "<p>Welcome offer</p>" }),
  });
});

const step = (page: Page, name: string) => page.getByRole("listitem", { name });

describe("getting started", () => {
  it("turns the checklist green by itself once a page with the snippet is visited", async () => {
    const dashboard = await openWithKey(session.browser, apiKey, "/dashboard");
    await dashboard.getByRole("heading", { name: "Getting started" }).waitFor();
    const snippet = step(dashboard, "Add the snippet to your website");
    await snippet.getByText("Waiting for your first page view…").waitFor();

    const visitor = await session.browser.newPage();
    await visitor.goto(`${withSnippet.origin}/offer`);
    await visitor.getByText("Welcome offer").waitFor();

    await snippet.getByText(`Seen on ${new URL(withSnippet.origin).host}`).waitFor({ timeout: SEEN_WITHIN_MS });
    expect(await snippet.getAttribute("data-done")).toBe("true");
    // The minute's count, fired now instead of at the next full minute: the last required step turns green too.
    await countPendingViews();
    await dashboard.getByText("All set: your content is live.").waitFor({ timeout: SEEN_WITHIN_MS });
    expect(await step(dashboard, "Count your first page view").getAttribute("data-done")).toBe("true");
    await visitor.close();
    await dashboard.close();
  });

  it("checks a customer's page with the snippet and one without it", async () => {
    const page = await openWithKey(session.browser, apiKey, "/snippet");
    const check = async (url: string) => {
      await page.getByLabel("Page URL").fill(url);
      await page.getByRole("button", { name: "Check my page" }).click();
      const result = page.getByRole("status", { name: "Check my page" });
      await result.waitFor();
      return result;
    };

    const found = await check(`${withSnippet.origin}/offer`);
    expect(await found.textContent()).toContain("Snippet found: yes");
    expect(await found.textContent()).toContain("Your user ID set: yes");
    expect(await found.textContent()).toContain("Everything is in place.");

    const missing = await check(`${withoutSnippet.origin}/offer`);
    await missing.getByText("Snippet found: no").waitFor();
    expect(await missing.textContent()).toContain("Page reachable: yes");
    expect(await missing.textContent()).toContain("The snippet is missing: no script on the page loads");
    expect(await missing.textContent()).toContain("No mapping serves");
    await page.close();
  });
});
