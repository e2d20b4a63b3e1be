import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { CustomerDashboard, PaymentHistoryItem, ProductVersion } from "#contract/responses";
import { paypalTransactions, productVersions } from "../db/schema";
import { call, createVerifiedCustomer, db } from "../test/helpers";

describe("GET /api/user/dashboard", () => {
  it("answers the account, plan, billing period, usage and the snippet pointing at this origin", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    await call("/api/mappings", { method: "POST", apiKey, json: { url: "https://shop.test/a", htmlContent: "A" } });
    const res = await call("/api/user/dashboard", { apiKey });
    const body = (await res.json()) as CustomerDashboard;
    expect(body).toMatchObject({
      userId: user.id,
      email: "c@example.com",
      apiKey,
      productVersion: { name: "Free", websitesLimit: 1, eventsLimit: 10, dynamicContentLimit: 1000 },
      billingPeriodStart: user.billingPeriodStart!.toISOString(),
      billingPeriodEnd: user.billingPeriodEnd!.toISOString(),
      usage: { activeWebsites: 1, dynamicEvents: 1, contentGenerations: 0 },
    });
    expect(body.jsSnippet).toContain(`setDynamicContentUserId("${user.id}")`);
    expect(body.jsSnippet).toContain('<script async src="http://dc.test/snippet.js"></script>');
  });

  it("writes PUBLIC_ORIGIN into the snippet when it is configured", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const { testEnv } = await import("../test/helpers");
    const res = await call("/api/user/dashboard", { apiKey }, testEnv({ PUBLIC_ORIGIN: "https://edge.example.com/" }));
    expect(((await res.json()) as CustomerDashboard).jsSnippet).toContain('src="https://edge.example.com/snippet.js"');
  });

  it("needs a key", async () => {
    expect((await call("/api/user/dashboard")).status).toBe(401);
  });
});

describe("GET /api/user/payment-history", () => {
  it("is empty without payments and lists the user's own payments, newest first, with status and real period", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const other = await createVerifiedCustomer("o@example.com");
    expect(await (await call("/api/user/payment-history", { apiKey })).json()).toEqual([]);
    await db()
      .insert(paypalTransactions)
      .values([
        {
          transactionId: "T1",
          userId: user.id,
          productName: "Growth",
          amount: "29.00",
          currency: "EUR",
          paymentStatus: "Completed",
          receivedAt: new Date("2026-10-01T00:00:00Z"),
          periodStart: new Date("2026-10-01T00:00:00Z"),
          periodEnd: new Date("2026-10-31T08:00:00Z"),
        },
        {
          transactionId: "T2",
          userId: user.id,
          productName: "Growth",
          amount: "29.00",
          currency: "EUR",
          paymentStatus: "Pending",
          receivedAt: new Date("2026-11-01T00:00:00Z"),
        },
        {
          transactionId: "T3",
          userId: other.user.id,
          productName: "Pro",
          amount: "99.00",
          currency: "USD",
          receivedAt: new Date(),
        },
      ]);
    const items = (await (await call("/api/user/payment-history", { apiKey })).json()) as PaymentHistoryItem[];
    expect(items).toEqual([
      {
        date: "2026-11-01T00:00:00.000Z",
        product: "Growth",
        amount: 29,
        currency: "EUR",
        billingPeriod: { start: null, end: null },
        status: "Pending",
        transactionId: "T2",
      },
      {
        date: "2026-10-01T00:00:00.000Z",
        product: "Growth",
        amount: 29,
        currency: "EUR",
        billingPeriod: { start: "2026-10-01T00:00:00.000Z", end: "2026-10-31T08:00:00.000Z" },
        status: "Completed",
        transactionId: "T1",
      },
    ]);
  });
});

describe("GET /api/product-versions", () => {
  it("lists the plans with prices in currency units", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    await db()
      .insert(productVersions)
      .values({ name: "Growth", priceCents: 2900, websitesLimit: 5, paypalPlanId: "P-1" });
    const plans = (await (await call("/api/product-versions", { apiKey })).json()) as ProductVersion[];
    expect(plans.map((p) => [p.name, p.price, p.isDefault])).toEqual([
      ["Free", 0, true],
      ["Growth", 29, false],
    ]);
    const free = (await db().select().from(productVersions).where(eq(productVersions.name, "Free")))[0]!;
    expect(plans[0]!.id).toBe(free.id);
  });
});
