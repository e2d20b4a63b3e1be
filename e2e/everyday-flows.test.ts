/**
 * Everyday flows of issue 25, in the browser: a customer edits content and takes a draft live from the dashboard,
 * and each change's note says what happened to the page; Remove on a URL with older mappings removes them all when
 * asked; a mapping for an audience is added through the form and delivered to that audience only; the events limit
 * counts deleted mappings and holds a restore to it; a customer with more than 1,000 mappings pages through them
 * all, and a client that sends no `limit` gets the first 1,000 and a Link to the rest;
 * an admin whose session ended, or who logs out, lands on the admin login with the header on every admin screen.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { CustomerDashboard, Mapping, ProductVersion } from "#contract/responses";
import type { ProductVersionBody } from "#contract/schemas";
import { adminApiKey, api, baseURL, openWithKey, registerCustomer, signedInPage } from "./support/product";
import { useBrowserAndMail } from "./support/session";

const session = useBrowserAndMail();
const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148";
const DESKTOP = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120 Safari/537.36";

async function toast(page: Page, text: string | RegExp) {
  await expect.poll(() => page.getByText(text).first().isVisible(), { timeout: 10_000 }).toBe(true);
}

/** What the product delivers for `url` to the customer's snippet now. */
async function delivered(userId: string, url: string): Promise<string> {
  return (await fetch(`${baseURL}/api/content?u=${userId}&url=${encodeURIComponent(url)}`)).text();
}

async function newCustomer(email: string) {
  const apiKey = await registerCustomer(session.mail, email);
  const { userId } = await api<CustomerDashboard>("/api/user/dashboard", { apiKey });
  return { apiKey, userId };
}

const addByApi = (apiKey: string, url: string, htmlContent: string) =>
  api<Mapping>("/api/mappings", { method: "POST", apiKey, body: JSON.stringify({ url, htmlContent }) });

describe("a customer's content", () => {
  it("is edited, published and unpublished from its row, each note saying what happened to the page", async () => {
    const { apiKey, userId } = await newCustomer("editor@shop.test");
    const pageUrl = "https://editor.shop.test/offer";
    const page = await openWithKey(session.browser, apiKey, "/dashboard", "URL Mappings");

    // Added as a draft: saved, not delivered, and the note does not say "Live now".
    await page.getByLabel("URL", { exact: true }).fill(pageUrl);
    await page.getByLabel("HTML Content").fill("<p>Winter sale</p>");
    await page.getByText("Placement, SEO & publishing (optional)").click();
    await page.getByLabel("Save as draft (not delivered until published)").check();
    await page.getByRole("button", { name: "Add Mapping" }).click();
    await toast(page, "Saved as draft: not delivered until published.");
    expect(await delivered(userId, pageUrl)).toBe("");

    const row = page.getByRole("row").filter({ hasText: pageUrl });
    await row.getByRole("button", { name: "Publish" }).click();
    await toast(page, "URL mapping published");
    await toast(page, /^Live now; served everywhere by \d\d:\d\d:\d\d\.$/);
    expect(await delivered(userId, pageUrl)).toBe("<p>Winter sale</p>");

    await row.getByRole("button", { name: "Edit" }).click();
    const edit = page.getByRole("dialog", { name: "Edit URL mapping" });
    await edit.getByLabel("HTML Content").fill("<p>Winter sale: 30% off</p>");
    await edit.getByRole("button", { name: "Save changes" }).click();
    await toast(page, "URL mapping updated");
    await expect.poll(() => edit.count()).toBe(0);
    expect(await delivered(userId, pageUrl)).toBe("<p>Winter sale: 30% off</p>");

    await row.getByRole("button", { name: "Unpublish" }).click();
    await toast(page, "URL mapping unpublished");
    await toast(page, /^Removed from your pages by \d\d:\d\d:\d\d\.$/);
    expect(await delivered(userId, pageUrl)).toBe("");
    expect(await row.getByRole("button", { name: "Publish" }).count()).toBe(1);
  });

  it("is removed with its URL's older mappings when the customer asks for all of them", async () => {
    const { apiKey, userId } = await newCustomer("remover@shop.test");
    const pageUrl = "https://remover.shop.test/";
    for (const version of ["first", "second", "third"]) await addByApi(apiKey, pageUrl, `<p>${version}</p>`);
    expect(await delivered(userId, pageUrl)).toBe("<p>third</p>");

    const page = await openWithKey(session.browser, apiKey, "/dashboard", "URL Mappings");
    await page.getByRole("row").filter({ hasText: pageUrl }).getByRole("button", { name: "Remove" }).click();
    const ask = page.getByRole("alertdialog", { name: "This URL has 2 older mappings" });
    await ask.getByRole("button", { name: "Remove all 3" }).click();
    await toast(page, /^Removed from your pages by \d\d:\d\d:\d\d\.$/);
    expect(await delivered(userId, pageUrl)).toBe("");
    expect(await api<Mapping[]>("/api/mappings", { apiKey })).toEqual([]);
  });

  it("is shown to an audience: added through the form's audience section, delivered to that audience only", async () => {
    const { apiKey, userId } = await newCustomer("audience@shop.test");
    const pageUrl = "https://audience.shop.test/offer";
    await addByApi(apiKey, pageUrl, "<p>Everyone</p>");
    const page = await openWithKey(session.browser, apiKey, "/dashboard", "URL Mappings");
    await page.getByLabel("URL", { exact: true }).fill(pageUrl);
    await page.getByLabel("HTML Content").fill("<p>Hallo</p>");
    await page.getByText("Audience (optional)").click();
    await page.getByLabel("Audience name").fill("German phones");
    await page.getByRole("combobox", { name: "Countries" }).fill("germ");
    await page.getByRole("option", { name: "Germany (DE)" }).click();
    await page.getByRole("button", { name: "Mobile" }).click();
    await page.getByRole("button", { name: "Add Mapping" }).click();
    await toast(page, "URL mapping added successfully");
    await toast(page, "Audience: German phones");

    const seenFrom = async (country: string, userAgent: string) =>
      (
        await fetch(`${baseURL}/api/content?u=${userId}&url=${encodeURIComponent(pageUrl)}`, {
          headers: { "CF-IPCountry": country, "User-Agent": userAgent },
        })
      ).text();
    expect(await seenFrom("DE", IPHONE)).toBe("<p>Hallo</p>");
    expect(await seenFrom("US", IPHONE)).toBe("<p>Everyone</p>");
    expect(await seenFrom("DE", DESKTOP)).toBe("<p>Everyone</p>");
  });

  it("counts deleted mappings against the events limit, and holds a restore to it", async () => {
    // On the default Free plan: 10 content updates per billing period.
    const { apiKey } = await newCustomer("counted@shop.test");
    const added: Mapping[] = [];
    for (let n = 1; n <= 10; n++) added.push(await addByApi(apiKey, `https://counted.shop.test/${n}`, `<p>${n}</p>`));
    await api(`/api/mappings/${added[0]!.id}`, { method: "DELETE", apiKey });

    const page = await openWithKey(session.browser, apiKey, "/dashboard", "URL Mappings");
    const refusal =
      "Your plan allows 10 content updates per billing period. Upgrade your plan or wait for the next period.";
    await page.getByLabel("URL", { exact: true }).fill("https://counted.shop.test/11");
    await page.getByLabel("HTML Content").fill("<p>11</p>");
    await page.getByRole("button", { name: "Add Mapping" }).click();
    await toast(page, refusal);

    const deleted = page.getByRole("table", { name: "Recently deleted mappings" });
    await deleted.getByRole("button", { name: `Restore ${added[0]!.url}` }).click();
    await toast(page, refusal);
    expect((await api<Mapping[]>("/api/mappings", { apiKey })).length).toBe(9);
  });

  it("pages past 1,000 mappings in the dashboard, and a client without a limit gets 1,000 and a Link to the rest", async () => {
    const { apiKey, userId } = await newCustomer("many@shop.test");
    const adminKey = await adminApiKey();
    const unlimited: ProductVersionBody = {
      name: "Unlimited (e2e)",
      eventsLimit: null,
      websitesLimit: null,
      dynamicContentLimit: null,
      price: null,
      paypalPlanId: null,
      isDefault: false,
    };
    const version = await api<ProductVersion>("/api/admin/product-versions", {
      method: "POST",
      apiKey: adminKey,
      body: JSON.stringify(unlimited),
    });
    await api(`/api/admin/users/${userId}/product-version`, {
      method: "POST",
      apiKey: adminKey,
      body: JSON.stringify({ versionId: version.id }),
    });
    const rows = Array.from({ length: 1001 }, (_, n) => `https://many.shop.test/p/${n},<p>${n}</p>`);
    const imported = await fetch(`${baseURL}/api/mappings/import`, {
      method: "POST",
      headers: { "X-API-Key": apiKey, "Content-Type": "text/csv" },
      body: ["url,htmlContent", ...rows].join("\r\n"),
    });
    expect(imported.status).toBe(200);

    const first = await fetch(`${baseURL}/api/mappings`, { headers: { "X-API-Key": apiKey } });
    expect(((await first.json()) as Mapping[]).length).toBe(1000);
    expect(first.headers.get("X-Total-Count")).toBe("1001");
    const next = /<([^>]+)>;\s*rel="next"/.exec(first.headers.get("Link") ?? "")?.[1];
    expect(next).toBeDefined();
    const rest = await fetch(new URL(next!, baseURL), { headers: { "X-API-Key": apiKey } });
    expect(((await rest.json()) as Mapping[]).length).toBe(1);

    const page = await openWithKey(session.browser, apiKey, "/dashboard", "URL Mappings");
    await expect.poll(() => page.getByText("1–100 of 1001").isVisible(), { timeout: 10_000 }).toBe(true);
    await page.getByRole("button", { name: "Next page" }).click();
    await expect.poll(() => page.getByText("101–200 of 1001").isVisible()).toBe(true);
  });
});

describe("an admin", () => {
  /** A page whose browser stores `apiKey` as an admin's, as a login leaves it. */
  const storedAsAdmin = (apiKey: string) => signedInPage(session.browser, apiKey, "admin");

  it("whose session ended is led to the admin login and told so, never to a 404", async () => {
    const page = await storedAsAdmin("dc_revoked-or-expired-key");
    await page.goto(`${baseURL}/admin/users`);
    await page.waitForURL(`${baseURL}/admin-login`);
    await toast(page, "Session ended");
    await expect.poll(() => page.getByRole("button", { name: "Login" }).isVisible()).toBe(true);
    expect(await page.getByText("404 Page Not Found").count()).toBe(0);
  });

  it("finds the header on every admin screen and SMTP on the index, and logs out to the admin login", async () => {
    const page = await storedAsAdmin(await adminApiKey());
    for (const path of ["/admin/product-versions", "/smtp-config"]) {
      await page.goto(`${baseURL}${path}`);
      await expect.poll(() => page.getByRole("button", { name: "Logout" }).isVisible()).toBe(true);
    }
    await page.goto(`${baseURL}/`);
    const smtp = page.getByRole("link", { name: /SMTP/ });
    await expect.poll(() => smtp.isVisible()).toBe(true);
    await smtp.click();
    await page.waitForURL(`${baseURL}/smtp-config`);

    await page.getByRole("button", { name: "Logout" }).click();
    await page.waitForURL(`${baseURL}/admin-login`);
    await toast(page, "Successfully logged out");
    expect(await page.getByText("404 Page Not Found").count()).toBe(0);
  });
});
