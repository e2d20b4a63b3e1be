import { afterEach, describe, expect, it, vi } from "vitest";
import type { Onboarding, OnboardingStep } from "#contract/responses";
import { ensureCustomer } from "../models/users";
import { ensureCustomerKey } from "../models/api-keys";
import { secretKeys } from "../lib/crypto";
import {
  call,
  createCustomerOnPlan,
  createVerifiedCustomer,
  db,
  deliverAnalytics,
  foldAnalytics,
  pageViewEvent,
  testEnv,
  whileWritesFail,
} from "../test/helpers";
import { provenWebsite } from "../test/websites";
import { env } from "cloudflare:workers";

const steps = async (apiKey: string): Promise<Record<string, OnboardingStep>> => {
  const res = await call("/api/onboarding", { apiKey });
  expect(res.status).toBe(200);
  const { steps } = (await res.json()) as Onboarding;
  expect(steps.map((s) => s.key)).toEqual(["verified", "mapping", "snippet", "firstView", "website"]);
  return Object.fromEntries(steps.map((s) => [s.key, s]));
};

const addMapping = async (apiKey: string, url: string) =>
  expect(
    (await call("/api/mappings", { method: "POST", apiKey, json: { url, htmlContent: "<p>Hi</p>" } })).status,
  ).toBe(201);

/** A page view as the snippet's content request makes it, taken by the real consumer (not yet folded). */
async function snippetView(userId: string, url: string) {
  const e = testEnv();
  await call(`/api/content?u=${encodeURIComponent(userId)}&url=${encodeURIComponent(url)}`, {}, e);
  expect(e.analyticsMessages.length).toBeGreaterThan(0);
  await deliverAnalytics(e.analyticsMessages);
}

const view = (userId: string, url: string, timestamp: number) =>
  pageViewEvent(userId, url, { delivered: false, timestamp });

afterEach(() => vi.restoreAllMocks());

describe("GET /api/onboarding", () => {
  it("answers a new, unverified customer's steps, none done", async () => {
    const user = await ensureCustomer(db(), "new@example.com");
    const apiKey = await ensureCustomerKey(db(), secretKeys(env), user.id);
    const all = await steps(apiKey);
    expect(Object.values(all).map((s) => s.done)).toEqual([false, false, false, false, false]);
    expect(all.snippet).toEqual({ key: "snippet", done: false });
  });

  it("marks verified and the first mapping, with when it was made", async () => {
    const { apiKey } = await createVerifiedCustomer("m@example.com");
    expect((await steps(apiKey)).verified!.done).toBe(true);
    const before = Date.now();
    await addMapping(apiKey, "https://shop.test/offer");
    const { mapping } = await steps(apiKey);
    expect(mapping!.done).toBe(true);
    expect(Date.parse(mapping!.at!)).toBeGreaterThanOrEqual(before - 1000);
  });

  it("marks the snippet seen with the page's host once the consumer takes the first view, and the first view once it is counted", async () => {
    const { user, apiKey } = await createVerifiedCustomer("s@example.com");
    await addMapping(apiKey, "https://shop.test/offer");
    await snippetView(user.id, "https://shop.test/offer?utm_source=x");
    const seen = await steps(apiKey);
    expect(seen.snippet).toMatchObject({ done: true, host: "shop.test" });
    expect(Date.parse(seen.snippet!.at!)).toBeGreaterThan(Date.now() - 60_000);
    // Counted at the minute's fold, not before.
    expect(seen.firstView!.done).toBe(false);
    await foldAnalytics();
    expect((await steps(apiKey)).firstView!.done).toBe(true);
  });

  it("keeps the first sighting: a later view on another of the customer's hosts changes nothing", async () => {
    const { user, apiKey } = await createCustomerOnPlan({ websitesLimit: null });
    await addMapping(apiKey, "https://shop.test/offer");
    await addMapping(apiKey, "https://blog.test/post");
    const now = Date.now();
    await deliverAnalytics([
      { views: [view(user.id, "https://blog.test/post", now), view(user.id, "https://shop.test/offer", now - 5000)] },
    ]);
    await deliverAnalytics([{ views: [view(user.id, "https://blog.test/post", now + 1000)] }]);
    expect((await steps(apiKey)).snippet).toMatchObject({
      done: true,
      host: "shop.test",
      at: new Date(now - 5000).toISOString(),
    });
  });

  it("writes no statement for a customer the consumer has recorded already", async () => {
    const { user, apiKey } = await createVerifiedCustomer("w@example.com");
    await addMapping(apiKey, "https://shop.test/offer");
    await deliverAnalytics([{ views: [view(user.id, "https://shop.test/offer", Date.now())] }]);
    const errors = vi.spyOn(console, "error");
    // Any insert into the table would fail now, and the consumer would log it.
    await whileWritesFail("snippet_sightings", () =>
      deliverAnalytics([{ views: [view(user.id, "https://shop.test/offer", Date.now())] }]),
    );
    expect(errors).not.toHaveBeenCalled();
  });

  it("does not mark the snippet seen for a view from a host that is not the customer's", async () => {
    const { user, apiKey } = await createVerifiedCustomer("x@example.com");
    await addMapping(apiKey, "https://shop.test/offer");
    await deliverAnalytics([{ views: [view(user.id, "https://stranger.test/", Date.now())] }]);
    expect((await steps(apiKey)).snippet!.done).toBe(false);
  });

  it("marks the optional website step once an edge website is active", async () => {
    const { user, apiKey } = await createVerifiedCustomer("e@example.com");
    expect((await steps(apiKey)).website!.done).toBe(false);
    await provenWebsite(user.id, "shop.test", { origin: "https://origin.shop.test", mode: "edge" });
    expect((await steps(apiKey)).website).toMatchObject({ done: true });
  });
});
