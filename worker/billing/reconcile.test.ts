import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { paypalTransactions, productVersions, subscriptions, users } from "../db/schema";
import { runDaily } from "../scheduled";
import { createVerifiedCustomer, db, testEnv } from "../test/helpers";
import { activeSubscription, monthlyPlan, paypalEnv, RECEIVER, usePayPalFake } from "../test/paypal";

const paypal = usePayPalFake();
const DAY = 86_400_000;

/** A customer on Growth through subscription I-1, its payments covering until `paidThrough`. */
async function onGrowth(paidThrough: Date | null, status: "pending" | "active" = "active") {
  const { user } = await createVerifiedCustomer("c@example.com");
  const [growth] = await db()
    .insert(productVersions)
    .values({ name: "Growth", paypalPlanId: "P-GROWTH", priceCents: 2900 })
    .returning();
  paypal.plans["P-GROWTH"] = monthlyPlan("29.00");
  await db().insert(subscriptions).values({
    userId: user.id,
    subscriptionId: "I-1",
    planId: "P-GROWTH",
    productVersionId: growth!.id,
    status,
    paidThrough,
  });
  if (paidThrough) {
    await db()
      .update(users)
      .set({ productVersionId: growth!.id, planSource: "paypal", planPaidThrough: paidThrough })
      .where(eq(users.id, user.id));
  }
  return { user, growth: growth! };
}

const userRow = async (id: string) => (await db().select().from(users).where(eq(users.id, id)))[0]!;
const subscriptionRow = async () => (await db().select().from(subscriptions))[0]!;

describe("daily job: asking PayPal instead of trusting our status column", () => {
  it("stores PayPal's status, and a cancelled subscription keeps its plan only while its payments cover it", async () => {
    const paidThrough = new Date(Date.now() + 10 * DAY);
    const { user, growth } = await onGrowth(paidThrough);
    paypal.subscriptions["I-1"] = { ...activeSubscription(user.id, "P-GROWTH"), status: "CANCELLED" };
    await runDaily(paypalEnv(), new Date());
    expect(await subscriptionRow()).toMatchObject({ status: "cancelled" });
    expect((await userRow(user.id)).productVersionId).toBe(growth.id);
    await runDaily(paypalEnv(), new Date(paidThrough.getTime() + 4 * DAY));
    expect((await userRow(user.id)).planSource).toBe("default");
  });

  it("ends the plan at once when PayPal does not know the subscription for this customer", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const { user } = await onGrowth(new Date(Date.now() + 10 * DAY));
    paypal.subscriptions["I-1"] = activeSubscription("someone-else", "P-GROWTH");
    await runDaily(paypalEnv(), new Date());
    expect(await subscriptionRow()).toMatchObject({ status: "cancelled", paidThrough: null });
    expect(await userRow(user.id)).toMatchObject({ planSource: "default" });
  });

  it("counts a payment PayPal made whose notification never came, when it is the plan's price", async () => {
    const { user } = await onGrowth(new Date(Date.now() + 3_600_000));
    const remote = activeSubscription(user.id, "P-GROWTH");
    paypal.subscriptions["I-1"] = remote;
    await runDaily(paypalEnv(), new Date());
    const next = new Date(remote.billing_info!.next_billing_time!);
    expect((await subscriptionRow()).paidThrough).toEqual(next);
    expect((await userRow(user.id)).planPaidThrough).toEqual(next);
  });

  it("does not count PayPal's last payment again when it is one we know, e.g. one refunded", async () => {
    const { user, growth } = await onGrowth(null);
    const remote = activeSubscription(user.id, "P-GROWTH");
    paypal.subscriptions["I-1"] = remote;
    const paidAt = new Date(remote.billing_info!.last_payment!.time);
    await db()
      .insert(paypalTransactions)
      .values([
        {
          transactionId: "T1",
          recurringPaymentId: "I-1",
          amount: "29.00",
          currency: "USD",
          paymentStatus: "Completed",
          receivedAt: paidAt,
          receiverEmail: RECEIVER,
        },
        {
          transactionId: "R1",
          recurringPaymentId: "I-1",
          parentTransactionId: "T1",
          amount: "-29.00",
          currency: "USD",
          paymentStatus: "Refunded",
          receivedAt: paidAt,
        },
      ]);
    await runDaily(paypalEnv(), new Date());
    expect((await subscriptionRow()).paidThrough).toBeNull();
    expect((await userRow(user.id)).productVersionId).not.toBe(growth.id);
  });

  it("activates a pending subscription PayPal now reports ACTIVE at the plan's price", async () => {
    const { user, growth } = await onGrowth(null, "pending");
    paypal.subscriptions["I-1"] = activeSubscription(user.id, "P-GROWTH");
    await runDaily(paypalEnv(), new Date());
    expect(await subscriptionRow()).toMatchObject({ status: "active" });
    expect(await userRow(user.id)).toMatchObject({ productVersionId: growth.id, planSource: "paypal" });
  });

  it("asks PayPal nothing without REST credentials", async () => {
    const { user } = await onGrowth(new Date(Date.now() + 10 * DAY));
    paypal.subscriptions["I-1"] = { ...activeSubscription(user.id, "P-GROWTH"), status: "CANCELLED" };
    await runDaily(testEnv(), new Date());
    expect(paypal.tokenRequests).toHaveLength(0);
    expect((await subscriptionRow()).status).toBe("active");
    expect((await subscriptionRow()).checkedAt).toBeNull();
  });
});
