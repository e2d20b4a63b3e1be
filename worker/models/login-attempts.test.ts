import { describe, expect, it } from "vitest";
import { loginAttempts } from "../db/schema";
import { runDaily } from "../scheduled";
import { db, testEnv } from "../test/helpers";
import { LOGIN_ATTEMPT_TTL_MS, purgeLoginAttempts } from "./login-attempts";

const DAY = 24 * 60 * 60 * 1000;

describe("login attempts", () => {
  it("are kept 90 days, then the daily cron deletes them", async () => {
    const now = Date.now();
    await db()
      .insert(loginAttempts)
      .values(
        [100, 91, 89, 1].map((days) => ({
          success: false,
          ipAddress: "203.0.113.7",
          createdAt: new Date(now - days * DAY),
        })),
      );
    await runDaily(testEnv(), new Date(now));
    const left = await db().select().from(loginAttempts);
    expect(left.map((a) => Math.round((now - a.createdAt.getTime()) / DAY))).toEqual([89, 1]);
  });

  it("are purged in steps of the oldest rows, however many there are", async () => {
    const old = new Date(Date.now() - LOGIN_ATTEMPT_TTL_MS - DAY);
    for (let i = 0; i < 2_500; i += 20) {
      await db()
        .insert(loginAttempts)
        .values(Array.from({ length: 20 }, () => ({ success: true, createdAt: old })));
    }
    await db().insert(loginAttempts).values({ success: true, createdAt: new Date() });
    expect(await purgeLoginAttempts(db(), new Date(Date.now() - LOGIN_ATTEMPT_TTL_MS))).toBe(2_500);
    expect(await db().select().from(loginAttempts)).toHaveLength(1);
  });
});
