/**
 * A mapping's history in the dashboard (docs/history.md): a customer whose content was overwritten by mistake
 * opens History, sees what changed, and restores the earlier version; the content endpoint serves it at once.
 */
import { describe, expect, it } from "vitest";
import type { CustomerDashboard, Mapping } from "#contract/responses";
import { api, baseURL, openWithKey, registerCustomer } from "./support/product";
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

    const page = await openWithKey(session.browser, apiKey, "/dashboard", "URL Mappings");
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

  it("restores a mapping removed by mistake from Recently deleted, served again at once", async () => {
    const apiKey = await registerCustomer(session.mail, "undelete@shop.test");
    const { userId } = await api<CustomerDashboard>("/api/user/dashboard", { apiKey });
    const pageUrl = "https://undelete.shop.test/landing";
    await api<Mapping>("/api/mappings", {
      method: "POST",
      apiKey,
      body: JSON.stringify({ url: pageUrl, htmlContent: "<p>Keep me</p>" }),
    });
    const content = async () =>
      (await fetch(`${baseURL}/api/content?u=${userId}&url=${encodeURIComponent(pageUrl)}`)).text();

    const page = await openWithKey(session.browser, apiKey, "/dashboard", "URL Mappings");
    await page.getByRole("button", { name: "Remove" }).click();
    const deleted = page.getByRole("table", { name: "Recently deleted mappings" });
    await expect.poll(() => deleted.textContent()).toContain(pageUrl);
    expect(await content()).toBe("");

    await deleted.getByRole("button", { name: `Restore ${pageUrl}` }).click();
    await expect.poll(() => page.getByText("URL mapping restored").first().isVisible()).toBe(true);
    expect(await content()).toBe("<p>Keep me</p>");
    await expect.poll(() => deleted.count()).toBe(0);
  });
});
