import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Env } from "../env";
import { createCustomerOnPlan, deliverAnalytics, pageViewEvent as view, whileWritesFail } from "../test/helpers";
import { foldPendingAnalytics } from "./fold";
import { reducerShardOf, settleCounters } from "./reducer-shards";

const counted = async (userId: string) =>
  Number(
    await env.DB.prepare("select coalesce(sum(total_requests), 0) as n from usage_counters where user_id = ?")
      .bind(userId)
      .first("n"),
  );
const recorded = () => env.DB.prepare("select shards from reducer_layout").first<number>("shards");

const withShards = (shards: number): Env => ({ ...env, ANALYTICS_REDUCER_SHARDS: String(shards) });

/** A customer whose shard is not the same among 4 shards as among 8, and one whose shard is. */
async function movingAndStaying() {
  let moving: string | undefined;
  let staying: string | undefined;
  while (!moving || !staying) {
    const { user } = await createCustomerOnPlan({ dynamicContentLimit: null });
    if (reducerShardOf(withShards(4), user.id) !== reducerShardOf(withShards(8), user.id)) moving ??= user.id;
    else staying ??= user.id;
  }
  return [moving, staying] as const;
}

describe("a change of the reducers' shard count", () => {
  it("settles what the old shards hold before page views go to the new ones, so reads miss nothing", async () => {
    const [moving, staying] = await movingAndStaying();
    await deliverAnalytics([view(moving, "https://shop.test/a"), view(staying, "https://shop.test/a")]);
    await foldPendingAnalytics(withShards(4));
    expect(await recorded()).toBe(4);
    expect(await counted(moving)).toBe(0);

    await deliverAnalytics([view(moving, "https://shop.test/b"), view(staying, "https://shop.test/b")]);
    await foldPendingAnalytics(withShards(8));
    expect(await recorded()).toBe(8);
    // The old shards' sums are counted; the new views are held by the new shards, which a read asks.
    expect(await counted(moving)).toBe(1);
    await settleCounters(withShards(8), [moving, staying]);
    expect(await counted(moving)).toBe(2);
    expect(await counted(staying)).toBe(2);
  });

  it("finishes a handoff begun under the old count in the old shards first, and counts it once", async () => {
    const [moving, staying] = await movingAndStaying();
    await foldPendingAnalytics(withShards(4));
    await deliverAnalytics([view(moving, "https://shop.test/a"), view(staying, "https://shop.test/a")]);
    await expect(
      whileWritesFail("analytics_handoffs", () => foldPendingAnalytics(withShards(4)), "delete"),
    ).rejects.toThrow(/disk full/);

    await foldPendingAnalytics(withShards(8));
    expect(await recorded()).toBe(4);
    await foldPendingAnalytics(withShards(8));
    expect(await recorded()).toBe(8);
    await settleCounters(withShards(8), "all");
    expect(await counted(moving)).toBe(1);
    expect(await counted(staying)).toBe(1);
  });

  it("settles the shards of the default before issue 43 when no count was recorded and none is set", async () => {
    const [moving] = await movingAndStaying();
    await deliverAnalytics([view(moving, "https://shop.test/a")]);
    await foldPendingAnalytics(withShards(4));
    await env.DB.prepare("delete from reducer_layout").run();
    const { ANALYTICS_REDUCER_SHARDS: _, ...unset } = env as Env;

    await foldPendingAnalytics(unset);
    expect(await recorded()).toBe(128);
    expect(await counted(moving)).toBe(1);
  });
});
