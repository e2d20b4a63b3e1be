import { describe, expect, it } from "vitest";
import {
  AUDIENCE_ARM,
  HOLDOUT_ARM,
  HOLDOUT_GOALS_NEEDED,
  HOLDOUT_NEEDS_AUDIENCE,
  HOLDOUT_WITH_EXPERIMENT,
} from "#contract/audiences";
import type { ExperimentResults } from "#contract/experiments";
import type { Mapping } from "#contract/responses";
import type { MappingVersion } from "#contract/versions";
import type { AnalyticsMessage } from "../messages/analytics";
import { call, countViews, createCustomerOnPlan, testEnv } from "../test/helpers";

const PAGE = "https://shop.test/offer";
const GERMANY = { name: "Germany", country: ["DE"] };
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

async function customer() {
  return createCustomerOnPlan({ eventsLimit: null, websitesLimit: null });
}

async function post(apiKey: string, body: object) {
  return call("/api/mappings", { method: "POST", apiKey, json: { url: PAGE, htmlContent: "<p>de</p>", ...body } });
}

/** A customer with a fallback and a German audience mapping holding out `share` percent, measuring signup. */
async function customerWithHoldout(share = 50) {
  const c = await customer();
  expect((await post(c.apiKey, { htmlContent: "<p>all</p>" })).status).toBe(201);
  const res = await post(c.apiKey, { audience: GERMANY, holdout: share, goals: ["signup"] });
  expect(res.status).toBe(201);
  return { ...c, mapping: (await res.json()) as Mapping };
}

/** A German visitor's JSON answer; its analytics messages land in `sink`. */
async function view(userId: string, vid: string | undefined, sink: AnalyticsMessage[], userAgent?: string) {
  const e = testEnv();
  const query = `u=${userId}&url=${encodeURIComponent(PAGE)}&format=json${vid ? `&vid=${vid}` : ""}`;
  const headers = { "CF-IPCountry": "DE", ...(userAgent ? { "User-Agent": userAgent } : {}) };
  const res = await call(`/api/content?${query}`, { headers }, e);
  sink.push(...e.analyticsMessages);
  return (await res.json()) as { h: string; audience?: string };
}

async function goal(userId: string, vid: string, sink: AnalyticsMessage[]) {
  const e = testEnv();
  const res = await call("/api/goals", { method: "POST", body: JSON.stringify({ u: userId, vid, goal: "signup" }) }, e);
  expect(res.status).toBe(202);
  sink.push(...e.analyticsMessages);
}

describe('an audience mapping\'s holdout (docs/audiences.md, "Holdout")', () => {
  it.each([
    [{ holdout: 10, goals: ["signup"] }, HOLDOUT_NEEDS_AUDIENCE],
    [{ audience: GERMANY, holdout: 51, goals: ["signup"] }, "holdout must be at most 50 (percent)"],
    [{ audience: GERMANY, holdout: 2.5, goals: ["signup"] }, "holdout must be a whole number (percent)"],
    [{ audience: GERMANY, holdout: 10 }, HOLDOUT_GOALS_NEEDED],
    [
      {
        audience: GERMANY,
        holdout: 10,
        goals: ["signup"],
        variants: [
          { key: "A", weight: 50 },
          { key: "B", weight: 50, htmlContent: "<p>B</p>" },
        ],
      },
      HOLDOUT_WITH_EXPERIMENT,
    ],
  ])("refuses %j with a message, creating nothing", async (body, message) => {
    const { apiKey } = await customer();
    const res = await post(apiKey, body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toContain(message);
    expect(await (await call("/api/mappings", { apiKey })).json()).toEqual([]);
  });

  it("is answered with its share and goals, kept in versions, ended by 0, restored with its version", async () => {
    const { apiKey, mapping } = await customerWithHoldout(20);
    expect(mapping).toMatchObject({ audience: GERMANY, holdout: 20, goals: ["signup"] });
    expect("variants" in mapping).toBe(false);

    const changed = await call(`/api/mappings/${mapping.id}`, { method: "PATCH", apiKey, json: { holdout: 30 } });
    expect(((await changed.json()) as Mapping).holdout).toBe(30);
    const ended = await call(`/api/mappings/${mapping.id}`, { method: "PATCH", apiKey, json: { holdout: 0 } });
    const plain = (await ended.json()) as Mapping;
    expect("holdout" in plain || "goals" in plain).toBe(false);
    expect((await call(`/api/mappings/${mapping.id}/audience-results`, { apiKey })).status).toBe(404);

    const versions = (await (
      await call(`/api/mappings/${mapping.id}/versions`, { apiKey })
    ).json()) as MappingVersion[];
    expect(versions.map((v) => v.holdout ?? 0)).toEqual([0, 30, 20]);
    const restored = await call(`/api/mappings/${mapping.id}/versions/1/restore`, { method: "POST", apiKey });
    expect(restored.status).toBe(200);
    expect((await restored.json()) as Mapping).toMatchObject({ holdout: 20, goals: ["signup"] });

    // Without an audience there is nothing to hold out: removing the audience ends the holdout.
    const fallback = await call(`/api/mappings/${mapping.id}`, { method: "PATCH", apiKey, json: { audience: null } });
    expect("holdout" in ((await fallback.json()) as Mapping)).toBe(false);
  });

  it("shows the held-out share the fallback, and compares both arms on the goals, counted as experiments are", async () => {
    const { user, apiKey, mapping } = await customerWithHoldout(50);
    const sink: AnalyticsMessage[] = [];
    const arms = new Map<string, string>();
    for (let i = 0; i < 24; i++) {
      const vid = `holdout-${String(i).padStart(4, "0")}`;
      const answer = await view(user.id, vid, sink);
      arms.set(vid, answer.h === "<p>all</p>" ? HOLDOUT_ARM : AUDIENCE_ARM);
      // Held out: the fallback as the URL delivers it to everyone, without the audience's name.
      if (answer.h === "<p>all</p>") expect(answer.audience).toBeUndefined();
      else expect(answer).toEqual({ h: "<p>de</p>", audience: "Germany" });
      expect((await view(user.id, vid, sink)).h).toBe(answer.h);
    }
    const held = [...arms].filter(([, arm]) => arm === HOLDOUT_ARM).map(([vid]) => vid);
    const shown = [...arms].filter(([, arm]) => arm === AUDIENCE_ARM).map(([vid]) => vid);
    expect(held.length).toBeGreaterThan(0);
    expect(shown.length).toBeGreaterThan(0);
    // Without an id nobody is held out; a crawler gets what its id gets, and neither counts.
    expect(await view(user.id, undefined, sink)).toEqual({ h: "<p>de</p>", audience: "Germany" });
    expect((await view(user.id, held[0], sink, GOOGLEBOT)).h).toBe("<p>all</p>");
    expect((await view(user.id, "crawler-00001", sink, GOOGLEBOT)).h).toBe(
      (await view(user.id, "crawler-00001", [])).h,
    );
    await goal(user.id, held[0]!, sink);
    await goal(user.id, shown[0]!, sink);
    await goal(user.id, shown[1] ?? shown[0]!, sink);
    await countViews(sink);

    const res = await call(`/api/mappings/${mapping.id}/audience-results`, { apiKey });
    expect(res.status).toBe(200);
    const r = (await res.json()) as ExperimentResults;
    expect(r.weights).toEqual([
      { key: HOLDOUT_ARM, weight: 50 },
      { key: AUDIENCE_ARM, weight: 50 },
    ]);
    expect(r.goals).toEqual(["signup"]);
    const arm = (key: string) => r.variants.find((v) => v.key === key)!;
    expect(arm(HOLDOUT_ARM)).toMatchObject({ visitors: held.length, conversions: 1, uplift: null });
    expect(arm(AUDIENCE_ARM)).toMatchObject({ visitors: shown.length, conversions: Math.min(2, shown.length) });
    expect(arm(AUDIENCE_ARM).probabilityToBeatControl).not.toBeNull();
  });
});
