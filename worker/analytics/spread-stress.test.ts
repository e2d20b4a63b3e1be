import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import type { Env } from "../env";
import { createCustomerOnPlan, createVerifiedCustomer, deliverAnalytics, pageViewEvent as view } from "../test/helpers";
import { foldPendingAnalytics } from "./fold";
import type { AnalyticsReducer } from "./reducer";
import { reducerOf, reducerShards, settleCounters } from "./reducer-shards";

/** 32 reducers: customers without a limit spread over 4 of them. */
const E: Env = { ...env, ANALYTICS_REDUCER_SHARDS: "32" };

/** A seeded generator (a linear congruential one): the same runs every time. */
function seeded(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/**
 * `e` with reducers that fail one part in `failing`, half before taking it and half after (the caller sees an error
 * for a part the reducer has).
 */
function flakyReducers(e: Env, random: () => number, failing: number): Env {
  const reducers = {
    getByName: (name: string) => {
      const real = e.ANALYTICS_REDUCER.getByName(name);
      return {
        hold: async (...args: Parameters<typeof real.hold>) => {
          const draw = random();
          if (draw < failing / 2) throw new Error("reducer reset");
          await real.hold(...args);
          if (draw < failing) throw new Error("reducer reset after taking the part");
        },
        settle: (...args: Parameters<typeof real.settle>) => real.settle(...args),
        peek: (...args: Parameters<typeof real.peek>) => real.peek(...args),
      };
    },
  } as unknown as Env["ANALYTICS_REDUCER"];
  return { ...e, ANALYTICS_REDUCER: reducers };
}

/** Every reducer as after a restart: what it holds is read back from its log and D1's checkpoints. */
async function restartReducers() {
  for (let shard = 0; shard < reducerShards(E); shard++) {
    await runInDurableObject(reducerOf(E, shard), (reducer: AnalyticsReducer) => {
      Object.assign(reducer, { held: null, visitors: null });
    });
  }
}

const countedOf = async (userId: string) =>
  Number(
    await env.DB.prepare("select coalesce(sum(total_requests), 0) as n from usage_counters where user_id = ?")
      .bind(userId)
      .first("n"),
  );

describe("spread customers' views through failing reducers", () => {
  it.each([7, 11, 23])(
    "counts every customer's views once, spread or metered, whatever parts fail and reducers restart (seed %i)",
    async (seed) => {
      vi.spyOn(console, "warn").mockImplementation(() => undefined);
      vi.spyOn(console, "error").mockImplementation(() => undefined);
      const random = seeded(seed);
      const customers: string[] = [];
      for (let i = 0; i < 6; i++) customers.push((await createCustomerOnPlan({ dynamicContentLimit: null })).user.id);
      for (let i = 0; i < 6; i++) customers.push((await createVerifiedCustomer(`m${i}@example.com`)).user.id);
      const sent = new Map<string, number>();
      for (let minute = 0; minute < 25; minute++) {
        const views = Array.from({ length: 40 }, () =>
          view(customers[Math.floor(random() * customers.length)]!, `https://shop.test/p${Math.floor(random() * 60)}`),
        );
        for (const v of views) sent.set(v.userId, (sent.get(v.userId) ?? 0) + 1);
        await deliverAnalytics(views);
        await foldPendingAnalytics(flakyReducers(E, random, 0.15));
        if (minute % 4 === 3) await restartReducers();
        if (minute % 3 === 2) await settleCounters(E, "all");
      }
      for (let i = 0; i < 3; i++) await foldPendingAnalytics(E);
      await settleCounters(E, "all");
      await foldPendingAnalytics(E);
      const counted = new Map<string, number>();
      for (const userId of sent.keys()) counted.set(userId, await countedOf(userId));
      expect(counted).toEqual(sent);
    },
    60_000,
  );
});
