/**
 * Attacks from the security review, tried in a real browser against the started product:
 * - a customer's HTML opened directly on our origin must not run there (it would read the stored API key);
 * - the SPA's pages carry a strict CSP that refuses inline script;
 * - an admin's address gets no login code, and no code ever signs in as the admin;
 * - a rotated key stops working at once;
 * - the build's manifest (for web/initial-bundle.test.ts) is not served.
 */
import { describe, expect, it } from "vitest";
import type { AuthInfo, Mapping } from "#contract/responses";
import { useBrowserAndMail } from "./support/session";
import { admin, api, baseURL, registerCustomer } from "./support/product";

const session = useBrowserAndMail();

const STEALER = '<script>document.title="STOLEN:"+localStorage.getItem("apiKey")</script><b id="payload">hi</b>';

describe("security", () => {
  it("never runs a customer's HTML on the product's origin, while the snippet still gets it", async () => {
    const attackerKey = await registerCustomer(session.mail, "attacker@evil.test");
    const { userId } = await api<AuthInfo>("/api/auth", { apiKey: attackerKey });
    const pageUrl = "https://evil.test/page";
    await api<Mapping>("/api/mappings", {
      method: "POST",
      apiKey: attackerKey,
      body: JSON.stringify({ url: pageUrl, htmlContent: STEALER }),
    });

    // A victim signed in to the dashboard (a key in this origin's storage) follows the attacker's link.
    const victim = await session.browser.newPage();
    await victim.goto(`${baseURL}/login`);
    await victim.evaluate(() => localStorage.setItem("apiKey", "dc_victims_secret_key"));
    const response = await victim.goto(
      `${baseURL}/api/content?u=${encodeURIComponent(userId)}&url=${encodeURIComponent(pageUrl)}`,
    );
    expect(response?.status()).toBe(200);
    expect(response?.headers()["content-type"]).toBe("text/plain; charset=utf-8");
    expect(response?.headers()["x-content-type-options"]).toBe("nosniff");
    expect(response?.headers()["content-security-policy"]).toContain("sandbox");
    expect(await victim.title()).not.toContain("STOLEN");
    expect(await victim.locator("#payload").count()).toBe(0);
    expect(await victim.evaluate(() => document.body.innerText)).toContain("<script>");

    // Script on a page of any other origin (here the dashboard's, as the snippet's fetch would) still gets the HTML.
    await victim.goto(`${baseURL}/login`);
    const answer = await victim.evaluate(
      async ([u, url]) =>
        (await fetch(`/api/content?u=${encodeURIComponent(u!)}&url=${encodeURIComponent(url!)}`)).text(),
      [userId, pageUrl],
    );
    expect(answer).toBe(STEALER);
  });

  it("serves the SPA with a CSP that refuses inline script", async () => {
    const page = await session.browser.newPage();
    const response = await page.goto(`${baseURL}/register`);
    const headers = response!.headers();
    expect(headers["x-frame-options"]).toBe("DENY");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    await expect.poll(() => page.getByText("Register for API Access").isVisible()).toBe(true);

    const ran = await page.evaluate(() => {
      const script = document.createElement("script");
      script.textContent = "window.__inlineRan = true";
      document.body.appendChild(script);
      return (window as unknown as { __inlineRan?: boolean }).__inlineRan === true;
    });
    expect(ran).toBe(false);
  });

  it("does not serve the build's manifest", async () => {
    const response = await fetch(`${baseURL}/.vite/manifest.json`);
    expect(await response.text()).not.toContain('"isEntry"');
  });

  it("sends an admin's address no login code, and no code signs in as the admin", async () => {
    const page = await session.browser.newPage();
    await page.goto(`${baseURL}/login`);
    await page.getByLabel(/email/i).fill(admin.email);
    await page.getByRole("button", { name: "Send Code" }).click();
    await expect.poll(() => page.getByRole("button", { name: "Verify Code" }).isVisible()).toBe(true);

    const notice = await session.mail.waitFor(admin.email);
    expect(notice.text).toContain("/admin-login");
    expect(notice.text!.replace(/https?:\/\/\S+/g, "")).not.toMatch(/\b\d{5}\b/);

    await page.getByLabel(/code/i).fill("12345");
    await page.getByRole("button", { name: "Verify Code" }).click();
    await expect.poll(() => page.getByText("Invalid code. Please try again.").first().isVisible()).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem("apiKey"))).toBeNull();
  });

  it("rotates a customer's key from the dashboard; the old key stops working at once", async () => {
    const oldKey = await registerCustomer(session.mail, "rotator@shop.test");
    const page = await session.browser.newPage();
    await page.goto(`${baseURL}/login`);
    await page.evaluate((key) => localStorage.setItem("apiKey", key), oldKey);
    await page.goto(`${baseURL}/user-dashboard`);
    await page.getByRole("button", { name: "Rotate API key" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Rotate key" }).click();
    await expect.poll(() => page.getByText("API key rotated").first().isVisible()).toBe(true);

    const newKey = await page.evaluate(() => localStorage.getItem("apiKey"));
    expect(newKey).not.toBe(oldKey);
    expect((await fetch(`${baseURL}/api/auth`, { headers: { "X-API-Key": oldKey } })).status).toBe(401);
    expect((await api<AuthInfo>("/api/auth", { apiKey: newKey! })).email).toBe("rotator@shop.test");
    await expect.poll(() => page.getByText(newKey!).isVisible()).toBe(true);
  });
});
