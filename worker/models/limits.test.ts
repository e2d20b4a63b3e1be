import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Mapping } from "#contract/responses";
import { productVersions, users } from "../db/schema";
import { syncCustomerState } from "../delivery/sync";
import { call, createCustomerOnPlan, db, insertCustomers, visit } from "../test/helpers";
import { customerLimits, deliveryLimitReached, deliveryLimitStates } from "./limits";

const add = (apiKey: string, url: string) =>
  call("/api/mappings", { method: "POST", apiKey, json: { url, htmlContent: `<p>${url}</p>` } });

describe("events limit: mappings created in the billing period", () => {
  it("allows the n-th mapping and refuses the one after, creating nothing", async () => {
    const { apiKey } = await createCustomerOnPlan({ eventsLimit: 3 });
    for (const path of ["a", "b", "c"]) expect((await add(apiKey, `https://shop.test/${path}`)).status).toBe(201);
    const refused = await add(apiKey, "https://shop.test/d");
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      error: "Your plan allows 3 content updates per billing period. Upgrade your plan or wait for the next period.",
    });
    expect((await (await call("/api/mappings", { apiKey })).json()) as Mapping[]).toHaveLength(3);
  });

  it("treats a limit of 0 or null as unlimited", async () => {
    for (const eventsLimit of [0, null]) {
      const { apiKey } = await createCustomerOnPlan({ eventsLimit });
      for (let i = 0; i < 4; i++) expect((await add(apiKey, `https://shop.test/${i}`)).status).toBe(201);
    }
  });
});

describe("websites limit: distinct hostnames", () => {
  it("allows more pages on known websites and refuses a new website past the limit", async () => {
    const { apiKey } = await createCustomerOnPlan({ websitesLimit: 2 });
    expect((await add(apiKey, "https://one.test/a")).status).toBe(201);
    expect((await add(apiKey, "https://www.two.test/a")).status).toBe(201);
    expect((await add(apiKey, "http://two.test/b")).status).toBe(201);
    const refused = await add(apiKey, "https://three.test/");
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      error: "Your plan allows 2 websites. Upgrade your plan to add three.test.",
    });
    expect((await (await call("/api/mappings", { apiKey })).json()) as Mapping[]).toHaveLength(3);
  });
});

describe("dynamic content limit: deliveries in the billing period", () => {
  it("delivers n times, then answers 204 until the limit is raised", async () => {
    const { user, apiKey } = await createCustomerOnPlan({ dynamicContentLimit: 2 });
    await add(apiKey, "https://shop.test/a");
    expect(await visit(user.id, "https://shop.test/a")).toBe(200);
    expect(await visit(user.id, "https://shop.test/a")).toBe(200);
    expect(await visit(user.id, "https://shop.test/a")).toBe(204);

    // Raising the plan's limit: the write path writes the customer's delivery state (admin console).
    const version = (await db().select().from(users).where(eq(users.id, user.id)))[0]!.productVersionId!;
    await db().update(productVersions).set({ dynamicContentLimit: 3 }).where(eq(productVersions.id, version));
    await syncCustomerState(env, user.id);
    expect(await visit(user.id, "https://shop.test/a")).toBe(200);
    expect(await visit(user.id, "https://shop.test/a")).toBe(204);
  });
});

describe("request limit: delivery requests in the billing period (admin-set)", () => {
  it("answers n requests, then 204 until it is raised; null is unlimited", async () => {
    const { user, apiKey } = await createCustomerOnPlan({});
    await add(apiKey, "https://shop.test/a");
    await db().update(users).set({ requestLimit: 2 }).where(eq(users.id, user.id));
    await syncCustomerState(env, user.id);
    expect(await visit(user.id, "https://shop.test/nothing-here")).toBe(204);
    expect(await visit(user.id, "https://shop.test/a")).toBe(200);
    expect(await visit(user.id, "https://shop.test/a")).toBe(204);
    const stats = (await (await call("/api/user/stats", { apiKey })).json()) as {
      totalRequests: number;
      requestLimit: number;
    };
    expect(stats).toMatchObject({ totalRequests: 2, requestLimit: 2 });

    await db().update(users).set({ requestLimit: null }).where(eq(users.id, user.id));
    await syncCustomerState(env, user.id);
    expect(await visit(user.id, "https://shop.test/a")).toBe(200);
  });
});

describe("deliveryLimitStates", () => {
  it("answers for more than 100 customers at once (production D1 binds at most 100 parameters)", async () => {
    const [plan] = await db().insert(productVersions).values({ name: "Small", dynamicContentLimit: 10 }).returning();
    const ids = await insertCustomers(150);
    await db().update(users).set({ productVersionId: plan!.id });
    // Customer n has delivered n % 20 times this period: the limit of 10 is reached when n % 20 >= 10.
    await env.DB.prepare(
      `insert into usage_counters (user_id, period_deliveries)
       select id, cast(substr(id, 5) as integer) % 20 from users`,
    ).run();

    const states = await deliveryLimitStates(db(), ids);
    expect(states.map((s) => s.userId).sort()).toEqual(ids);
    const limited = states.filter(deliveryLimitReached).map((s) => Number(s.userId.slice(4)));
    expect(limited.sort((a, b) => a - b)).toEqual(ids.map((_, i) => i + 1).filter((n) => n % 20 >= 10));
  });
});

describe("an admin's per-user limits (users.websitesLimit, users.dynamicContentLimit)", () => {
  const plan = { websitesLimit: 3, eventsLimit: 100, dynamicContentLimit: 50 };

  it("replace the plan's of their kind; null follows the plan, 0 is unlimited, events stay the plan's", () => {
    expect(customerLimits({ websitesLimit: null, dynamicContentLimit: null }, plan)).toEqual(plan);
    expect(customerLimits({ websitesLimit: 1, dynamicContentLimit: 0 }, plan)).toEqual({
      websitesLimit: 1,
      eventsLimit: 100,
      dynamicContentLimit: null,
    });
    expect(customerLimits({ websitesLimit: 7, dynamicContentLimit: 9 }, undefined)).toEqual({
      websitesLimit: 7,
      eventsLimit: null,
      dynamicContentLimit: 9,
    });
  });

  it("are what delivery is held to", async () => {
    const { user } = await createCustomerOnPlan({ dynamicContentLimit: 50 });
    await db().update(users).set({ dynamicContentLimit: 2 }).where(eq(users.id, user.id));
    const [state] = await deliveryLimitStates(db(), [user.id]);
    expect(state!.dynamicContentLimit).toBe(2);
  });
});
