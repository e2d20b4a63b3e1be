/**
 * The started product (`npm start`, wrangler dev) sends its mail to a real SMTP server over STARTTLS, trusting
 * the server's certificate only because this run's CA was handed to it, and logs in only over TLS. The SMTP screen
 * tries settings before it stores them (issue 39).
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { SmtpConfig } from "#contract/responses";
import { launchBrowser } from "./support/browser";
import { startMailServer, type MailServer } from "./support/mail-server";
import { adminApiKey, api, baseURL, useMailServer } from "./support/product";

let mail: MailServer;
beforeAll(async () => {
  mail = await startMailServer({ tls: { certificate: inject("mailCertificate") } });
  await useMailServer(mail);
});
afterAll(() => mail.close());

describe("the product's SMTP transport", () => {
  it("delivers the verification mail over STARTTLS, logging in after the upgrade", async () => {
    await api("/api/register", { method: "POST", body: JSON.stringify({ email: "tls@shop.test" }) });

    const message = await mail.waitFor("tls@shop.test");
    expect(message).toMatchObject({ tls: true, user: "mailer", subject: "Verify your email for Dynamic Content" });
    // The save's check logged in too: every login came after the upgrade.
    expect(mail.logins.length).toBeGreaterThan(0);
    expect(mail.logins.every((login) => login.user === "mailer" && login.tls)).toBe(true);
  });
});

describe("the SMTP screen", () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchBrowser();
    page = await browser.newPage();
    await page.goto(`${baseURL}/snippet`);
    const key = await adminApiKey();
    await page.evaluate((apiKey) => {
      localStorage.setItem("apiKey", apiKey);
      localStorage.setItem("userRole", "admin");
    }, key);
    await page.goto(`${baseURL}/smtp-config`);
    await page.getByLabel("SMTP Host").waitFor({ timeout: 15_000 });
  });
  afterAll(() => browser?.close());

  it("refuses an unreachable SMTP host with the step named, and keeps the stored configuration", async () => {
    expect(await page.getByLabel("SMTP Host").inputValue()).toBe("127.0.0.1");
    await page.getByLabel("SMTP Port").fill("1");
    await page.getByRole("button", { name: "Update SMTP Config" }).click();

    const refusal = page.getByText(/^Could not connect to 127\.0\.0\.1:1: .+/);
    await expect.poll(() => refusal.isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await page.getByText("SMTP configuration updated successfully").count()).toBe(0);
    const stored = await api<SmtpConfig>("/api/smtp-config", { apiKey: await adminApiKey() });
    expect(stored.port).toBe(mail.port);
  });

  it("sends the test mail before storing a working configuration", async () => {
    await page.getByLabel("SMTP Port").fill(String(mail.port));
    await page.getByLabel("Send test mail to").fill("admin-test@shop.test");
    await page.getByRole("button", { name: "Update SMTP Config" }).click();

    await expect
      .poll(() => page.getByText("SMTP configuration updated successfully").isVisible(), { timeout: 30_000 })
      .toBe(true);
    expect(await mail.waitFor("admin-test@shop.test")).toMatchObject({
      subject: "Dynamic Content: test mail",
      tls: true,
    });
  });
});
