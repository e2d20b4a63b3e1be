/**
 * Bulk import and export in the dashboard (docs/bulk.md): a content team checks a CSV, sees the refused row and
 * why, fixes the file, imports it all at once, and downloads everything back as CSV.
 */
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import type { CustomerDashboard, Mapping } from "#contract/responses";
import { api, baseURL, openWithKey, registerCustomer } from "./support/product";
import { useBrowserAndMail } from "./support/session";

const session = useBrowserAndMail();

describe("bulk import and export", () => {
  it("checks a file, shows what it refuses, imports a good one all at once and exports it again", async () => {
    const apiKey = await registerCustomer(session.mail, "bulk@shop.test");
    const { userId } = await api<CustomerDashboard>("/api/user/dashboard", { apiKey });
    await api<Mapping>("/api/mappings", {
      method: "POST",
      apiKey,
      body: JSON.stringify({ url: "https://bulk.shop.test/a", htmlContent: "<p>old a</p>" }),
    });
    const content = async (url: string) =>
      (await fetch(`${baseURL}/api/content?u=${userId}&url=${encodeURIComponent(url)}`)).text();

    const page = await openWithKey(session.browser, apiKey, "/dashboard", "URL Mappings");
    const file = page.getByLabel("Import file");
    const csv = (rows: string[]) => ({
      name: "mappings.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(["url,htmlContent", ...rows].join("\r\n")),
    });

    await file.setInputFiles(csv(["https://bulk.shop.test/a,<p>new a</p>", "javascript:alert(1),<p>b</p>"]));
    await page.getByRole("button", { name: "Check file" }).click();
    const refused = page.getByRole("table", { name: "Refused rows" });
    await expect.poll(() => refused.textContent()).toContain("URL must start with http:// or https://");
    expect(await page.getByRole("button", { name: "Import", exact: true }).isDisabled()).toBe(true);
    expect(await content("https://bulk.shop.test/a")).toBe("<p>old a</p>");

    await file.setInputFiles(csv(["https://bulk.shop.test/a,<p>new a</p>", "https://bulk.shop.test/b,<p>new b</p>"]));
    await page.getByRole("button", { name: "Check file" }).click();
    await expect.poll(() => page.getByText("1 added, 1 updated: checked, nothing changed yet").isVisible()).toBe(true);
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await expect.poll(() => page.getByText("Imported: 1 added, 1 updated").isVisible()).toBe(true);
    expect(await content("https://bulk.shop.test/a")).toBe("<p>new a</p>");
    expect(await content("https://bulk.shop.test/b")).toBe("<p>new b</p>");
    await expect.poll(() => page.getByRole("cell", { name: "https://bulk.shop.test/b" }).count()).toBeGreaterThan(0);

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^mappings-\d{4}-\d{2}-\d{2}\.csv$/);
    const exported = await readFile((await download.path())!, "utf8");
    expect(exported).toContain("https://bulk.shop.test/a,<p>new a</p>");
    expect(exported).toContain("https://bulk.shop.test/b,<p>new b</p>");
  });
});
