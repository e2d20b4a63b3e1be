import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ExperimentResults } from "#contract/experiments";
import type { Mapping } from "#contract/responses";
import type { MappingVersion } from "#contract/versions";
import { GOAL_RETENTION_DAYS, purgeVisitorGoals } from "../analytics/retention";
import { runDueSchedules } from "../delivery/publish-due";
import {
  EXPERIMENT_TOO_LARGE,
  GOALS_NEEDED,
  VARIANT_KEYS_UNIQUE,
  VARIANTS_COUNT,
  WEIGHTS_SUM,
} from "#contract/experiments";
import { call, countViews, createVerifiedCustomer, testEnv } from "../test/helpers";
import type { AnalyticsMessage } from "../messages/analytics";

const PAGE = "https://shop.test/offer";
const A = "<p>A</p>";
const B = "<p>B</p>";
const experimentBody = {
  url: PAGE,
  htmlContent: A,
  variants: [
    { key: "A", weight: 50 },
    { key: "B", weight: 50, htmlContent: B },
  ],
  goals: ["signup"],
};

async function customerWithExperiment(body: object = experimentBody) {
  const { user, apiKey } = await createVerifiedCustomer(`x${crypto.randomUUID()}@example.com`);
  const res = await call("/api/mappings", { method: "POST", apiKey, json: body });
  expect(res.status).toBe(201);
  return { userId: user.id, apiKey, mapping: (await res.json()) as Mapping };
}

/** The content request of a visitor with this id; its analytics messages land in `sink`. */
async function view(userId: string, vid: string | undefined, sink: AnalyticsMessage[], headers: HeadersInit = {}) {
  const e = testEnv();
  const query = `u=${userId}&url=${encodeURIComponent(PAGE)}&format=json${vid ? `&vid=${vid}` : ""}`;
  const res = await call(`/api/content?${query}`, { headers }, e);
  sink.push(...e.analyticsMessages);
  return (await res.json()) as { h: string; variant?: string };
}

async function goal(userId: string, vid: string, name: string, sink: AnalyticsMessage[]) {
  const e = testEnv();
  const res = await call("/api/goals", { method: "POST", body: JSON.stringify({ u: userId, vid, goal: name }) }, e);
  sink.push(...e.analyticsMessages);
  return res;
}

async function results(apiKey: string, id: number) {
  const res = await call(`/api/mappings/${id}/experiment`, { apiKey });
  expect(res.status).toBe(200);
  return (await res.json()) as ExperimentResults;
}

const visitors = (r: ExperimentResults, key: string) => r.variants.find((v) => v.key === key)!.visitors;
const conversions = (r: ExperimentResults, key: string, goalName = "signup") =>
  r.variants.find((v) => v.key === key && v.goal === goalName)!.conversions;

describe("a mapping's experiment (docs/experiments.md)", () => {
  it("is answered with its variants (the control's HTML the mapping's) and goals; a mapping without has neither", async () => {
    const { apiKey, mapping } = await customerWithExperiment();
    expect(mapping.htmlContent).toBe(A);
    expect(mapping.variants).toEqual([
      { key: "A", weight: 50, htmlContent: A },
      { key: "B", weight: 50, htmlContent: B },
    ]);
    expect(mapping.goals).toEqual(["signup"]);
    const plain = await call("/api/mappings", { method: "POST", apiKey, json: { url: PAGE, htmlContent: A } });
    const body = (await plain.json()) as Mapping;
    expect("variants" in body || "goals" in body).toBe(false);
  });

  it.each([
    [
      "weights that do not add up to 100",
      {
        variants: [
          { key: "A", weight: 50 },
          { key: "B", weight: 40, htmlContent: B },
        ],
      },
      WEIGHTS_SUM,
    ],
    [
      "six variants",
      { variants: [20, 20, 20, 20, 10, 10].map((weight, i) => ({ key: `V${i}`, weight, htmlContent: B })) },
      VARIANTS_COUNT,
    ],
    [
      "two variants with one key",
      {
        variants: [
          { key: "A", weight: 50 },
          { key: "a", weight: 50, htmlContent: B },
        ],
      },
      VARIANT_KEYS_UNIQUE,
    ],
    [
      "a variant without HTML",
      {
        variants: [
          { key: "A", weight: 50 },
          { key: "B", weight: 50 },
        ],
      },
      "Variant B needs its HTML content",
    ],
    ["no goal", { goals: [] }, GOALS_NEEDED],
  ])("refuses %s with a message and stores nothing", async (_, change, message) => {
    const { user, apiKey } = await createVerifiedCustomer(`x${crypto.randomUUID()}@example.com`);
    const res = await call("/api/mappings", { method: "POST", apiKey, json: { ...experimentBody, ...change } });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain(message);
    const stored = await env.DB.prepare("SELECT count(*) AS n FROM url_mappings WHERE user_id = ?1")
      .bind(user.id)
      .first<{ n: number }>();
    expect(stored!.n).toBe(0);
  });

  it("gives each visitor one variant, the same on every view and whatever the user agent; without an id, the control", async () => {
    const { userId } = await customerWithExperiment();
    const sink: AnalyticsMessage[] = [];
    const seen = new Map<string, string>();
    for (let i = 0; i < 40; i++) {
      const vid = `visitor-${String(i).padStart(4, "0")}`;
      const first = await view(userId, vid, sink);
      const again = await view(userId, vid, sink);
      expect(again.variant).toBe(first.variant);
      expect(first.h).toBe(first.variant === "A" ? A : B);
      seen.set(vid, first.variant!);
    }
    expect(new Set(seen.values())).toEqual(new Set(["A", "B"]));
    expect(await view(userId, undefined, sink)).toMatchObject({ h: A, variant: "A" });
    // Never chosen by user agent (Google's testing guidance: no cloaking): a crawler with an id gets that id's variant.
    for (const vid of ["visitor-0001", "visitor-0002", "visitor-0003"]) {
      const bot = await view(userId, vid, sink, { "User-Agent": "Mozilla/5.0 (compatible; Googlebot/2.1)" });
      expect(bot).toMatchObject({ h: seen.get(vid) === "A" ? A : B, variant: seen.get(vid) });
    }
  });

  it("names the variant in the text form's X-Variant header", async () => {
    const { userId } = await customerWithExperiment();
    const res = await call(`/api/content?u=${userId}&url=${encodeURIComponent(PAGE)}&vid=visitor-text-1`);
    const variant = res.headers.get("X-Variant");
    expect(["A", "B"]).toContain(variant);
    expect(await res.text()).toBe(variant === "A" ? A : B);
    expect(res.headers.get("Access-Control-Expose-Headers")).toBe("X-Variant");
  });

  it("counts each visitor once, and a goal once per visitor after they saw the experiment", async () => {
    const { userId, apiKey, mapping } = await customerWithExperiment();
    const sink: AnalyticsMessage[] = [];
    const variants = new Map<string, string>();
    for (let i = 0; i < 20; i++) {
      const vid = `counted-${String(i).padStart(4, "0")}`;
      variants.set(vid, (await view(userId, vid, sink)).variant!);
      await view(userId, vid, sink);
    }
    // Crawlers and visitors without an id are not in the experiment.
    await view(userId, undefined, sink);
    await view(userId, "counted-0000", sink, { "User-Agent": "Googlebot/2.1" });
    for (let i = 0; i < 5; i++) await view(userId, `crawler-${i}-0000`, sink, { "User-Agent": "Googlebot/2.1" });
    expect((await goal(userId, "counted-0000", "signup", sink)).status).toBe(202);
    expect((await goal(userId, "counted-0000", "signup", sink)).status).toBe(202);
    // A visitor who never saw the experiment does not convert.
    expect((await goal(userId, "stranger-0001", "signup", sink)).status).toBe(202);
    // A goal no experiment measures is not counted.
    expect((await goal(userId, "counted-0001", "newsletter", sink)).status).toBe(200);
    await countViews(sink);

    const r = await results(apiKey, mapping.id);
    const expected = (key: string) => [...variants.values()].filter((v) => v === key).length;
    expect(visitors(r, "A")).toBe(expected("A"));
    expect(visitors(r, "B")).toBe(expected("B"));
    const converted = variants.get("counted-0000")!;
    expect(conversions(r, converted)).toBe(1);
    expect(conversions(r, converted === "A" ? "B" : "A")).toBe(0);
    expect(r.goals).toEqual(["signup"]);
    expect(r.weights).toEqual([
      { key: "A", weight: 50 },
      { key: "B", weight: 50 },
    ]);
    expect(r.srm.ok).toBe(true);
    expect(r.variants.find((v) => v.key === "A")!.probabilityToBeatControl).toBeNull();

    // Counted again later: nothing counts twice.
    const again: AnalyticsMessage[] = [];
    await view(userId, "counted-0000", again);
    await goal(userId, "counted-0000", "signup", again);
    await countViews(again);
    const after = await results(apiKey, mapping.id);
    expect(visitors(after, converted)).toBe(visitors(r, converted));
    expect(conversions(after, converted)).toBe(1);
  });

  it("splits its results by device, country or referrer type on request: the top 10 values by visitors, then other", async () => {
    const { userId, apiKey, mapping } = await customerWithExperiment();
    const sink: AnalyticsMessage[] = [];
    const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148";
    const COUNTRIES = ["DE", "AT", "CH", "FR", "IT", "ES", "NL", "BE", "PL", "SE", "DK", "NO"];
    const seen = new Map<string, { variant: string; country: string; mobile: boolean }>();
    for (let i = 0; i < 26; i++) {
      const vid = `segment-${String(i).padStart(4, "0")}`;
      // Germany brings most visitors; the last two countries one each, past the top 10.
      const country = i < 12 ? "DE" : (COUNTRIES[i - 12] ?? "NO");
      const mobile = i % 2 === 0;
      const headers = { "CF-IPCountry": country, ...(mobile ? { "User-Agent": IPHONE } : {}) };
      const { variant } = await view(userId, vid, sink, headers);
      seen.set(vid, { variant: variant!, country, mobile });
    }
    await goal(userId, "segment-0000", "signup", sink);
    await countViews(sink);

    const plain = await results(apiKey, mapping.id);
    expect("segments" in plain).toBe(false);
    const bad = await call(`/api/mappings/${mapping.id}/experiment?segment=browser`, { apiKey });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toBe("segment must be one of device, country, referrer");

    const split = async (segment: string) => {
      const res = await call(`/api/mappings/${mapping.id}/experiment?segment=${segment}`, { apiKey });
      expect(res.status).toBe(200);
      const body = (await res.json()) as ExperimentResults;
      expect({ ...body, segments: undefined }).toEqual({ ...plain, segments: undefined });
      return body.segments!;
    };
    const devices = await split("device");
    expect(devices.dimension).toBe("device");
    expect(devices.values.map((v) => [v.value, v.visitors])).toEqual([
      ["desktop", 13],
      ["mobile", 13],
    ]);
    const mobileA = [...seen.values()].filter((v) => v.mobile && v.variant === "A").length;
    const mobile = devices.values.find((v) => v.value === "mobile")!;
    expect(mobile.variants.find((v) => v.key === "A")!.visitors).toBe(mobileA);
    expect(mobile.variants.find((v) => v.key === seen.get("segment-0000")!.variant)!.conversions).toBe(1);

    const countries = await split("country");
    expect(countries.values).toHaveLength(11);
    expect(countries.values[0]).toMatchObject({ value: "DE", visitors: 13 });
    expect(countries.values.at(-1)).toMatchObject({ value: "other", visitors: 2 });
    expect(countries.values.reduce((sum, v) => sum + v.visitors, 0)).toBe(26);

    const referrers = await split("referrer");
    expect(referrers.values.map((v) => [v.value, v.visitors])).toEqual([["direct", 26]]);
  });

  it("converts a visitor whose goal was counted before the view that showed them the experiment", async () => {
    const { userId, apiKey, mapping } = await customerWithExperiment();
    const views: AnalyticsMessage[] = [];
    const goals: AnalyticsMessage[] = [];
    const { variant } = await view(userId, "early-goal-1", views);
    await goal(userId, "early-goal-1", "signup", goals);
    // The goal's message is counted first, the view's a minute later (they travel apart).
    await countViews(goals);
    await countViews(views);
    expect(conversions(await results(apiKey, mapping.id), variant!)).toBe(1);
  });

  it("refuses malformed goals with a message", async () => {
    const { userId } = await customerWithExperiment();
    for (const body of [
      "{",
      JSON.stringify({ u: userId, vid: "short", goal: "signup" }),
      JSON.stringify({ u: userId, vid: "visitor-0001" }),
    ]) {
      const res = await call("/api/goals", { method: "POST", body });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBeTruthy();
    }
  });

  it("makes a variant permanent: its content becomes the mapping's, the experiment ends, and a version records it", async () => {
    const { userId, apiKey, mapping } = await customerWithExperiment();
    const res = await call(`/api/mappings/${mapping.id}/experiment/promote`, {
      method: "POST",
      apiKey,
      json: { variant: "B" },
    });
    expect(res.status).toBe(200);
    const promoted = (await res.json()) as Mapping;
    expect(promoted.htmlContent).toBe(B);
    expect("variants" in promoted).toBe(false);
    expect(await view(userId, "visitor-after-1", [])).toEqual({ h: B });
    const versions = await call(`/api/mappings/${mapping.id}/versions`, { apiKey });
    const [newest] = (await versions.json()) as MappingVersion[];
    expect(newest!.htmlContent).toBe(B);
    const gone = await call(`/api/mappings/${mapping.id}/experiment`, { apiKey });
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({ error: "This mapping runs no experiment" });
  });

  it("refuses to promote a variant the experiment does not have", async () => {
    const { apiKey, mapping } = await customerWithExperiment();
    const res = await call(`/api/mappings/${mapping.id}/experiment/promote`, {
      method: "POST",
      apiKey,
      json: { variant: "C" },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "This mapping's experiment has no variant C" });
  });

  it("stops with variants: null, keeping the control's content; keeps its run while the keys stay", async () => {
    const { userId, apiKey, mapping } = await customerWithExperiment();
    const sink: AnalyticsMessage[] = [];
    await view(userId, "kept-visitor-1", sink);
    await countViews(sink);
    const moved = await call(`/api/mappings/${mapping.id}`, {
      method: "PATCH",
      apiKey,
      json: {
        variants: [
          { key: "A", weight: 30 },
          { key: "B", weight: 70, htmlContent: "<p>B2</p>" },
        ],
      },
    });
    expect(moved.status).toBe(200);
    const r = await results(apiKey, mapping.id);
    expect(visitors(r, "A") + visitors(r, "B")).toBe(1);
    expect(r.weights.map((w) => w.weight)).toEqual([30, 70]);

    const stopped = await call(`/api/mappings/${mapping.id}`, { method: "PATCH", apiKey, json: { variants: null } });
    expect(stopped.status).toBe(200);
    expect((await stopped.json()) as Mapping).toMatchObject({ htmlContent: A });
    expect(await view(userId, "kept-visitor-1", [])).toEqual({ h: A });
  });

  it("shows a variant through its preview link, to whoever holds it, without assigning anyone", async () => {
    const { userId, apiKey, mapping } = await customerWithExperiment();
    const link = await call(`/api/mappings/${mapping.id}/preview`, { method: "POST", apiKey, json: { variant: "B" } });
    expect(link.status).toBe(201);
    const { url } = (await link.json()) as { url: string };
    const res = await call(`/api/content?u=${userId}&url=${encodeURIComponent(url)}&format=json`);
    expect(await res.json()).toEqual({ h: B });
    const refused = await call(`/api/mappings/${mapping.id}/preview`, {
      method: "POST",
      apiKey,
      json: { variant: "Z" },
    });
    expect(refused.status).toBe(400);
  });

  it("writes webhook events when an experiment starts, stops and is promoted", async () => {
    const { apiKey, mapping } = await customerWithExperiment();
    const hook = await call("/api/webhooks", {
      method: "POST",
      apiKey,
      json: { url: "https://hooks.example.test/in" },
    });
    expect(hook.status).toBe(201);
    await call(`/api/mappings/${mapping.id}`, { method: "PATCH", apiKey, json: { variants: null } });
    await call(`/api/mappings/${mapping.id}`, {
      method: "PATCH",
      apiKey,
      json: {
        variants: [
          { key: "A", weight: 50 },
          { key: "C", weight: 50, htmlContent: "<p>C</p>" },
        ],
        goals: ["buy"],
      },
    });
    await call(`/api/mappings/${mapping.id}/experiment/promote`, { method: "POST", apiKey, json: { variant: "C" } });
    const { results: events } = await env.DB.prepare(
      `SELECT event FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
       WHERE w.user_id = (SELECT user_id FROM url_mappings WHERE id = ?1) ORDER BY d.rowid`,
    )
      .bind(mapping.id)
      .all<{ event: string }>();
    expect(events.map((e) => e.event).filter((e) => e.startsWith("experiment."))).toEqual([
      "experiment.stopped",
      "experiment.started",
      "experiment.promoted",
    ]);
  });

  it("forgets a visitor's goals not reached again within 90 days; counted conversions stay", async () => {
    const { userId } = await customerWithExperiment();
    const now = Date.now();
    const old = now - (GOAL_RETENTION_DAYS + 1) * 86_400_000;
    await env.DB.prepare(
      `INSERT INTO visitor_goals (user_id, visitor, goal, last_at) VALUES (?1, 'old-visitor', 'signup', ?2),
        (?1, 'new-visitor', 'signup', ?3)`,
    )
      .bind(userId, old, now)
      .run();
    await purgeVisitorGoals(env, new Date(now));
    const { results: left } = await env.DB.prepare("SELECT visitor FROM visitor_goals WHERE user_id = ?1")
      .bind(userId)
      .all<{ visitor: string }>();
    expect(left.map((r) => r.visitor)).toEqual(["new-visitor"]);
  });

  it("runs with its mapping: a draft's experiment starts when a schedule publishes it", async () => {
    const publishAt = new Date(Date.now() + 60_000);
    const { userId, apiKey, mapping } = await customerWithExperiment({
      ...experimentBody,
      publishAt: publishAt.toISOString(),
    });
    expect(mapping.publishedAt).toBeNull();
    expect(mapping.variants).toHaveLength(2);
    const draft = await call(`/api/content?u=${userId}&url=${encodeURIComponent(PAGE)}&vid=visitor-draft-1`);
    expect(draft.status).toBe(204);
    await runDueSchedules(env, new Date(publishAt.getTime() + 1_000));
    const live = await view(userId, "visitor-draft-1", []);
    expect(["A", "B"]).toContain(live.variant);
    expect(live.h).toBe(live.variant === "A" ? A : B);
    const versions = await call(`/api/mappings/${mapping.id}/versions`, { apiKey });
    expect(((await versions.json()) as MappingVersion[]).every((v) => v.variants?.length === 2)).toBe(true);
  });

  it("takes a mapping's whole HTML on a change, and an experiment up to 1 MB; past it, the field's message", async () => {
    const { apiKey, mapping } = await customerWithExperiment();
    const big = `<p>${"x".repeat(250_000)}</p>`;
    const changed = await call(`/api/mappings/${mapping.id}`, { method: "PATCH", apiKey, json: { htmlContent: big } });
    expect(changed.status).toBe(200);
    const variants = (html: string) => [
      { key: "A", weight: 20 },
      ...["B", "C", "D", "E"].map((key) => ({ key, weight: 20, htmlContent: html })),
    ];
    // Four variants of 250,000 bytes: 1,000,000 bytes stored, within 1 MB.
    const within = await call(`/api/mappings/${mapping.id}`, {
      method: "PATCH",
      apiKey,
      json: { variants: variants("y".repeat(250_000)) },
    });
    expect(within.status).toBe(200);
    expect(((await within.json()) as Mapping).variants).toHaveLength(5);
    // Quotes take two bytes each where the experiment is stored as JSON: 2,000,000 bytes, over 1 MB.
    const over = await call(`/api/mappings/${mapping.id}`, {
      method: "PATCH",
      apiKey,
      json: { variants: variants('"'.repeat(250_000)) },
    });
    expect(over.status).toBe(400);
    expect(await over.json()).toEqual({ error: EXPERIMENT_TOO_LARGE });
  });
});
