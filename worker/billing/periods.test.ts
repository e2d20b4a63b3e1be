import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { billingPeriodResets, loginOtpCodes, usageCounters, users, verificationTokens } from "../db/schema";
import { readDocument, writeDocument } from "../delivery/document";
import worker from "../index";
import { createVerifiedCustomer, db } from "../test/helpers";
import { nextPeriod } from "./periods";

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
    await writeDocument(env, user.id);
    expect((await readDocument(env, user.id)).limited).toBe(true);

    const now = new Date("2026-11-06T03:00:00Z");
    await runCron(now);
    const after = (await db().select().from(users).where(eq(users.id, user.id)))[0]!;
    expect(after.billingPeriodStart).toEqual(end);
    expect(after.billingPeriodEnd).toEqual(new Date("2026-12-05T12:00:00Z"));
    expect(await db().select().from(billingPeriodResets)).toMatchObject([{ userId: user.id, resetDate: end }]);
    expect(await db().select().from(usageCounters)).toMatchObject([
      { totalRequests: 9, periodRequests: 0, periodDeliveries: 0 },
    ]);
    expect((await readDocument(env, user.id)).limited).toBe(false);

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
