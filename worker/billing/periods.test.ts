import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { addMonths } from "date-fns";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { AdminUser, CustomerDashboard } from "#contract/responses";
import {
  billingPeriodResets,
  loginOtpCodes,
  productVersions,
  subscriptions,
  urlMappings,
  usageCounters,
  users,
  verificationTokens,
} from "../db/schema";
import { isServing } from "../delivery/store";
import { syncCustomerState } from "../delivery/sync";
import { storedState } from "../test/delivery-store";
import worker from "../index";
import { call, countViews, createAdmin, createVerifiedCustomer, db, testEnv } from "../test/helpers";
import { nextPeriod } from "../lib/periods";
import { settleBilling } from "./periods";

const DAY = 86_400_000;

async function runCron(now: Date) {
  const { runDaily } = await import("../scheduled");
  await runDaily(env, now);
}

describe("nextPeriod", () => {
  it("follows on from the old end, clamping to the month's last day and skipping months that passed", () => {
    const end = new Date("2026-01-31T10:00:00Z");
    expect(nextPeriod(end, new Date("2026-02-01T00:00:00Z"))).toEqual({
      start: end,
      end: new Date("2026-02-28T10:00:00Z"),
    });
    const far = nextPeriod(new Date("2026-01-15T00:00:00Z"), new Date("2026-04-20T00:00:00Z"));
    expect(far).toEqual({ start: new Date("2026-04-15T00:00:00Z"), end: new Date("2026-05-15T00:00:00Z") });
  });
});

describe("daily cron: billing periods", () => {
  it("moves an ended period on, records the reset, starts fresh counters, and is idempotent", async () => {
    const { user } = await createVerifiedCustomer("c@example.com");
    const start = new Date("2026-10-05T12:00:00Z");
    const end = new Date("2026-11-05T12:00:00Z");
    await db()
      .update(users)
      .set({ billingPeriodStart: start, billingPeriodEnd: end, requestLimit: 5 })
      .where(eq(users.id, user.id));
    await db()
      .insert(usageCounters)
      .values({ userId: user.id, totalRequests: 9, periodRequests: 5, periodDeliveries: 4 });
    await syncCustomerState(env, user.id);
    expect((await storedState(user.id))!.limited).toBe(true);

    const now = new Date("2026-11-06T03:00:00Z");
    await runCron(now);
    const after = (await db().select().from(users).where(eq(users.id, user.id)))[0]!;
    expect(after.billingPeriodStart).toEqual(end);
    expect(after.billingPeriodEnd).toEqual(new Date("2026-12-05T12:00:00Z"));
    expect(await db().select().from(billingPeriodResets)).toMatchObject([{ userId: user.id, resetDate: end }]);
    expect(await db().select().from(usageCounters)).toMatchObject([
      { totalRequests: 9, periodRequests: 0, periodDeliveries: 0 },
    ]);
    expect((await storedState(user.id))!.limited).toBe(false);

    await runCron(new Date(now.getTime() + 60_000));
    expect(await db().select().from(billingPeriodResets)).toHaveLength(1);
    const again = (await db().select().from(users).where(eq(users.id, user.id)))[0]!;
    expect(again.billingPeriodEnd).toEqual(after.billingPeriodEnd);
  });

  it("leaves running periods alone", async () => {
    const { user } = await createVerifiedCustomer("c@example.com");
    const before = (await db().select().from(users).where(eq(users.id, user.id)))[0]!;
    await runCron(new Date());
    const after = (await db().select().from(users).where(eq(users.id, user.id)))[0]!;
    expect(after.billingPeriodEnd).toEqual(before.billingPeriodEnd);
    expect(await db().select().from(billingPeriodResets)).toHaveLength(0);
  });

  it("purges expired codes and verification tokens through the scheduled handler", async () => {
    const { user } = await createVerifiedCustomer("c@example.com");
    const past = new Date(Date.now() - DAY);
    const future = new Date(Date.now() + DAY);
    await db()
      .insert(loginOtpCodes)
      .values([
        { userId: user.id, code: "x", expiresAt: past },
        { userId: user.id, code: "y", expiresAt: future },
      ]);
    await db()
      .insert(verificationTokens)
      .values([
        { userId: user.id, token: "a", expiresAt: past },
        { userId: user.id, token: "b", expiresAt: future },
      ]);
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "0 3 * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect((await db().select().from(loginOtpCodes)).map((r) => r.code)).toEqual(["y"]);
    expect((await db().select().from(verificationTokens)).map((r) => r.token)).toEqual(["b"]);
  });
});

describe("billing periods end on time: at the next request that needs them", () => {
  const HOUR = 3_600_000;
  /** A customer whose period ended an hour ago, with that period's usage still on the counters. */
  async function endedPeriod(email = "c@example.com") {
    const customer = await createVerifiedCustomer(email);
    const end = new Date(Date.now() - HOUR);
    const start = addMonths(end, -1);
    await db()
      .update(users)
      .set({ billingPeriodStart: start, billingPeriodEnd: end })
      .where(eq(users.id, customer.user.id));
    await db()
      .insert(usageCounters)
      .values({ userId: customer.user.id, totalRequests: 9, periodRequests: 5, periodDeliveries: 4 });
    const user = (await db().select().from(users).where(eq(users.id, customer.user.id)))[0]!;
    return { ...customer, user, start, end };
  }

  it("shows the customer's dashboard in the new period, without waiting for the cron", async () => {
    const { apiKey, end } = await endedPeriod();
    const dashboard = (await (await call("/api/user/dashboard", { apiKey })).json()) as CustomerDashboard;
    expect(dashboard.billingPeriodStart).toBe(end.toISOString());
    expect(dashboard.billingPeriodEnd).toBe(addMonths(end, 1).toISOString());
    expect(dashboard.usage.contentGenerations).toBe(0);
    expect(await db().select().from(billingPeriodResets)).toMatchObject([{ resetDate: end }]);
  });

  it("takes a mapping again once the period whose events limit was used up has ended", async () => {
    const { user, apiKey, end } = await endedPeriod();
    // The default plan allows 10 content updates a period: all used in the period that has ended.
    await db()
      .insert(urlMappings)
      .values(
        Array.from({ length: 10 }, (_, i) => ({
          userId: user.id,
          url: `https://shop.test/${i}`,
          normalizedUrl: `shop.test/${i}`,
          htmlContent: "<p>x</p>",
          createdAt: new Date(end.getTime() - 2 * HOUR),
        })),
      );
    const res = await call("/api/mappings", {
      method: "POST",
      apiKey,
      json: { url: "https://shop.test/new", htmlContent: "<p>new</p>" },
    });
    expect(res.status).toBe(201);
  });

  it("shows the admin the customer's new period: in the list without a write, in the detail settled", async () => {
    const { user, end } = await endedPeriod();
    const admin = await createAdmin();
    const list = (await (await call("/api/admin/users", { apiKey: admin.apiKey })).json()) as AdminUser[];
    const newPeriod = {
      billingPeriodStart: end.toISOString(),
      billingPeriodEnd: addMonths(end, 1).toISOString(),
      dynamicContentDeliveryUsed: 0,
      periodRequests: 0,
      eventsUsed: 0,
    };
    expect(list.find((u) => u.userId === user.id)).toMatchObject(newPeriod);
    expect(await db().select().from(billingPeriodResets)).toHaveLength(0);
    const detail = (await (await call(`/api/admin/users/${user.id}`, { apiKey: admin.apiKey })).json()) as AdminUser;
    expect(detail).toMatchObject(newPeriod);
    expect(await db().select().from(billingPeriodResets)).toMatchObject([{ resetDate: end }]);
  });

  it("resets a period once when two requests roll it over at the same time", async () => {
    const { user, end } = await endedPeriod();
    const now = new Date();
    await settleBilling(env, user, now);
    await db().update(usageCounters).set({ periodDeliveries: 3 }).where(eq(usageCounters.userId, user.id));
    // The second request read the customer before the first one wrote.
    await settleBilling(env, user, now);
    expect(await db().select().from(usageCounters)).toMatchObject([{ periodDeliveries: 3 }]);
    expect(await db().select().from(billingPeriodResets)).toMatchObject([{ resetDate: end }]);
  });

  it("serves a limited customer again as soon as the period ends, without a write, and counts into the new period", async () => {
    const { user, apiKey, end } = await endedPeriod();
    await call("/api/mappings", {
      method: "POST",
      apiKey,
      json: { url: "https://shop.test/a", htmlContent: "<p>a</p>" },
    });
    // The document as it was written while the period ran: 5 of 5 requests used, limited until the period's end.
    await db()
      .update(users)
      .set({ requestLimit: 5, billingPeriodStart: addMonths(end, -1), billingPeriodEnd: new Date(Date.now() + HOUR) })
      .where(eq(users.id, user.id));
    await db().update(usageCounters).set({ periodRequests: 5 }).where(eq(usageCounters.userId, user.id));
    const whileRunning = (await syncCustomerState(env, user.id))!;
    expect(whileRunning.limited).toBe(true);
    expect(isServing(whileRunning, Date.now())).toBe(false);
    expect(isServing(whileRunning, Date.now() + 2 * HOUR)).toBe(true);

    await db().update(users).set({ billingPeriodEnd: end }).where(eq(users.id, user.id));
    const stored = await syncCustomerState(env, user.id);
    expect(stored).toMatchObject({ limited: true, limitedUntil: end.getTime() });
    const e = testEnv();
    const res = await call(`/api/content?u=${user.id}&url=${encodeURIComponent("https://shop.test/a")}`, {}, e);
    expect(res.status).toBe(200);
    expect(await storedState(user.id)).toEqual(stored);

    // The analytics fold moves the period on before it counts the request.
    await countViews(e.analyticsMessages);
    expect(await db().select().from(usageCounters)).toMatchObject([
      { totalRequests: 10, periodRequests: 1, periodDeliveries: 1 },
    ]);
    expect((await storedState(user.id))!.limited).toBe(false);
    expect((await db().select().from(users).where(eq(users.id, user.id)))[0]!.billingPeriodStart).toEqual(end);
  });
});

describe("paid plans end when their coverage ends", () => {
  async function onPaidGrowth(paidThrough: Date, status: "active" | "cancelled" = "active") {
    const customer = await createVerifiedCustomer("c@example.com");
    const [growth] = await db()
      .insert(productVersions)
      .values({ name: "Growth", paypalPlanId: "P-GROWTH", priceCents: 2900 })
      .returning();
    await db()
      .insert(subscriptions)
      .values({ userId: customer.user.id, subscriptionId: "I-1", productVersionId: growth!.id, status, paidThrough });
    await db()
      .update(users)
      .set({ productVersionId: growth!.id, planSource: "paypal", planPaidThrough: paidThrough })
      .where(eq(users.id, customer.user.id));
    return { ...customer, growth: growth! };
  }
  const free = async () => (await db().select().from(productVersions).where(eq(productVersions.isDefault, true)))[0]!;
  const userRow = async (id: string) => (await db().select().from(users).where(eq(users.id, id)))[0]!;

  it("falls back to the default plan at the customer's next request once the coverage and its grace are over", async () => {
    const { user, apiKey } = await onPaidGrowth(new Date(Date.now() - 4 * DAY));
    const dashboard = (await (await call("/api/user/dashboard", { apiKey })).json()) as CustomerDashboard;
    expect(dashboard.productVersion?.id).toBe((await free()).id);
    expect(await userRow(user.id)).toMatchObject({ planSource: "default", planPaidThrough: null });
  });

  it("keeps the plan during the grace days after the paid period", async () => {
    const { user, apiKey, growth } = await onPaidGrowth(new Date(Date.now() - 2 * DAY));
    await call("/api/user/dashboard", { apiKey });
    expect((await userRow(user.id)).productVersionId).toBe(growth.id);
  });

  it("does not trust a local 'active' flag: the daily job ends a plan no payment covers", async () => {
    const paidThrough = new Date("2026-03-01T00:00:00Z");
    const { user } = await onPaidGrowth(paidThrough);
    await runCron(new Date(paidThrough.getTime() + 2 * DAY));
    expect((await userRow(user.id)).planSource).toBe("paypal");
    await runCron(new Date(paidThrough.getTime() + 3 * DAY + 1));
    expect(await userRow(user.id)).toMatchObject({ planSource: "default", productVersionId: (await free()).id });
  });

  it("never takes away a plan an admin gave by hand", async () => {
    const { user, growth } = await onPaidGrowth(new Date("2026-03-01T00:00:00Z"), "cancelled");
    const admin = await createAdmin();
    const res = await call(`/api/admin/users/${user.id}/product-version`, {
      method: "POST",
      apiKey: admin.apiKey,
      json: { versionId: growth.id },
    });
    expect(res.status).toBe(200);
    expect(await userRow(user.id)).toMatchObject({ planSource: "admin", planPaidThrough: null });
    await runCron(new Date("2027-06-01T00:00:00Z"));
    expect(await userRow(user.id)).toMatchObject({ planSource: "admin", productVersionId: growth.id });
  });
});
