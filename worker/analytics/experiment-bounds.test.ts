/**
 * What strangers cannot do to an experiment (docs/experiments.md "Bounds"): add more than a bounded number of
 * visitors and goals a day from one address whatever ids they invent, grow experiments past their plan's cap, keep rows
 * once it ended, or move its results unseen.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  ADDRESS_DAILY_EXPOSURES,
  ADDRESS_DAILY_GOALS,
  EXPERIMENT_MAX_VISITORS,
  EXPERIMENT_MIN_VISITORS,
  GOALS_MAX,
  experimentVisitorCap,
  type ExperimentResults,
} from "#contract/experiments";
import type { Mapping } from "#contract/responses";
import type { AnalyticsMessage, GoalEvent, PageViewEvent } from "../messages/analytics";
import { call, countViews, createVerifiedCustomer, postAbTest, testEnv } from "../test/helpers";
import {
  EXPERIMENT_RETENTION_DAYS,
  UNEXPOSED_GOAL_HOURS,
  purgeEndedExperiments,
  purgeUnexposedGoals,
} from "./retention";

const PAGE = "https://shop.test/offer";
/** docs/scaling.md "Experiments' rows": the most one row (with its index entries) takes, at the longest names. */
const EXPOSURE_ROW_BYTES = 450;
const CONVERSION_ROW_BYTES = 250;
const GOAL_ROW_BYTES = 600;
const STATS_ROW_BYTES = 200;
const RUN_ROW_BYTES = 150;
/** And the most a customer's experiments hold: Free's (cap 5,000 visitors) and the largest plans' (50,000). */
const FREE_WORST_BYTES = 55_000_000;
const LARGEST_WORST_BYTES = 550_000_000;
const DAY_MS = 86_400_000;

async function customerWithExperiment() {
  const { user, apiKey } = await createVerifiedCustomer(`x${crypto.randomUUID()}@example.com`);
  const res = await postAbTest(apiKey, PAGE);
  expect(res.status).toBe(201);
  const mapping = (await res.json()) as Mapping;
  const row = await env.DB.prepare("SELECT experiment ->> '$.id' AS id FROM url_mappings WHERE id = ?1")
    .bind(mapping.id)
    .first<{ id: string }>();
  return { userId: user.id, apiKey, mapping, experiment: row!.id };
}

type Experiment = Awaited<ReturnType<typeof customerWithExperiment>>;

/** A view of the experiment's page by visitor id `vid` from `address` (the day's hash the analytics name it by). */
function exposure(x: Experiment, vid: string, address: string, variant = "A", timestamp = Date.now()): PageViewEvent {
  return {
    id: crypto.randomUUID(),
    userId: x.userId,
    url: PAGE,
    mappingId: x.mapping.id,
    delivered: true,
    timestamp,
    userAgent: "Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0",
    referer: null,
    visitor: address,
    vid,
    experiment: x.experiment,
    variant,
  };
}

const goal = (x: Experiment, vid: string, address: string): GoalEvent => ({
  id: crypto.randomUUID(),
  userId: x.userId,
  vid,
  goal: "signup",
  timestamp: Date.now() + 1,
  visitor: address,
});

const goals = (events: GoalEvent[]): AnalyticsMessage => ({ views: [], goals: events });

const invented = (n: number, prefix: string) =>
  Array.from({ length: n }, (_, i) => `${prefix}-${String(i).padStart(4, "0")}-${crypto.randomUUID()}`);

async function rowsOf(table: string, where: string, ...values: unknown[]): Promise<number> {
  const row = await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${where}`)
    .bind(...values)
    .first<{ n: number }>();
  return row!.n;
}

async function results(x: Experiment) {
  const res = await call(`/api/mappings/${x.mapping.id}/experiment`, { apiKey: x.apiKey });
  expect(res.status).toBe(200);
  return (await res.json()) as ExperimentResults;
}

const visitorsOf = (r: ExperimentResults) =>
  r.variants.filter((v) => v.goal === "signup").reduce((sum, v) => sum + v.visitors, 0);

describe("an experiment's rows from strangers", () => {
  it(`count at most ${ADDRESS_DAILY_EXPOSURES} new visitors from one address a day, whatever ids it invents`, async () => {
    const x = await customerWithExperiment();
    // 300 invented ids from one address, over two folds of the same day; 5 from another address.
    const crowd = invented(300, "crowd").map((vid, i) => exposure(x, vid, "address-one", i % 2 ? "B" : "A"));
    await countViews(crowd.slice(0, 150));
    await countViews(crowd.slice(150));
    await countViews(invented(5, "other").map((vid) => exposure(x, vid, "address-two")));
    expect(await rowsOf("experiment_exposures", "experiment = ?1", x.experiment)).toBe(ADDRESS_DAILY_EXPOSURES + 5);
    expect(await rowsOf("experiment_exposures", "experiment = ?1 AND address = ?2", x.experiment, "address-one")).toBe(
      ADDRESS_DAILY_EXPOSURES,
    );
    expect(visitorsOf(await results(x))).toBe(ADDRESS_DAILY_EXPOSURES + 5);
    // The next day the address is named by another hash: another 20 at most.
    await countViews(invented(50, "tomorrow").map((vid) => exposure(x, vid, "address-one-next-day")));
    expect(visitorsOf(await results(x))).toBe(2 * ADDRESS_DAILY_EXPOSURES + 5);
    // A visitor counted already is counted once, whoever asks again.
    await countViews([exposure(x, crowd[0]!.vid!, "address-three")]);
    expect(visitorsOf(await results(x))).toBe(2 * ADDRESS_DAILY_EXPOSURES + 5);
  });

  it("hold the content and goal endpoints' crowd from one address to the bound, naming it by the day's hash only", async () => {
    const x = await customerWithExperiment();
    const ip = "203.0.113.77";
    const sink: AnalyticsMessage[] = [];
    const vids = invented(ADDRESS_DAILY_EXPOSURES + 15, "route");
    for (const vid of vids) {
      const e = testEnv();
      const query = `u=${x.userId}&url=${encodeURIComponent(PAGE)}&format=json&vid=${vid}&nav=1`;
      expect((await call(`/api/content?${query}`, { headers: { "CF-Connecting-IP": ip } }, e)).status).toBe(200);
      const res = await call(
        "/api/goals",
        {
          method: "POST",
          body: JSON.stringify({ u: x.userId, vid, goal: "signup" }),
          headers: { "CF-Connecting-IP": ip },
        },
        e,
      );
      expect(res.status).toBe(202);
      sink.push(...e.analyticsMessages);
    }
    const sentGoals = sink.flatMap((m) => ("views" in m ? (m.goals ?? []) : []));
    expect(sentGoals).toHaveLength(vids.length);
    expect(sentGoals.every((g) => g.visitor && /^[A-Za-z0-9_-]{16}$/.test(g.visitor) && !g.visitor.includes(ip))).toBe(
      true,
    );
    await countViews(sink);
    const r = await results(x);
    expect(visitorsOf(r)).toBe(ADDRESS_DAILY_EXPOSURES);
    expect(r.variants.reduce((sum, v) => sum + v.conversions, 0)).toBe(ADDRESS_DAILY_EXPOSURES);
    expect(await rowsOf("visitor_goals", "user_id = ?1", x.userId)).toBe(ADDRESS_DAILY_GOALS);
  });

  it(`keep at most ${ADDRESS_DAILY_GOALS} new goals from one address a day`, async () => {
    const x = await customerWithExperiment();
    const vids = invented(60, "goal");
    await countViews([goals(vids.map((vid) => goal(x, vid, "goal-address")))]);
    expect(await rowsOf("visitor_goals", "user_id = ?1", x.userId)).toBe(ADDRESS_DAILY_GOALS);
    // Another address: 5 goals known already (they move their time, adding no row) and 5 new ones.
    const again = [...vids.slice(0, 5), ...vids.slice(40, 45)];
    await countViews([goals(again.map((vid) => goal(x, vid, "goal-address-2")))]);
    expect(await rowsOf("visitor_goals", "user_id = ?1", x.userId)).toBe(ADDRESS_DAILY_GOALS + 5);
  });

  it(`keep goals only of exposed visitors once ${UNEXPOSED_GOAL_HOURS} hours have passed`, async () => {
    const x = await customerWithExperiment();
    const [seen, unseen, recent] = invented(3, "wait");
    const old = Date.now() - (UNEXPOSED_GOAL_HOURS + 1) * 3_600_000;
    await countViews([exposure(x, seen!, "wait-address", "A", old - 1)]);
    await countViews([
      goals([
        { ...goal(x, seen!, "wait-address"), timestamp: old },
        { ...goal(x, unseen!, "wait-address"), timestamp: old },
        goal(x, recent!, "wait-address"),
      ]),
    ]);
    expect(await purgeUnexposedGoals(env, new Date())).toBe(1);
    const { results: left } = await env.DB.prepare(
      "SELECT visitor FROM visitor_goals WHERE user_id = ?1 ORDER BY visitor",
    )
      .bind(x.userId)
      .all<{ visitor: string }>();
    expect(left.map((row) => row.visitor)).toEqual([recent, seen].sort());
  });

  it("move the results by the bounded number a day at most, and the results warn when one address carries them", async () => {
    const x = await customerWithExperiment();
    // 60 real visitors from 60 addresses, half of them in B; 6 of each variant convert.
    const real = invented(60, "real").map((vid, i) => exposure(x, vid, `home-${i}`, i % 2 ? "B" : "A"));
    await countViews(real);
    await countViews([goals(real.slice(0, 12).map((view, i) => goal(x, view.vid!, `home-${i}`)))]);
    const honest = await results(x);
    expect(honest.concentrated).toBe(false);

    // One address invents 200 ids, keeps those that got B, and converts them all.
    const forged = invented(200, "forged").map((vid) => exposure(x, vid, "forger", "B"));
    await countViews(forged);
    await countViews([goals(forged.map((view) => goal(x, view.vid!, "forger")))]);
    const after = await results(x);
    const b = after.variants.find((v) => v.key === "B")!;
    const bBefore = honest.variants.find((v) => v.key === "B")!;
    expect(b.visitors - bBefore.visitors).toBe(ADDRESS_DAILY_EXPOSURES);
    expect(b.conversions - bBefore.conversions).toBe(ADDRESS_DAILY_EXPOSURES);
    expect(b.topAddressConversionShare).toBeCloseTo(ADDRESS_DAILY_EXPOSURES / b.conversions, 12);
    expect(b.topAddressVisitorShare).toBeCloseTo(ADDRESS_DAILY_EXPOSURES / b.visitors, 12);
    expect(after.concentrated).toBe(true);
  });

  it("count at most the plan's visitors over all of a customer's experiments; past it the sample is full", async () => {
    const x = await customerWithExperiment();
    // The default plan (Free): 1,000 content deliveries a period, so 5,000 visitors.
    const cap = experimentVisitorCap(1_000);
    expect(cap).toBe(5_000);
    await countViews(invented(2, "first").map((vid, i) => exposure(x, vid, `first-${i}`)));
    // As if the customer's experiments had counted all but 3 of their visitors.
    await env.DB.prepare("UPDATE experiment_runs SET visitors = visitors + ?2 WHERE experiment = ?1")
      .bind(x.experiment, cap - 5)
      .run();
    expect(await results(x)).toMatchObject({ sampleFull: false, visitorCap: cap });
    await countViews(invented(10, "late").map((vid, i) => exposure(x, vid, `late-${i}`)));
    expect(await rowsOf("experiment_exposures", "experiment = ?1", x.experiment)).toBe(5);
    expect(await results(x)).toMatchObject({ sampleFull: true, visitorCap: cap });
    // Another of the customer's experiments shares the cap: nothing more is counted.
    const res = await postAbTest(x.apiKey, "https://shop.test/other", ["signup"]);
    const other = (await res.json()) as Mapping;
    const row = await env.DB.prepare("SELECT experiment ->> '$.id' AS id FROM url_mappings WHERE id = ?1")
      .bind(other.id)
      .first<{ id: string }>();
    const second = { ...x, mapping: other, experiment: row!.id };
    await countViews(invented(4, "second").map((vid, i) => exposure(second, vid, `second-${i}`)));
    expect(await rowsOf("experiment_exposures", "experiment = ?1", second.experiment)).toBe(0);
  });

  it("let a plan's experiments count 5 times its smallest limit, between 1,000 and 50,000 visitors", () => {
    expect(experimentVisitorCap(100)).toBe(EXPERIMENT_MIN_VISITORS);
    expect(experimentVisitorCap(4_000)).toBe(20_000);
    expect(experimentVisitorCap(1_000_000)).toBe(EXPERIMENT_MAX_VISITORS);
    expect(experimentVisitorCap(null)).toBe(EXPERIMENT_MAX_VISITORS);
  });

  it(`are purged ${EXPERIMENT_RETENTION_DAYS} days after the experiment ended, in chunks; a running one stays`, async () => {
    const ended = await customerWithExperiment();
    const running = await customerWithExperiment();
    // Counted today; the purges below run on later days (views older than the ledger's window are not counted).
    const today = Date.now();
    for (const x of [ended, running]) {
      const views = invented(6, "old").map((vid, i) => exposure(x, vid, `old-${i}`, i % 2 ? "B" : "A", today));
      await countViews(views);
      await countViews([
        goals(views.slice(0, 2).map((view, i) => ({ ...goal(x, view.vid!, `old-${i}`), timestamp: today + 1 }))),
      ]);
    }
    const stopped = await call(`/api/mappings/${ended.mapping.id}`, {
      method: "PATCH",
      apiKey: ended.apiKey,
      json: { variants: null },
    });
    expect(stopped.status).toBe(200);
    const rowsOfRun = async (x: Experiment) =>
      (await rowsOf("experiment_exposures", "experiment = ?1", x.experiment)) +
      (await rowsOf("experiment_conversions", "experiment = ?1", x.experiment)) +
      (await rowsOf("experiment_stats", "experiment = ?1", x.experiment));
    // 6 exposures, 2 conversions, 2 visitors' rows and 1 or 2 conversions' rows.
    const before = await rowsOfRun(ended);
    expect(before).toBeGreaterThanOrEqual(11);

    // Not yet: the run was seen within the retention.
    expect(await purgeEndedExperiments(env, new Date(today + EXPERIMENT_RETENTION_DAYS * DAY_MS - DAY_MS))).toBe(0);
    // Three rows a run of the cron: the purge goes on where the last one stopped.
    const now = new Date(today + (EXPERIMENT_RETENTION_DAYS + 1) * DAY_MS);
    expect(await purgeEndedExperiments(env, now, 3)).toBe(3);
    expect(await rowsOfRun(ended)).toBe(before - 3);
    let runs = 1;
    while ((await purgeEndedExperiments(env, now, 3)) > 0) runs++;
    expect(runs).toBe(Math.ceil(before / 3));
    expect(await rowsOfRun(ended)).toBe(0);
    expect(await rowsOf("experiment_runs", "experiment = ?1", ended.experiment)).toBe(0);
    // The running experiment keeps everything, and counts as seen now.
    expect(await rowsOfRun(running)).toBe(before);
    const seen = await env.DB.prepare("SELECT last_seen FROM experiment_runs WHERE experiment = ?1")
      .bind(running.experiment)
      .first<{ last_seen: number }>();
    expect(seen!.last_seen).toBe(now.getTime());
  });

  it("take at most the bytes docs/scaling.md gives them per row, measured in a fresh database at the longest ids and names", async () => {
    // D1 answers neither dbstat nor page counts, so the tables are made as D1 has them (its own DDL, without the
    // foreign keys, which take no room) in a fresh Durable Object's SQLite, whose size is read before and after.
    const tables = [
      "experiment_exposures",
      "experiment_conversions",
      "visitor_goals",
      "experiment_stats",
      "experiment_runs",
    ] as const;
    const { results: ddl } = await env.DB.prepare(
      `SELECT sql FROM sqlite_master WHERE tbl_name IN (SELECT value FROM json_each(?1)) AND sql IS NOT NULL
      ORDER BY type DESC`,
    )
      .bind(JSON.stringify(tables))
      .all<{ sql: string }>();
    const rows = 5_000;
    // The longest of each: a 16-character user id and experiment id, a 64-character visitor id, a 32-character
    // variant key, a 64-character goal name, the 16-character address hash; one row of each kind per visitor.
    const variant = "V".repeat(32);
    const goalName = "g".repeat(64);
    const fill: Record<string, [string, ...string[]]> = {
      experiment_exposures: [
        `INSERT INTO experiment_exposures (experiment, visitor, user_id, mapping_id, variant, first_seen, address)
        SELECT 'e' || printf('%015d', 1), printf('%064d', i), 'u' || printf('%015d', 1), 2147483647, ?1,
          1700000000000 + i, printf('%016d', i / 20) FROM n`,
        variant,
      ],
      experiment_conversions: [
        `INSERT INTO experiment_conversions (experiment, visitor, goal, user_id, variant)
        SELECT 'e' || printf('%015d', 1), printf('%064d', i), ?2, 'u' || printf('%015d', 1), ?1 FROM n`,
        variant,
        goalName,
      ],
      visitor_goals: [
        `INSERT INTO visitor_goals (user_id, visitor, goal, last_at, address)
        SELECT 'u' || printf('%015d', 1), printf('%064d', i), ?1, 1700000000000 + i, printf('%016d', i / 20) FROM n`,
        goalName,
      ],
      // At worst a visitor is the only one of a run of their own, with a row per goal they converted on.
      experiment_stats: [
        `INSERT INTO experiment_stats (experiment, variant, goal, user_id, count, top_address)
        SELECT printf('%016d', i), ?1, ?2, 'u' || printf('%015d', 1), 2147483647, 2147483647 FROM n`,
        variant,
        goalName,
      ],
      experiment_runs: [
        `INSERT INTO experiment_runs (experiment, user_id, mapping_id, visitors, visitors_before, counted_seq, last_seen)
        SELECT printf('%016d', i), 'u' || printf('%015d', 1), 2147483647, 2147483647, 2147483647, 2147483647,
          1700000000000 + i FROM n`,
      ],
    };
    const stub = env.ANALYTICS_REDUCER.get(env.ANALYTICS_REDUCER.newUniqueId());
    const measured = await runInDurableObject(stub, (_: unknown, state: DurableObjectState) => {
      const sql = state.storage.sql;
      const withoutForeignKeys = (create: string) =>
        create.replace(/,\s*(CONSTRAINT\s+\S+\s+)?FOREIGN KEY\s*\([^)]*\)\s*REFERENCES\s*[^(]+\([^)]*\)[^,)]*/gi, "");
      for (const { sql: create } of ddl) sql.exec(withoutForeignKeys(create));
      const bytes = {} as Record<(typeof tables)[number], number>;
      for (const table of tables) {
        const before = sql.databaseSize;
        const [insert, ...values] = fill[table]!;
        sql.exec(
          `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${rows}) ${insert}`,
          ...values,
        );
        bytes[table] = (sql.databaseSize - before) / rows;
      }
      return bytes;
    });
    console.log("experiment rows, bytes per row with their index entries", measured);
    expect(measured.experiment_exposures).toBeGreaterThan(100);
    expect(measured.experiment_exposures).toBeLessThanOrEqual(EXPOSURE_ROW_BYTES);
    expect(measured.experiment_conversions).toBeLessThanOrEqual(CONVERSION_ROW_BYTES);
    expect(measured.visitor_goals).toBeLessThanOrEqual(GOAL_ROW_BYTES);
    expect(measured.experiment_stats).toBeLessThanOrEqual(STATS_ROW_BYTES);
    expect(measured.experiment_runs).toBeLessThanOrEqual(RUN_ROW_BYTES);
    // The worst visitor: exposed, converted on each of an experiment's 10 goals, alone in a run of their own.
    const perVisitor =
      measured.experiment_exposures +
      GOALS_MAX * (measured.experiment_conversions + measured.visitor_goals) +
      (GOALS_MAX + 1) * measured.experiment_stats +
      measured.experiment_runs;
    expect(experimentVisitorCap(1_000) * perVisitor).toBeLessThanOrEqual(FREE_WORST_BYTES);
    expect(experimentVisitorCap(null) * perVisitor).toBeLessThanOrEqual(LARGEST_WORST_BYTES);
  });
});
