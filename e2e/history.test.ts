/**
 * A mapping's history in the dashboard (docs/history.md): a customer whose content was overwritten by mistake
 * opens History, sees what changed, and restores the earlier version; the content endpoint serves it at once.
 */
import { describe, expect, it } from "vitest";
import type { CustomerDashboard, Mapping } from "../worker/contract/responses";
import { api, baseURL, registerCustomer } from "./support/product";
import { useBrowserAndMail } from "./support/session";

const session = useBrowserAndMail();

describe("history and rollback", () => {
  it("shows the versions with a diff and restores one in one step", async () => {
    const apiKey = await registerCustomer(session.mail, "history@shop.test");
    const { userId } = await api<CustomerDashboard>("/api/user/dashboard", { apiKey });
    const pageUrl = "https://history.shop.test/offer";
    const mapping = await api<Mapping>("/api/mappings", {
      method: "POST",
      apiKey,
      body: JSON.stringify({ url: pageUrl, htmlContent: "<p>Autumn sale: 20% off</p>" }),
    });
    await api(`/api/mappings/${mapping.id}`, {
      method: "PATCH",
      apiKey,
      body: JSON.stringify({ htmlContent: "<p>Oops, wrong text</p>" }),
    });
    const content = async () =>
      (await fetch(`${baseURL}/api/content?u=${userId}&url=${encodeURIComponent(pageUrl)}`)).text();
    expect(await content()).toBe("<p>Oops, wrong text</p>");

    const page = await session.browser.newPage();
    await page.goto(`${baseURL}/snippet`);
    await page.evaluate((key) => localStorage.setItem("apiKey", key), apiKey);
    await page.goto(`${baseURL}/dashboard`);
    await page.getByRole("tab", { name: "URL Mappings" }).click();
    await page.getByRole("button", { name: "History" }).click();
    const dialog = page.getByRole("dialog");
    const current = dialog.getByRole("listitem", { name: "Version 2" });
    await expect.poll(() => current.textContent()).toContain("Current");
    expect(await current.textContent()).toContain("- <p>Autumn sale: 20% off</p>");
    expect(await current.textContent()).toContain("+ <p>Oops, wrong text</p>");

    await dialog.getByRole("listitem", { name: "Version 1" }).getByRole("button", { name: "Restore" }).click();
    await expect.poll(() => page.getByText("Version 1 restored").first().isVisible()).toBe(true);
    expect(await content()).toBe("<p>Autumn sale: 20% off</p>");
    // The restore is the newest version now, and the list says so.
    await expect.poll(() => dialog.getByRole("listitem", { name: "Version 3" }).textContent()).toContain("Current");
  });
});
