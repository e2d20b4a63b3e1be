/**
 * The admin console, as an admin uses it: log in, find a customer, sort, set a request limit, deactivate and
 * reactivate (the snippet stops and resumes on the customer's page), impersonate and return, create and edit a
 * product version, and see a customer's hostile HTML as text.
 */
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import type { AdminUser, AuthInfo, CustomerDashboard } from "#contract/responses";
import { startCustomerSite, type CustomerSite } from "./support/customer-site";
import { useBrowserAndMail } from "./support/session";
import { admin, adminApiKey, api, baseURL, countPendingViews, COUNTS_POLL, registerCustomer } from "./support/product";

const BUSY = "busy@shop.test";
const QUIET = "quiet@shop.test";
const XSS_HTML = "<img src=x onerror=alert(1)>";

const session = useBrowserAndMail();
let site: CustomerSite;
let busyKey: string;
let pageUrl: string;
const dialogs: string[] = [];

beforeAll(async () => {
  busyKey = await registerCustomer(session.mail, BUSY);
  const quietKey = await registerCustomer(session.mail, QUIET);
  const { jsSnippet } = await api<CustomerDashboard>("/api/user/dashboard", { apiKey: busyKey });
  site = await startCustomerSite(jsSnippet);
  session.closeLater(site.close);
  pageUrl = `${site.origin}/sale`;
  await api("/api/mappings", {
    method: "POST",
    apiKey: busyKey,
    body: JSON.stringify({ url: pageUrl, htmlContent: "<p id=sale>Sale!</p>" }),
  });
  await api("/api/mappings", {
    method: "POST",
    apiKey: quietKey,
    body: JSON.stringify({ url: "https://quiet.test/", htmlContent: XSS_HTML }),
  });
});

/** Opens the customer's page and answers whether our HTML is in it (once the snippet has had its say). */
async function deliveredOnCustomerPage(): Promise<boolean> {
  const visitor = await session.browser.newPage();
  try {
    const answered = visitor.waitForResponse((r) => r.url().includes("/api/content"), { timeout: 15_000 });
    await visitor.goto(pageUrl);
    await answered;
    // The snippet inserts once it has read the answer: give it up to two seconds on a busy machine.
    const content = visitor.locator("[data-dynamic-content] #sale");
    for (let waited = 0; waited < 2_000 && (await content.count()) === 0; waited += 100) {
      await visitor.waitForTimeout(100);
    }
    return (await content.count()) === 1;
  } finally {
    await visitor.close();
  }
}

const row = (page: Page, email: string) => page.getByRole("row").filter({ hasText: email });

async function toast(page: Page, text: string) {
  await expect.poll(() => page.getByText(text).first().isVisible(), { timeout: 10_000 }).toBe(true);
}

async function adminUser(email: string): Promise<AdminUser> {
  const users = await api<AdminUser[]>("/api/admin/users", { apiKey: await adminApiKey() });
  return users.find((u) => u.email === email)!;
}

describe("an admin", () => {
  it("runs customers, plans and impersonation from the console", async () => {
    expect(await deliveredOnCustomerPage()).toBe(true);
    expect(await deliveredOnCustomerPage()).toBe(true);

    const page = await session.browser.newPage();
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });

    await page.goto(`${baseURL}/admin-login`);
    await page.getByLabel(/email/i).fill(admin.email);
    await page.getByLabel("Password", { exact: true }).fill(admin.password);
    await page.getByRole("button", { name: "Login" }).click();
    await page.waitForURL(`${baseURL}/admin`);
    const adminKey = await page.evaluate(() => localStorage.getItem("apiKey"));

    await page.goto(`${baseURL}/admin/users`);
    await page.getByPlaceholder("Suche nach Nutzern...").fill("BUSY@");
    // The server searches once typing pauses (the table may be empty while the answer is on its way).
    await expect
      .poll(async () => ({ quiet: await row(page, QUIET).count(), busy: await row(page, BUSY).count() }))
      .toEqual({ quiet: 0, busy: 1 });
    await page.getByPlaceholder("Suche nach Nutzern...").fill("");

    // Sorted by API-Requests, descending: the busy customer (its page was visited) comes before the quiet one.
    await expect
      .poll(async () => (await countPendingViews(), await adminUser(BUSY)).totalRequests, COUNTS_POLL)
      .toBeGreaterThanOrEqual(2);
    await page.reload();
    const apiRequests = page.getByRole("columnheader", { name: /API-Requests/ });
    await apiRequests.getByRole("button").click();
    await apiRequests.getByRole("button").click();
    expect(await apiRequests.getAttribute("aria-sort")).toBe("descending");
    // The server sorts: the rows change once its answer is in.
    const busyFirst = async () => {
      const order = await page.getByRole("row").allInnerTexts();
      return order.findIndex((t) => t.includes(BUSY)) < order.findIndex((t) => t.includes(QUIET));
    };
    await expect.poll(busyFirst).toBe(true);

    const limit = page.getByLabel(`Request-Limit von ${BUSY}`);
    await limit.fill("500");
    await limit.press("Enter");
    await toast(page, "Request limit updated successfully");
    expect((await adminUser(BUSY)).requestLimit).toBe(500);

    const status = page.getByRole("switch", { name: `Status von ${BUSY}` });
    await status.click();
    await toast(page, "User status updated successfully");
    expect((await adminUser(BUSY)).isActive).toBe(false);
    expect(await deliveredOnCustomerPage()).toBe(false);
    await status.click();
    await expect.poll(async () => (await adminUser(BUSY)).isActive).toBe(true);
    expect(await deliveredOnCustomerPage()).toBe(true);

    await page.getByRole("button", { name: `Als ${BUSY} einloggen` }).click();
    await page.waitForURL(`${baseURL}/user-dashboard`);
    await expect.poll(() => page.getByText(`Eingeloggt als ${BUSY}`).isVisible()).toBe(true);
    // The admin acts with a key of its own that speaks for the customer (recorded, valid an hour), not theirs.
    const actingKey = await page.evaluate(() => localStorage.getItem("apiKey"));
    expect(actingKey).not.toBe(busyKey);
    expect((await api<AuthInfo>("/api/auth", { apiKey: actingKey! })).email).toBe(BUSY);
    await page.getByRole("button", { name: "Zurück zum Admin-Dashboard" }).click();
    await page.waitForURL(`${baseURL}/admin`);
    expect(await page.evaluate(() => localStorage.getItem("apiKey"))).toBe(adminKey);
    const activity = page.getByRole("region", { name: "Admin Activity" });
    await expect
      .poll(() =>
        activity.getByRole("row").filter({ hasText: BUSY }).filter({ hasText: "Logged in as the user" }).count(),
      )
      .toBe(1);

    // The customer's requests over time, in their detail (Nutzung): today's bar has their page views.
    await page.goto(`${baseURL}/admin/users?user=${encodeURIComponent((await adminUser(BUSY)).userId)}`);
    await page.getByRole("tab", { name: "Nutzung" }).click();
    const usage = page.getByRole("region", { name: "Anfragen über die Zeit" });
    await expect
      .poll(async () =>
        Number(
          /: (\d+) Anfragen/.exec((await usage.getByRole("listitem").last().getAttribute("aria-label")) ?? "")?.[1] ??
            0,
        ),
      )
      .toBeGreaterThanOrEqual(2);

    await page.goto(`${baseURL}/admin/product-versions`);
    await page.getByRole("button", { name: "Neue Version" }).click();
    const create = page.getByRole("dialog");
    await create.getByLabel("Name").fill("Growth");
    await create.getByLabel("Events Limit").fill("100");
    await create.getByRole("button", { name: "Erstellen" }).click();
    await toast(page, "Product version created successfully");
    await expect.poll(() => row(page, "Growth").count()).toBe(1);
    await row(page, "Growth").getByRole("button", { name: "Edit Growth" }).click();
    const edit = page.getByRole("dialog");
    await edit.getByLabel("Name").fill("Growth Plus");
    await edit.getByRole("button", { name: "Speichern" }).click();
    await toast(page, "Product version updated successfully");
    await expect.poll(() => row(page, "Growth Plus").count()).toBe(1);

    // The quiet customer's HTML is an XSS attempt: the console shows it as text and runs nothing.
    await page.goto(`${baseURL}/admin/users`);
    await row(page, QUIET).getByRole("cell").nth(1).click();
    await page.getByRole("tab", { name: "Webseiten & Events" }).click();
    await page
      .getByRole("region", { name: /quiet\.test/ })
      .getByRole("button")
      .first()
      .click();
    await expect.poll(() => page.getByText(XSS_HTML).first().isVisible()).toBe(true);
    await page.getByRole("button", { name: "Zurück zur Übersicht" }).click();
    await page.getByRole("tab", { name: "Event-Verwaltung" }).click();
    await expect.poll(() => page.getByText(XSS_HTML).first().isVisible()).toBe(true);
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(dialogs).toEqual([]);
  });
});
