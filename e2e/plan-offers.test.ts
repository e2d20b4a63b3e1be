/**
 * What the plans offer, end to end (issue 39), against the PayPal stand-in: a PayPal plan id belongs to one product
 * version (the admin's form shows the refusal); a plan without one says "Contact us to switch to this plan" on the
 * customer's card; and when storing an approved subscription fails, the card's "Try again" stores that same
 * subscription instead of asking PayPal for a second one.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { CustomerDashboard, ProductVersion } from "#contract/responses";
import type { ProductVersionBody } from "#contract/schemas";
import { createPayPalPlan, payPalSubscriptionStatus } from "./support/paypal";
import { adminApiKey, api, baseURL, registerCustomer, signedInPage } from "./support/product";
import { useBrowserAndMail } from "./support/session";

const session = useBrowserAndMail();

/** A product version (named unlike other files' plans: the e2e files share one product). */
async function createVersion(adminKey: string, name: string, paypalPlanId: string | null) {
  const body: ProductVersionBody = {
    name,
    eventsLimit: 100,
    websitesLimit: 5,
    dynamicContentLimit: null,
    price: 19,
    paypalPlanId,
    isDefault: false,
  };
  return api<ProductVersion>("/api/admin/product-versions", {
    method: "POST",
    apiKey: adminKey,
    body: JSON.stringify(body),
  });
}

const visible = (page: Page, text: string) =>
  expect.poll(() => page.getByText(text).first().isVisible(), { timeout: 10_000 }).toBe(true);

describe("plan offers", () => {
  it("refuses a PayPal plan id another version has, in the admin's form, naming the id and that version", async () => {
    const adminKey = await adminApiKey();
    const planId = await createPayPalPlan("Solo", "19.00");
    await createVersion(adminKey, "Solo", planId);

    const admin = await signedInPage(session.browser, adminKey, "admin");
    await admin.goto(`${baseURL}/admin/product-versions`);
    await admin.getByRole("button", { name: "Neue Version" }).click();
    const form = admin.getByRole("dialog");
    await form.getByLabel("Name").fill("Solo copy");
    await form.getByLabel("PayPal Plan ID").fill(planId);
    await form.getByRole("button", { name: "Erstellen" }).click();
    await visible(
      admin,
      `PayPal plan id ${planId} already belongs to Solo: each PayPal plan id belongs to one product version.`,
    );
    expect(await form.isVisible()).toBe(true);
    const versions = await api<ProductVersion[]>("/api/admin/product-versions", { apiKey: adminKey });
    expect(versions.filter((v) => v.paypalPlanId === planId).map((v) => v.name)).toEqual(["Solo"]);
  });

  it("says 'Contact us to switch to this plan' on a plan that cannot be bought, and 'Try again' stores the same subscription", async () => {
    const adminKey = await adminApiKey();
    await createVersion(adminKey, "Concierge", null);
    const duoPlanId = await createPayPalPlan("Duo", "19.00");
    await createVersion(adminKey, "Duo", duoPlanId);
    const customerKey = await registerCustomer(session.mail, "retry@shop.test");

    const customer = await signedInPage(session.browser, customerKey, "user");
    const approvals: string[] = [];
    await customer.exposeFunction("__paypalStandInReport", (kind: string, value: unknown) => {
      if (kind === "approve") approvals.push(String(value));
    });
    // The first attempt to store the approved subscription fails as if PayPal could not be reached.
    let failed = false;
    await customer.route("**/api/store-subscription", (route) => {
      if (failed) return route.continue();
      failed = true;
      return route.fulfill({
        status: 502,
        contentType: "application/json",
        body: JSON.stringify({ error: "PayPal could not be reached. Please try again." }),
      });
    });
    await customer.goto(`${baseURL}/user-dashboard`);
    await customer.getByRole("button", { name: "Upgrade / Change Plans" }).click();
    const dialog = customer.getByRole("dialog", { name: "Choose Your Plan" });

    const concierge = dialog.getByRole("group", { name: "Concierge" });
    await expect.poll(() => concierge.getByText("to switch to this plan").isVisible()).toBe(true);
    expect(await concierge.innerText()).toContain("Contact us to switch to this plan");

    const duo = dialog.getByRole("group", { name: "Duo" });
    await expect.poll(() => duo.getByRole("button", { name: "PayPal Subscribe" }).isVisible()).toBe(true);
    await duo.getByRole("button", { name: "PayPal Subscribe" }).click();
    await visible(customer, "PayPal could not be reached. Please try again.");
    await expect.poll(() => duo.getByRole("button", { name: "Try again" }).isVisible()).toBe(true);
    expect(await duo.innerText()).toContain("PayPal approved your subscription, but it is not stored yet.");
    // No second approval is offered anywhere meanwhile.
    expect(await dialog.getByRole("button", { name: "PayPal Subscribe" }).count()).toBe(0);

    const stored = customer.waitForResponse((r) => r.url().endsWith("/api/store-subscription"));
    await duo.getByRole("button", { name: "Try again" }).click();
    expect((await stored).status()).toBe(200);
    await visible(customer, "Subscribed to Duo");
    await expect.poll(() => duo.getByText("Current plan").isVisible()).toBe(true);

    expect(approvals).toHaveLength(1);
    expect(await payPalSubscriptionStatus(approvals[0]!)).toBe("ACTIVE");
    const dashboard = await api<CustomerDashboard>("/api/user/dashboard", { apiKey: customerKey });
    expect(dashboard.productVersion?.name).toBe("Duo");
    expect(dashboard.subscription).toMatchObject({ subscriptionId: approvals[0], status: "active" });
  });
});
