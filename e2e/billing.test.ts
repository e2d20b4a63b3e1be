/**
 * Billing, end to end, against the PayPal stand-in (e2e/support/paypal/paypal-fake.mjs, sandbox mode): the admin creates
 * plans at "PayPal" and as product versions; a customer subscribes through the plan dialog, is told so, and the
 * ACTIVE subscription (confirmed through the REST API) grants the plan; a subscribed plan keeps its price and
 * cannot be deleted, and the admin's toast says why; a recorded PayPal notification is posted with
 * `npm run paypal:ipn`; the admin finds the payment on /admin/billing, opens it, corrects the payer email (the
 * payment stays with its subscription's holder), exports the XLSX; the customer sees the payment with its period
 * and status; changing plans cancels the old subscription at PayPal; an admin acting as the customer cannot
 * subscribe or cancel; the customer cancels from the Account tab. A payment no subscription owns follows the
 * corrected payer email to its account. A subscription PayPal charges but the product never stored: its payment
 * from the customer's address shows in their Payment History, and the admin, alerted on the dashboard, links it.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import * as XLSX from "xlsx";
import type { AuthInfo, CustomerDashboard, PaymentHistoryItem, ProductVersion } from "#contract/responses";
import type { ProductVersionBody } from "#contract/schemas";
import { useBrowserAndMail } from "./support/session";
import { approveWithoutStoring, createPayPalPlan, payPalSubscriptionStatus } from "./support/paypal";
import { adminApiKey, api, baseURL, registerCustomer, signedInPage } from "./support/product";

const CUSTOMER = "subscriber@shop.test";
const TXN = "E2E-TXN-0001";
const PAYER = "payer@shop.test";

const session = useBrowserAndMail();
const work = mkdtempSync(join(tmpdir(), "dc-billing-"));

/** The recorded notification of docs/paypal, for this subscription and transaction, from `payerEmail`. */
function postRecordedNotification(subscriptionId: string, txnId = TXN, payerEmail = "subscriber@shop.tst") {
  const recorded = readFileSync("docs/paypal/recurring-payment.ipn", "utf8");
  const body = recorded
    .replace(/(^|&)recurring_payment_id=[^&]*/, `$1recurring_payment_id=${subscriptionId}`)
    .replace(/(^|&)txn_id=[^&]*/, `$1txn_id=${txnId}`)
    .replace(/(^|&)payer_email=[^&]*/, `$1payer_email=${encodeURIComponent(payerEmail)}`)
    .replace(/(^|&)payment_date=[^&]*/, `$1payment_date=${encodeURIComponent("10:00:00 Nov 20, 2026 PST")}`);
  const file = join(work, `${txnId}.ipn`);
  writeFileSync(file, body);
  execFileSync(process.execPath, ["e2e/support/paypal/paypal-ipn.mjs", file], {
    env: { ...process.env, DC_URL: baseURL },
  });
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

async function toast(page: Page, text: string) {
  await expect.poll(() => page.getByText(text).first().isVisible(), { timeout: 10_000 }).toBe(true);
}

/**
 * Clicks the plan's PayPal button in the plan dialog and waits for the stored subscription: the toast says so in
 * the server's words, and the plan's card becomes the current plan, paid for by the subscription.
 */
async function subscribe(customer: Page, planName: string) {
  await customer.getByRole("button", { name: "Upgrade / Change Plans" }).click();
  const dialog = customer.getByRole("dialog", { name: "Choose Your Plan" });
  const card = dialog.getByRole("group", { name: planName });
  await expect.poll(() => card.getByRole("button", { name: "PayPal Subscribe" }).isVisible()).toBe(true);
  const stored = customer.waitForResponse((r) => r.url().endsWith("/api/store-subscription"));
  await card.getByRole("button", { name: "PayPal Subscribe" }).click();
  const answer = await stored;
  expect(answer.status()).toBe(200);
  await toast(customer, "Subscription stored");
  await toast(customer, ((await answer.json()) as { message: string }).message);
  await expect.poll(() => card.getByText("Current plan").isVisible()).toBe(true);
  expect(await card.getByText("Your subscription pays for this plan.").isVisible()).toBe(true);
  expect(await card.getByRole("button", { name: "PayPal Subscribe" }).count()).toBe(0);
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect.poll(() => dialog.count()).toBe(0);
}

/** The Account tab's Subscription row, as the customer reads it. */
async function subscriptionRow(page: Page): Promise<string> {
  const row = page.locator("dl > div").filter({ has: page.locator("dt", { hasText: /^Subscription$/ }) });
  await expect.poll(() => row.count()).toBe(1);
  return row.innerText();
}

describe("billing", () => {
  it("takes a subscription and a payment from PayPal to the admin and back to the customer", async () => {
    const customerKey = await registerCustomer(session.mail, CUSTOMER);
    const { userId } = await api<AuthInfo>("/api/auth", { apiKey: customerKey });
    const adminKey = await adminApiKey();
    // Named unlike the admin console test's plans: the e2e files share one product.
    const premiumPlanId = await sellPlan(adminKey, "Premium", 29);

    // The customer subscribes in the plan dialog; PayPal confirms the subscription ACTIVE at Premium's price.
    const customer = await signedInPage(session.browser, customerKey, "user", { acceptDownloads: true });
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
    // The Account tab says where the subscription stands, without a reload.
    await expect.poll(() => subscriptionRow(customer)).toContain("Premium · Active");

    // Premium has a subscriber now: the admin can make a new version (its price read to the cent), but cannot
    // reprice or delete Premium, and the failure toast says why.
    const adminPage = await signedInPage(session.browser, adminKey, "admin", { acceptDownloads: true });
    await adminPage.goto(`${baseURL}/admin/product-versions`);
    await adminPage.getByRole("button", { name: "Neue Version" }).click();
    const create = adminPage.getByRole("dialog");
    await create.getByLabel("Name").fill("Premium 2027");
    await create.getByLabel("Events Limit").fill("100");
    await create.getByLabel("Price").fill("29.99");
    await create.getByRole("button", { name: "Erstellen" }).click();
    await toast(adminPage, "Product version created successfully");
    const newVersion = adminPage.getByRole("row").filter({ hasText: "Premium 2027" });
    await expect.poll(() => newVersion.count()).toBe(1);
    expect(await newVersion.innerText()).toContain("$29.99");
    const versions = await api<ProductVersion[]>("/api/admin/product-versions", { apiKey: adminKey });
    expect(versions.find((v) => v.name === "Premium 2027")?.price).toBe(29.99);

    await adminPage.getByRole("button", { name: "Edit Premium", exact: true }).click();
    await adminPage.getByRole("dialog").getByLabel("Price").fill("35");
    await adminPage.getByRole("dialog").getByRole("button", { name: "Speichern" }).click();
    await toast(adminPage, "1 customer holds a live subscription to Premium: its price and PayPal plan cannot change.");
    await adminPage.getByRole("dialog").getByRole("button", { name: "Abbrechen" }).click();
    await adminPage.getByRole("button", { name: "Delete Premium", exact: true }).click();
    await adminPage.getByRole("alertdialog").getByRole("button", { name: "Löschen" }).click();
    await toast(adminPage, "1 customer holds a live subscription to Premium: it cannot be deleted.");
    const premium = (await api<ProductVersion[]>("/api/admin/product-versions", { apiKey: adminKey })).find(
      (v) => v.name === "Premium",
    );
    expect(premium?.price).toBe(29);

    // PayPal's notification of the first payment arrives.
    postRecordedNotification("I-STANDIN-1");

    await adminPage.goto(`${baseURL}/admin/billing`);
    const row = adminPage.getByRole("row").filter({ hasText: TXN });
    await expect.poll(() => row.count(), { timeout: 20_000, interval: 500 }).toBe(1);
    expect(await row.innerText()).toContain("$29.00");
    // The payer email matches no account, but the payment is linked to the customer through the subscription the
    // plan dialog stored, so the row is not marked (its product name is the recorded notification's).
    expect(await row.getAttribute("class")).not.toMatch(/red/);
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
    await toast(adminPage, "Email updated successfully");
    // The payment belongs to whoever holds its subscription, whatever the payer email says.
    await toast(adminPage, `The transaction stays with ${CUSTOMER}, who holds its subscription.`);
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
    await expect.poll(() => subscriptionRow(customer)).toContain("Scale · Active");

    // An admin acting as the customer sees where the subscription stands, but can neither cancel nor subscribe.
    await adminPage.goto(`${baseURL}/admin/users`);
    await adminPage.getByPlaceholder("Suche nach Nutzern...").fill(CUSTOMER);
    await adminPage.getByRole("button", { name: `Als ${CUSTOMER} einloggen` }).click();
    await adminPage.waitForURL(`${baseURL}/user-dashboard`);
    await expect.poll(() => subscriptionRow(adminPage)).toContain("Scale · Active");
    expect(await adminPage.getByRole("button", { name: "Cancel subscription" }).count()).toBe(0);
    await adminPage.getByRole("button", { name: "Upgrade / Change Plans" }).click();
    const plans = adminPage.getByRole("dialog", { name: "Choose Your Plan" });
    await expect.poll(() => plans.getByRole("group").count()).toBeGreaterThan(1);
    expect(await plans.getByRole("button", { name: "PayPal Subscribe" }).count()).toBe(0);
    await plans.getByRole("button", { name: "Close" }).click();
    await adminPage.getByRole("button", { name: "Zurück zum Admin-Dashboard" }).click();
    await adminPage.waitForURL(`${baseURL}/admin`);

    // The customer cancels: PayPal stops charging, the plan stays for the paid period.
    await customer.getByRole("button", { name: "Cancel subscription" }).click();
    await customer
      .getByRole("alertdialog", { name: "Cancel your subscription?" })
      .getByRole("button", { name: "Cancel subscription" })
      .click();
    await toast(customer, "Subscription cancelled");
    expect(await payPalSubscriptionStatus("I-STANDIN-2")).toBe("CANCELLED");
    await expect.poll(() => subscriptionRow(customer)).toContain("Scale · Cancelled");
    expect(await plan()).toBe("Scale");
    expect(await customer.getByRole("button", { name: "Cancel subscription" }).count()).toBe(0);
  });

  it("links a payment no subscription owns to the account with the corrected payer email, or says none has it", async () => {
    const payerKey = await registerCustomer(session.mail, PAYER);
    postRecordedNotification("I-ELSEWHERE-1", "E2E-TXN-0002", "payer@shop.tst");
    const adminPage = await signedInPage(session.browser, await adminApiKey(), "admin", { acceptDownloads: true });
    await adminPage.goto(`${baseURL}/admin/billing/transaction/E2E-TXN-0002`);
    const correct = async (email: string) => {
      await adminPage.getByRole("button", { name: "Edit" }).click();
      await adminPage.getByRole("textbox").first().fill(email);
      await adminPage.getByRole("button", { name: "Save" }).click();
    };
    await expect
      .poll(() => adminPage.getByText("Transaction Details").first().isVisible(), { timeout: 20_000 })
      .toBe(true);

    await correct("nobody@shop.test");
    await toast(adminPage, "No user account has this email: the transaction is linked to none.");
    const history = () => api<PaymentHistoryItem[]>("/api/user/payment-history", { apiKey: payerKey });
    expect(await history()).toEqual([]);

    await correct(PAYER);
    await toast(adminPage, "The transaction has been linked to the new user account.");
    expect((await history()).map((p) => p.transactionId)).toEqual(["E2E-TXN-0002"]);
  });

  it("shows a payment of a subscription never stored in its payer's Payment History; the admin links it", async () => {
    const email = "own@shop.test";
    const customerKey = await registerCustomer(session.mail, email);
    const { userId } = await api<AuthInfo>("/api/auth", { apiKey: customerKey });
    const adminKey = await adminApiKey();
    const planId = await sellPlan(adminKey, "Rescue", 29);
    // The buyer approved at PayPal, but the product never stored the subscription; PayPal charges it.
    const subscriptionId = await approveWithoutStoring(planId, userId);
    postRecordedNotification(subscriptionId, "E2E-TXN-0003", "Own@Shop.test");

    const customer = await signedInPage(session.browser, customerKey, "user", { acceptDownloads: true });
    await customer.goto(`${baseURL}/user-dashboard`);
    await customer.getByRole("tab", { name: "Billing" }).click();
    const payment = customer.getByRole("row").filter({ hasText: "Growth" });
    await expect.poll(() => payment.count(), { timeout: 10_000 }).toBe(1);
    expect(await payment.innerText()).toContain("20.11.2026");
    expect(await payment.innerText()).toContain("Completed");
    const plan = async () =>
      (await api<CustomerDashboard>("/api/user/dashboard", { apiKey: customerKey })).productVersion?.name;
    expect(await plan()).not.toBe("Rescue");

    // The admin is told on the dashboard, and links the subscription on the billing screen with one click.
    const adminPage = await signedInPage(session.browser, adminKey, "admin", { acceptDownloads: true });
    await adminPage.goto(`${baseURL}/admin`);
    const alert = adminPage.getByRole("alert", { name: "Paid subscriptions without an account" });
    await expect.poll(() => alert.isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await alert.innerText()).toMatch(/PayPal charges \d+ subscriptions? that belongs? to no account/);
    await alert.getByRole("link", { name: "Link or cancel them on the Billing Dashboard" }).click();
    await adminPage.waitForURL(`${baseURL}/admin/billing`);
    const unclaimed = adminPage.getByRole("region", { name: "Paid subscriptions without an account" });
    const row = unclaimed.getByRole("row").filter({ hasText: subscriptionId });
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
    // Linked by the payer's email, the payment is not marked red in the transaction history.
    const listed = adminPage.getByRole("row").filter({ hasText: "E2E-TXN-0003" });
    await expect.poll(() => listed.count()).toBe(1);
    expect(await listed.getAttribute("class")).not.toMatch(/red/);

    await row.getByRole("button", { name: `Link to ${email}` }).click();
    await toast(adminPage, "Subscription linked");
    await toast(adminPage, `Linked to ${email}. Subscribed to Rescue`);
    await expect.poll(() => row.count()).toBe(0);
    expect(await plan()).toBe("Rescue");
    const [paid] = await api<PaymentHistoryItem[]>("/api/user/payment-history", { apiKey: customerKey });
    expect(paid?.transactionId).toBe("E2E-TXN-0003");
  });
});
