/**
 * @module The figures of an experiment's results (`GET /api/mappings/{id}/experiment`, contract/experiments.ts):
 * per variant and goal the rate, the uplift on the control's rate with its 95 % confidence interval, and the
 * posterior probability of beating the control; and the sample-ratio check of the visitors' split. Pure
 * functions of the counts.
 */
import {
  CONCENTRATION_MIN_COUNT,
  CONCENTRATION_SHARE,
  SRM_P_THRESHOLD,
  type ExperimentResults,
  type SampleRatioCheck,
} from "#contract/experiments";
import { gammaQ, logBeta, normalCdf } from "./special-functions";

/** One variant's counts for one goal. */
export interface Arm {
  visitors: number;
  conversions: number;
}

interface BetaDistribution {
  alpha: number;
  beta: number;
}

/**
 * Past this many terms in the exact sum (that is, once both variants have this many conversions and as many
 * non-conversions) the normal approximation is used: its error is then below 5e-5, and the sum's cost grows
 * with the counts, once per variant and goal.
 */
const EXACT_TERMS_MAX = 2_000;
const Z_95 = 1.959964;

/** Goals and page views are counted apart, so a conversion may be counted a moment before its visitor is. */
function consistent({ visitors, conversions }: Arm): Arm {
  return { visitors, conversions: Math.min(conversions, visitors) };
}

/** The posterior of a rate from a uniform Beta(1, 1) prior. */
function posterior(arm: Arm): BetaDistribution {
  const { visitors, conversions } = consistent(arm);
  return { alpha: 1 + conversions, beta: 1 + visitors - conversions };
}

/** The distribution of 1 - p: p > q exactly when 1 - q > 1 - p. */
function mirror({ alpha, beta }: BetaDistribution): BetaDistribution {
  return { alpha: beta, beta: alpha };
}

/**
 * P(p_b > p_a), exactly, by Evan Miller's sum over i < b.alpha of B(a.alpha + i, a.beta + b.beta) /
 * ((b.beta + i) B(1 + i, b.beta) B(a.alpha, a.beta)). Each term is the one before times a ratio of whole numbers,
 * so only the first needs log-beta; all are positive, and no term exceeds the sum, a probability.
 */
function exactProbability(a: BetaDistribution, b: BetaDistribution): number {
  let logTerm = logBeta(a.alpha, a.beta + b.beta) - logBeta(a.alpha, a.beta);
  let sum = 0;
  for (let i = 0; i < b.alpha; i++) {
    sum += Math.exp(logTerm);
    logTerm += Math.log(((a.alpha + i) * (b.beta + i)) / ((a.alpha + a.beta + b.beta + i) * (1 + i)));
  }
  return sum;
}

function normalProbability(a: BetaDistribution, b: BetaDistribution): number {
  const mean = ({ alpha, beta }: BetaDistribution) => alpha / (alpha + beta);
  const variance = ({ alpha, beta }: BetaDistribution) => (alpha * beta) / ((alpha + beta) ** 2 * (alpha + beta + 1));
  return normalCdf((mean(b) - mean(a)) / Math.sqrt(variance(a) + variance(b)));
}

/**
 * The posterior probability that the variant's rate is above the control's, each rate ~ Beta(1 + conversions,
 * 1 + visitors - conversions). The exact sum runs over whichever of the four parameters is smallest (by symmetry
 * and by mirroring both rates), so it stays short while either variant converts rarely or almost always.
 */
export function probabilityToBeat(control: Arm, variant: Arm): number {
  const a = posterior(control);
  const b = posterior(variant);
  const shortest = Math.min(a.alpha, a.beta, b.alpha, b.beta);
  let probability: number;
  if (shortest > EXACT_TERMS_MAX) probability = normalProbability(a, b);
  else if (shortest === b.alpha) probability = exactProbability(a, b);
  else if (shortest === a.alpha) probability = 1 - exactProbability(b, a);
  else if (shortest === a.beta) probability = exactProbability(mirror(b), mirror(a));
  else probability = 1 - exactProbability(mirror(a), mirror(b));
  return Math.min(1, Math.max(0, probability));
}

/**
 * The variant's rate relative to the control's (0.12: 12 % better), with a 95 % confidence interval from the
 * delta method on the log of the ratio, which keeps the interval's lower end above -100 %. Null while either
 * rate is 0 or undefined (no visitors): a ratio of them means nothing then.
 */
export function relativeUplift(control: Arm, variant: Arm): { uplift: number; ci95: [number, number] } | null {
  const c = consistent(control);
  const v = consistent(variant);
  if (c.conversions <= 0 || v.conversions <= 0) return null;
  const rateC = c.conversions / c.visitors;
  const rateV = v.conversions / v.visitors;
  const logRatio = Math.log(rateV / rateC);
  const se = Math.sqrt((1 - rateV) / (v.visitors * rateV) + (1 - rateC) / (c.visitors * rateC));
  return {
    uplift: rateV / rateC - 1,
    ci95: [Math.exp(logRatio - Z_95 * se) - 1, Math.exp(logRatio + Z_95 * se) - 1],
  };
}

/**
 * Pearson's chi-square test of the visitors per variant against the split the weights ask for (k - 1 degrees
 * of freedom); a p-value under SRM_P_THRESHOLD says assignment or counting is broken. Nothing to test without
 * visitors.
 */
export function sampleRatioMismatch(visitors: readonly number[], weights: readonly number[]): SampleRatioCheck {
  if (visitors.length !== weights.length) throw new RangeError("One weight per variant's count");
  const total = visitors.reduce((sum, count) => sum + count, 0);
  if (total === 0 || visitors.length < 2) return { pValue: 1, ok: true };
  const weightTotal = weights.reduce((sum, weight) => sum + weight, 0);
  const chiSquare = visitors.reduce((sum, observed, i) => {
    const expected = (total * weights[i]!) / weightTotal;
    return sum + (observed - expected) ** 2 / expected;
  }, 0);
  const pValue = gammaQ((visitors.length - 1) / 2, chiSquare / 2);
  return { pValue, ok: pValue >= SRM_P_THRESHOLD };
}

/** What an experiment's results are made of. */
export interface ExperimentCounts {
  /** In the experiment's order; the first is the control. */
  variants: readonly { key: string; weight: number; visitors: number }[];
  goals: readonly string[];
  /** The variant's visitors who reached the goal: a lookup, so that a Map or a query's rows can answer it. */
  conversions: (key: string, goal: string) => number;
  /** Of the variant's visitors, and of its conversions on a goal, the most one address brought in a day (absent: 0). */
  topAddress?: (key: string, goal: string | null) => number;
}

/** Whether one address's share of a count is large enough to warn about (`CONCENTRATION_SHARE`). */
const concentrated = (top: number, count: number) =>
  top >= CONCENTRATION_MIN_COUNT && count > 0 && top / count >= CONCENTRATION_SHARE;

/** The results' figures: per variant in order, per goal in order; the control's comparisons are null. */
export function experimentResults(
  counts: ExperimentCounts,
): Pick<ExperimentResults, "variants" | "srm" | "concentrated"> {
  const [control] = counts.variants;
  const topAddress = counts.topAddress ?? (() => 0);
  let warn = false;
  const variants = counts.variants.flatMap((variant) =>
    counts.goals.map((goal) => {
      const arm = consistent({ visitors: variant.visitors, conversions: counts.conversions(variant.key, goal) });
      const rate = arm.visitors ? arm.conversions / arm.visitors : 0;
      const topVisitors = Math.min(topAddress(variant.key, null), arm.visitors);
      const topConversions = Math.min(topAddress(variant.key, goal), arm.conversions);
      warn ||= concentrated(topVisitors, arm.visitors) || concentrated(topConversions, arm.conversions);
      const shares = {
        topAddressVisitorShare: arm.visitors ? topVisitors / arm.visitors : 0,
        topAddressConversionShare: arm.conversions ? topConversions / arm.conversions : 0,
      };
      if (variant === control) {
        return {
          key: variant.key,
          goal,
          ...arm,
          rate,
          uplift: null,
          upliftCi95: null,
          probabilityToBeatControl: null,
          ...shares,
        };
      }
      const controlArm = consistent({
        visitors: control!.visitors,
        conversions: counts.conversions(control!.key, goal),
      });
      const uplift = relativeUplift(controlArm, arm);
      return {
        key: variant.key,
        goal,
        ...arm,
        rate,
        uplift: uplift?.uplift ?? null,
        upliftCi95: uplift?.ci95 ?? null,
        // Without a visitor on either side there is nothing to compare: the prior alone would answer.
        probabilityToBeatControl: arm.visitors && controlArm.visitors ? probabilityToBeat(controlArm, arm) : null,
        ...shares,
      };
    }),
  );
  return {
    variants,
    concentrated: warn,
    srm: sampleRatioMismatch(
      counts.variants.map((v) => v.visitors),
      counts.variants.map((v) => v.weight),
    ),
  };
}
