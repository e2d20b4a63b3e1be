import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { paypalTransactions, productVersions, subscriptions, users } from "../db/schema";
import { createMapping } from "../models/mappings";
import { call, captureMails, createAdmin, createVerifiedCustomer, db, visit } from "../test/helpers";

let mails: ReturnType<typeof captureMails>;
beforeEach(() => {
  mails = captureMails();
});
afterEach(() => mails.restore());

const a = (n: number) => "a".repeat(n);
/** A valid address of exactly `n` characters. */
const emailOf = (n: number) => `${a(n - "@example.com".length)}@example.com`;

async function expectRefused(res: Response, error: string) {
  expect(res.status).toBe(400);
  expect(await res.json()).toEqual({ error });
}

describe("every string a person sends has a cap, and the message names it", () => {
  it("emails: 254 characters at most (register, login, admin login), nothing created", async () => {
    const email = emailOf(255);
    await expectRefused(
      await call("/api/register", { method: "POST", json: { email } }),
      "Email must be at most 254 characters",
    );
    await expectRefused(
      await call("/api/login/request-otp", { method: "POST", json: { email } }),
      "Email must be at most 254 characters",
    );
    await expectRefused(
      await call("/api/admin/login", { method: "POST", json: { email, password: "x" } }),
      "Email must be at most 254 characters",
    );
    expect(await db().$count(users)).toBe(0);
    expect((await call("/api/register", { method: "POST", json: { email: emailOf(254) } })).status).toBe(200);
    expect(await db().$count(users)).toBe(1);
  });

  it("admin password: 1,024 characters at most", async () => {
    await expectRefused(
      await call("/api/admin/login", { method: "POST", json: { email: "admin@example.com", password: a(1_025) } }),
      "Password must be at most 1,024 characters",
    );
  });

  it("SMTP fields: host 253, username 254, password 1,024, from 254; nothing stored", async () => {
    const { apiKey } = await createAdmin();
    const valid = { host: "smtp.example.com", port: "587", user: "mailer", password: "pw", from: "no@example.com" };
    for (const [change, error] of [
      [{ host: a(254) }, "SMTP host must be at most 253 characters"],
      [{ user: a(255) }, "SMTP username must be at most 254 characters"],
      [{ password: a(1_025) }, "SMTP password must be at most 1,024 characters"],
      [{ from: emailOf(255) }, "From address must be at most 254 characters"],
    ] as const) {
      await expectRefused(
        await call("/api/smtp-config", { method: "POST", apiKey, json: { ...valid, ...change } }),
        error,
      );
    }
    expect(await env.DB.prepare("select count(*) as n from smtp_config").first("n")).toBe(0);
  });

  it("product versions: name 100, description 1,000, PayPal plan id 100; nothing created", async () => {
    const { apiKey } = await createAdmin();
    const plan = { name: "Growth", eventsLimit: null, websitesLimit: null, dynamicContentLimit: null };
    for (const [change, error] of [
      [{ name: a(101) }, "Name must be at most 100 characters"],
      [{ description: a(1_001) }, "Description must be at most 1,000 characters"],
      [{ paypalPlanId: a(101) }, "PayPal plan id must be at most 100 characters"],
    ] as const) {
      await expectRefused(
        await call("/api/admin/product-versions", { method: "POST", apiKey, json: { ...plan, ...change } }),
        error,
      );
    }
    expect(await db().$count(productVersions)).toBe(1);
    const atCaps = { ...plan, name: a(100), description: a(1_000), paypalPlanId: a(100) };
    expect((await call("/api/admin/product-versions", { method: "POST", apiKey, json: atCaps })).status).toBe(201);
  });

  it("a customer's subscription id: 100 characters at most, nothing stored", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    await expectRefused(
      await call("/api/store-subscription", { method: "POST", apiKey, json: { subscriptionId: a(101) } }),
      "Subscription id must be at most 100 characters",
    );
    expect(await db().$count(subscriptions)).toBe(0);
  });

  it("the analytics search term: 200 characters at most, and one of 200 works", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const long = `https://shop.test/${a(200)}`;
    // A page of the customer's website (they have a mapping there), so that the view counts.
    await createMapping(db(), user.id, "https://shop.test/", "<p>home</p>");
    await visit(user.id, long);
    await expectRefused(
      await call(`/api/analytics?searchTerm=${a(201)}`, { apiKey }),
      "Search term must be at most 200 characters",
    );
    const found = await call(`/api/analytics?searchTerm=${a(200)}`, { apiKey });
    expect(((await found.json()) as { url: string }[]).map((r) => r.url)).toEqual([`shop.test/${a(200)}`]);
  });

  it("the transaction filters: status 100, email 254, dates 64; a filter at its cap works", async () => {
    const { apiKey } = await createAdmin();
    await db()
      .insert(paypalTransactions)
      .values({ transactionId: "T1", payerEmail: emailOf(254), paymentStatus: a(100) });
    const list = (query: string) => call(`/api/admin/billing/transactions?${query}`, { apiKey });
    await expectRefused(await list(`status=${a(101)}`), "Payment status must be at most 100 characters");
    await expectRefused(await list(`email=${emailOf(255)}`), "Email must be at most 254 characters");
    await expectRefused(await list(`startDate=${"2026-01-01".padEnd(65, "0")}`), "Date must be at most 64 characters");
    const found = await list(`status=${a(100)}&email=${encodeURIComponent(emailOf(254))}`);
    expect(((await found.json()) as { transactionId: string }[]).map((t) => t.transactionId)).toEqual(["T1"]);
  });

  it("the payer email of a transaction: 254 characters at most, nothing changed", async () => {
    const { apiKey } = await createAdmin();
    await db().insert(paypalTransactions).values({ transactionId: "T1", payerEmail: "old@example.com" });
    await expectRefused(
      await call("/api/admin/billing/transaction/T1/update-email", {
        method: "PATCH",
        apiKey,
        json: { email: emailOf(255) },
      }),
      "Payer email must be at most 254 characters",
    );
    expect((await db().select().from(paypalTransactions))[0]!.payerEmail).toBe("old@example.com");
  });
});
