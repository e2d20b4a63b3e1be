/**
 * "Pick on page" in Chromium (docs/placement.md): the customer's page opens in a frame on an origin other than the
 * dashboard's, a click on its `#hero` fills the selector input with `#hero`, and the form's HTML shows at `#hero` in
 * the frame, moving when the position changes; hovering outlines the element.
 */
import { describe, expect, it } from "vitest";
import type { CustomerDashboard } from "#contract/responses";
import { startCustomerSite } from "./support/customer-site";
import { api, baseURL, openWithKey, registerCustomer } from "./support/product";
import { useBrowserAndMail } from "./support/session";

const session = useBrowserAndMail();

describe("Pick on page", () => {
  it("shows the page on another origin, fills the selector of the element clicked and shows the content there", async () => {
    const apiKey = await registerCustomer(session.mail, `pick-${crypto.randomUUID()}@example.com`);
    const { jsSnippet } = await api<CustomerDashboard>("/api/user/dashboard", { apiKey });
    const site = await startCustomerSite(
      jsSnippet,
      '<section id="hero" style="height:200px">Big offer</section><main>Original page content</main>',
    );
    session.closeLater(site.close);

    const page = await openWithKey(session.browser, apiKey, "/dashboard", "URL Mappings");
    await page.getByLabel("URL", { exact: true }).fill(`${site.origin}/offer`);
    await page.getByLabel("HTML Content").fill('<p id="promo">Live promo</p>');
    await page.getByText("Placement, SEO & publishing (optional)").click();
    await page.getByRole("button", { name: "Pick on page" }).click();

    const frameElement = page.locator('iframe[title="Pick on page"]');
    await frameElement.waitFor();
    const frameUrl = new URL((await frameElement.getAttribute("src"))!);
    expect(frameUrl.origin).not.toBe(new URL(baseURL).origin);
    const frame = page.frameLocator('iframe[title="Pick on page"]');
    // Hovering outlines the element. Chromium routes the pointer to a frame of another site only once it has laid the
    // new frame out, so the pointer moves onto `#hero` until the outline shows, before the click.
    const hero = frame.locator("#hero");
    await expect
      .poll(async () => {
        await page.mouse.move(0, 0);
        await hero.hover();
        return hero.getAttribute("data-dc-pick-hover");
      })
      .toBe("");
    await hero.click();
    await expect.poll(() => page.getByLabel("CSS selector").inputValue()).toBe("#hero");
    // Picked at the top of the page: inside the element, first.
    await frame.locator("#hero > [data-dynamic-content]:first-child #promo").waitFor();
    await page.getByLabel("Position").selectOption("after");
    await frame.locator("#hero + [data-dynamic-content] #promo").waitFor();
    expect(await frame.locator("#promo").count()).toBe(1);
  });
});
