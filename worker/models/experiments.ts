/**
 * @module A mapping's experiment (docs/experiments.md): what a create or change makes of the `variants` and `goals`
 * sent, how a mapping's answer shows them, and the counts its results are computed from. The experiment lives in
 * the mapping's `experiment` column, so drafts, schedules and versions carry it; the control's HTML is the mapping's.
 */
import { and, eq, sql } from "drizzle-orm";
import {
  EXPERIMENT_MAX_BYTES,
  EXPERIMENT_TOO_LARGE,
  experimentVisitorCap,
  GOALS_NEEDED,
  type ExperimentResults,
  type SegmentDimension,
  type SegmentedResults,
  type StoredExperiment,
  type Variant,
  type VariantInput,
} from "#contract/experiments";
import { utf8Length } from "#contract/input-caps";
import type { Db } from "../db/client";
import { experimentRuns, experimentSegmentStats, experimentStats } from "../db/schema";
import { OTHER_SEGMENTS, segmentName, TOP_SEGMENTS } from "#contract/segments";
import { experimentResults } from "../lib/experiment-statistics";
import { Refusal } from "../lib/refusal";
import { deliveryLimitStates, smallestLimitOf } from "./limits";

/** What a create or change sends of an experiment: absent fields change nothing, `variants: null` stops it. */
export interface ExperimentInput {
  variants?: VariantInput[] | null;
  goals?: string[];
}

/** What saving the input does to the mapping: its experiment, and the control's HTML when a variant sent it. */
export interface ExperimentChange {
  experiment: StoredExperiment | null;
  htmlContent?: string;
}

const sameKeys = (a: StoredExperiment, b: VariantInput[]) =>
  a.variants.length === b.length && a.variants.every((v, i) => v.key === b[i]!.key);

/** A new run's id: visitors are assigned and counted per id. */
export const newExperimentId = () => crypto.randomUUID().replaceAll("-", "").slice(0, 16);

/**
 * The mapping's experiment after `input`, or undefined when the input does not touch it. A change that keeps the
 * variants' keys keeps the run (its id, its visitors and counts: a typo fixed in a variant, a weight moved); other
 * keys start a new run. `htmlContent` is the mapping's own HTML in the same request, if sent: the control's, which
 * the first variant may also send (not both, differently).
 */
export function experimentChange(
  input: ExperimentInput,
  current: StoredExperiment | null,
  htmlContent: string | undefined,
  now: Date,
): ExperimentChange | undefined {
  const { variants, goals } = input;
  if (variants === undefined && goals === undefined) return undefined;
  if (variants === null) return { experiment: null };
  if (variants === undefined) {
    if (!current) throw new Refusal(400, "This mapping runs no experiment: send variants to start one");
    if (goals!.length === 0) throw new Refusal(400, GOALS_NEEDED);
    return { experiment: { ...current, goals: goals! } };
  }
  const measured = goals ?? current?.goals ?? [];
  if (measured.length === 0) throw new Refusal(400, GOALS_NEEDED);
  const control = variants[0]!.htmlContent;
  if (control !== undefined && htmlContent !== undefined && control !== htmlContent) {
    throw new Refusal(400, "The first variant is the control, whose HTML is the mapping's htmlContent: send it once");
  }
  const keep = current && sameKeys(current, variants) ? current : null;
  const experiment: StoredExperiment = {
    id: keep?.id ?? newExperimentId(),
    variants: variants.map(({ htmlContent: html, ...variant }, i) => ({
      ...variant,
      ...(i === 0 || html === undefined ? {} : { htmlContent: html }),
    })),
    goals: measured,
    startedAt: keep?.startedAt ?? now.getTime(),
  };
  if (utf8Length(JSON.stringify(experiment)) > EXPERIMENT_MAX_BYTES) throw new Refusal(400, EXPERIMENT_TOO_LARGE);
  return { experiment, ...(control === undefined ? {} : { htmlContent: control }) };
}

/** A mapping's variants as the API answers them: the control with the mapping's HTML. */
export const answeredVariants = (experiment: StoredExperiment, htmlContent: string): Variant[] =>
  experiment.variants.map((v, i) => ({ ...v, htmlContent: i === 0 ? htmlContent : v.htmlContent! }));

/** The fields a mapping's answer carries for its experiment: none without one. */
export const experimentAnswer = (experiment: StoredExperiment | null, htmlContent: string) =>
  experiment ? { variants: answeredVariants(experiment, htmlContent), goals: experiment.goals } : {};

/** The stats row of a variant's visitors (`goal` is '' there). */
export const VISITORS_ROW = "";

/** An experiment's counts: visitors per variant, conversions per variant and goal (one primary-key range). */
export async function experimentCounts(db: Db, userId: string, experimentId: string) {
  const rows = await db
    .select({
      variant: experimentStats.variant,
      goal: experimentStats.goal,
      count: experimentStats.count,
      topAddress: experimentStats.topAddress,
    })
    .from(experimentStats)
    .where(and(eq(experimentStats.experiment, experimentId), eq(experimentStats.userId, userId)));
  const visitors = new Map<string, number>();
  const conversions = new Map<string, number>();
  const top = new Map<string, number>();
  for (const row of rows) {
    if (row.goal === VISITORS_ROW) visitors.set(row.variant, row.count);
    else conversions.set(`${row.variant}\u0000${row.goal}`, row.count);
    top.set(`${row.variant}\u0000${row.goal}`, row.topAddress);
  }
  return {
    visitors: (variant: string) => visitors.get(variant) ?? 0,
    conversions: (variant: string, goal: string) => conversions.get(`${variant}\u0000${goal}`) ?? 0,
    /** The most one address brought in a day: of the variant's visitors (goal null), or of its conversions. */
    topAddress: (variant: string, goal: string | null) => top.get(`${variant}\u0000${goal ?? VISITORS_ROW}`) ?? 0,
  };
}

/** The visitors the customer's kept experiment runs count together (their plan's `experimentVisitorCap` bounds it). */
async function keptExperimentVisitors(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ visitors: sql<number>`coalesce(sum(${experimentRuns.visitors}), 0)` })
    .from(experimentRuns)
    .where(eq(experimentRuns.userId, userId));
  return row?.visitors ?? 0;
}

/**
 * An experiment's figures per value of one segment dimension (docs/experiments.md, "Results by segment"): the
 * values with the most visitors, at most `TOP_SEGMENTS`, then the rest summed as `OTHER_SEGMENTS`. One primary-key
 * range of a bounded table: each dimension's values are a closed set.
 */
export async function segmentResults(
  db: Db,
  userId: string,
  experiment: StoredExperiment,
  dimension: SegmentDimension,
): Promise<SegmentedResults> {
  const rows = await db
    .select({
      variant: experimentSegmentStats.variant,
      goal: experimentSegmentStats.goal,
      value: experimentSegmentStats.value,
      count: experimentSegmentStats.count,
    })
    .from(experimentSegmentStats)
    .where(
      and(
        eq(experimentSegmentStats.experiment, experiment.id),
        eq(experimentSegmentStats.dimension, dimension),
        eq(experimentSegmentStats.userId, userId),
      ),
    );
  const visitorsOf = (counts: Map<string, number>) =>
    experiment.variants.reduce((sum, v) => sum + (counts.get(`${v.key}\u0000${VISITORS_ROW}`) ?? 0), 0);
  // Per value as named (codes no longer known are "other"): each variant's visitors and conversions per goal.
  const byValue = new Map<string, Map<string, number>>();
  for (const row of rows) {
    const name = segmentName(dimension, row.value);
    const counts = byValue.get(name) ?? new Map<string, number>();
    const key = `${row.variant}\u0000${row.goal}`;
    counts.set(key, (counts.get(key) ?? 0) + row.count);
    byValue.set(name, counts);
  }
  const ranked = [...byValue].sort(([a, x], [b, y]) => visitorsOf(y) - visitorsOf(x) || a.localeCompare(b));
  const top = ranked.filter(([name]) => name !== OTHER_SEGMENTS).slice(0, TOP_SEGMENTS);
  const rest = new Map<string, number>();
  for (const [name, counts] of ranked) {
    if (top.some(([kept]) => kept === name)) continue;
    for (const [key, count] of counts) rest.set(key, (rest.get(key) ?? 0) + count);
  }
  const shown = rest.size > 0 ? [...top, [OTHER_SEGMENTS, rest] as const] : top;
  return {
    dimension,
    values: shown.map(([value, counts]) => ({
      value,
      visitors: visitorsOf(counts),
      variants: experimentResults({
        variants: experiment.variants.map((v) => ({
          key: v.key,
          weight: v.weight,
          visitors: counts.get(`${v.key}\u0000${VISITORS_ROW}`) ?? 0,
        })),
        goals: experiment.goals,
        conversions: (key, goal) => counts.get(`${key}\u0000${goal}`) ?? 0,
      }).variants,
    })),
  };
}

/**
 * `GET /api/mappings/{id}/experiment`: the experiment's figures, computed from its counts; with `segment`, also per
 * value of that dimension.
 */
export async function experimentResultsOf(
  db: Db,
  userId: string,
  experiment: StoredExperiment,
  segment?: SegmentDimension,
): Promise<ExperimentResults> {
  const counts = await experimentCounts(db, userId, experiment.id);
  const [kept, [usage], segments] = await Promise.all([
    keptExperimentVisitors(db, userId),
    deliveryLimitStates(db, [userId]),
    segment ? segmentResults(db, userId, experiment, segment) : undefined,
  ]);
  const visitorCap = experimentVisitorCap(usage ? smallestLimitOf(usage) : null);
  const variants = experiment.variants.map((v) => ({ key: v.key, weight: v.weight, visitors: counts.visitors(v.key) }));
  const results = experimentResults({
    variants,
    goals: experiment.goals,
    conversions: counts.conversions,
    topAddress: counts.topAddress,
  });
  return {
    variants: results.variants,
    srm: results.srm,
    concentrated: results.concentrated,
    sampleFull: kept >= visitorCap,
    visitorCap,
    weights: experiment.variants.map((v) => ({ key: v.key, weight: v.weight })),
    goals: experiment.goals,
    startedAt: new Date(experiment.startedAt).toISOString(),
    ...(segments ? { segments } : {}),
  };
}
