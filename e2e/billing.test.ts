/**
 * Billing, end to end, against the PayPal stand-in (scripts/paypal-fake.mjs, sandbox mode): the admin creates
 * plans at "PayPal" and as product versions; a customer subscribes through the plan dialog, and the ACTIVE
 * subscription (confirmed through the REST API) grants the plan; a recorded PayPal notification is posted with
 * `npm run paypal:ipn`; the admin finds the payment on /admin/billing, opens it, corrects the payer email,
 * exports the XLSX; the customer sees the payment with its period and status; changing plans cancels the old
 * subscription at PayPal.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import * as XLSX from "xlsx";
import type { AuthInfo, CustomerDashboard } from "../worker/contract/responses";
import type { ProductVersionBody } from "../worker/contract/schemas";
import { useBrowserAndMail } from "./support/session";
import { createPayPalPlan, payPalSubscriptionStatus } from "./support/paypal";
import { adminApiKey, api, baseURL, registerCustomer } from "./support/product";

const CUSTOMER = "subscriber@shop.test";
const TXN = "E2E-TXN-0001";

const session = useBrowserAndMail();
const work = mkdtempSync(join(tmpdir(), "dc-billing-"));

/** A browser page signed in with `apiKey` (the login screens have their own tests). */
async function signedIn(apiKey: string, role: "user" | "admin"): Promise<Page> {
  const page = await session.browser.newPage({ acceptDownloads: true });
  await page.goto(`${baseURL}/snippet`);
  await page.evaluate(
    ([key, r]) => {
      localStorage.setItem("apiKey", key!);
      localStorage.setItem("userRole", r!);
    },
    [apiKey, role],
  );
  return page;
}

/** The recorded notification of docs/paypal, for this subscription, with a mistyped payer email. */
function postRecordedNotification(subscriptionId: string) {
  const recorded = readFileSync("docs/paypal/recurring-payment.ipn", "utf8");
  const body = recorded
    .replace(/(^|&)recurring_payment_id=[^&]*/, `$1recurring_payment_id=${subscriptionId}`)
    .replace(/(^|&)txn_id=[^&]*/, `$1txn_id=${TXN}`)
    .replace(/(^|&)payer_email=[^&]*/, `$1payer_email=${encodeURIComponent("subscriber@shop.tst")}`)
    .replace(/(^|&)payment_date=[^&]*/, `$1payment_date=${encodeURIComponent("10:00:00 Nov 20, 2026 PST")}`);
  const file = join(work, "notification.ipn");
  writeFileSync(file, body);
  execFileSync(process.execPath, ["scripts/paypal-ipn.mjs", file], { env: { ...process.env, DC_URL: baseURL } });
}

/** A plan at PayPal and the product version that sells it. */
async function sellPlan(adminKey: string, name: string, price: number) {
  const paypalPlanId = await createPayPalPlan(name, price.toFixed(2));
  const plan: ProductVersionBody = {
    name,
    eventsLimit: 100,
    websitesLimit: 5,
    dynamicContentLimit: null,
    price,
    paypalPlanId,
    isDefault: false,
  };
  await api("/api/admin/product-versions", { method: "POST", apiKey: adminKey, body: JSON.stringify(plan) });
  return paypalPlanId;
}

/** Clicks the plan's PayPal button in the plan dialog and waits for the stored subscription and the reload. */
async function subscribe(customer: Page, planName: string) {
  await customer.getByRole("button", { name: "Upgrade / Change Plans" }).click();
  const dialog = customer.getByRole("dialog", { name: "Choose Your Plan" });
  const card = dialog.getByRole("group", { name: planName });
  await expect.poll(() => card.getByRole("button", { name: "PayPal Subscribe" }).isVisible()).toBe(true);
  const stored = customer.waitForResponse((r) => r.url().endsWith("/api/store-subscription"));
  const reloaded = customer.waitForEvent("load");
  await card.getByRole("button", { name: "PayPal Subscribe" }).click();
  expect((await stored).status()).toBe(200);
  await reloaded; // SPEC.md §4: the page reloads after the subscription is stored
}

describe("billing", () => {
  it("takes a subscription and a payment from PayPal to the admin and back to the customer", async () => {
    const customerKey = await registerCustomer(session.mail, CUSTOMER);
    const { userId } = await api<AuthInfo>("/api/auth", { apiKey: customerKey });
    const adminKey = await adminApiKey();
    // Named unlike the admin console test's plans: the e2e files share one product.
    const premiumPlanId = await sellPlan(adminKey, "Premium", 29);

    // The customer subscribes in the plan dialog; PayPal confirms the subscription ACTIVE at Premium's price.
    const customer = await signedIn(customerKey, "user");
    const paypalCalls: [string, unknown][] = [];
    await customer.exposeFunction("__paypalStandInReport", (kind: string, value: unknown) =>
      paypalCalls.push([kind, value]),
    );
    await customer.goto(`${baseURL}/user-dashboard`);
    await subscribe(customer, "Premium");
    expect(paypalCalls).toEqual([
      ["create", { plan_id: premiumPlanId, custom_id: userId }],
      ["approve", "I-STANDIN-1"],
    ]);
    const plan = async () =>
      (await api<CustomerDashboard>("/api/user/dashboard", { apiKey: customerKey })).productVersion?.name;
    expect(await plan()).toBe("Premium");

    // PayPal's notification of the first payment arrives.
    postRecordedNotification("I-STANDIN-1");

    const adminPage = await signedIn(adminKey, "admin");
    await adminPage.goto(`${baseURL}/admin/billing`);
    const row = adminPage.getByRole("row").filter({ hasText: TXN });
    await expect.poll(() => row.count(), { timeout: 20_000, interval: 500 }).toBe(1);
    expect(await row.innerText()).toContain("$29.00");
    // The payer email matches no account yet: the row is marked. The payment is linked to the customer all the
    // same, through the subscription the plan dialog stored (its product name is the recorded notification's).
    expect(await row.getAttribute("class")).toMatch(/red/);
    const history = await api<{ product: string }[]>("/api/user/payment-history", { apiKey: customerKey });
    expect(history.map((p) => p.product)).toEqual(["Growth"]);

    const download = adminPage.waitForEvent("download");
    await adminPage.getByRole("button", { name: "Export Full Details (XLSX)" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe("transactions.xlsx");
    const saved = join(work, "transactions.xlsx");
    await file.saveAs(saved);
    const workbook = XLSX.read(readFileSync(saved));
    expect(workbook.SheetNames).toEqual(["Transactions"]);
    const rows = XLSX.utils.sheet_to_json<Record<string, unknown>>(workbook.Sheets.Transactions!);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      transactionId: TXN,
      payerEmail: "subscriber@shop.tst",
      recurringPaymentId: "I-STANDIN-1",
    });

    await row.click();
    await adminPage.waitForURL(`${baseURL}/admin/billing/transaction/${TXN}`);
    await expect.poll(() => adminPage.getByText("Transaction Details").first().isVisible()).toBe(true);
    await adminPage.getByRole("button", { name: "Edit" }).click();
    await adminPage.getByRole("textbox").first().fill(CUSTOMER);
    await adminPage.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => adminPage.getByText("Email updated successfully").first().isVisible()).toBe(true);
    await adminPage.goto(`${baseURL}/admin/billing`);
    await expect.poll(async () => (await row.getAttribute("class")) ?? "red").not.toMatch(/red/);

    // The customer sees the payment.
    await customer.goto(`${baseURL}/user-dashboard`);
    await customer.getByRole("tab", { name: "Billing" }).click();
    const payment = customer.getByRole("row").filter({ hasText: "Growth" });
    await expect.poll(() => payment.count(), { timeout: 10_000 }).toBe(1);
    expect(await payment.innerText()).toContain("20.11.2026");
    expect(await payment.innerText()).toMatch(/29,00\s\$/);
    // The period the payment paid for, as PayPal named it (payment date to next payment date), and its status.
    expect(await payment.innerText()).toContain("20.11.2026 – 22.12.2026");
    expect(await payment.innerText()).toContain("Completed");

    // Changing plans: the new subscription is confirmed, and the old one is cancelled at PayPal.
    await sellPlan(adminKey, "Scale", 99);
    await customer.goto(`${baseURL}/user-dashboard`);
    await subscribe(customer, "Scale");
    expect(await plan()).toBe("Scale");
    expect(await payPalSubscriptionStatus("I-STANDIN-1")).toBe("CANCELLED");
    expect(await payPalSubscriptionStatus("I-STANDIN-2")).toBe("ACTIVE");
  });
});
