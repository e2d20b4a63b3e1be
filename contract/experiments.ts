/**
 * @module Experiments (docs/experiments.md): a mapping may carry 2 to 5 variants of its content, shown to a split
 * of visitors, and the goals that say which variant converts. What a customer sends is checked here (the Worker
 * validates with these schemas, the SPA's forms use the same), and here are the answers' shapes.
 */
import { z } from "zod";
import { HTML_CONTENT_MAX_BYTES, HTML_CONTENT_TOO_LARGE, utf8Length } from "./input-caps";
import { placementSchema, type Placement } from "./placement";
import { seoSchema, type Seo } from "./seo";

export const VARIANTS_MIN = 2;
export const VARIANTS_MAX = 5;
export const GOALS_MAX = 10;
export const VARIANT_KEY_MAX_LENGTH = 32;
export const GOAL_NAME_MAX_LENGTH = 64;

/** A visitor's random id (the snippet's `vid`, the edge's cookie): 8 to 64 URL-safe characters. */
export const VISITOR_ID = /^[A-Za-z0-9_-]{8,64}$/;
/** The first-party cookie the edge proxy keeps a visitor's id in, on the customer's own hostname. */
export const VISITOR_COOKIE = "dc_vid";
/** The text form's header naming the variant a visitor got (`GET /api/content`). */
export const VARIANT_HEADER = "X-Variant";

const VARIANT_KEY = /^[A-Za-z0-9_-]+$/;
const GOAL_NAME = /^[A-Za-z0-9_.:-]+$/;

/**
 * An experiment as stored, variants' HTML and all, in UTF-8 bytes: 1 MB, so that a mapping's row (its own HTML of
 * up to 256 KB besides) stays within D1's 2 MB per row.
 */
export const EXPERIMENT_MAX_BYTES = 1024 * 1024;
export const EXPERIMENT_TOO_LARGE = "An experiment's variants must be at most 1 MB together (1,048,576 bytes)";

export const VARIANTS_COUNT = `An experiment has ${VARIANTS_MIN} to ${VARIANTS_MAX} variants`;
export const WEIGHTS_SUM = "The variants' weights must add up to 100";
export const VARIANT_KEYS_UNIQUE = "Each variant needs its own key";
export const GOALS_NEEDED = "Name at least one goal the experiment measures";

export const variantKeySchema = z
  .string({ error: "A variant's key must be text" })
  .trim()
  .min(1, "A variant needs a key")
  .max(VARIANT_KEY_MAX_LENGTH, `A variant's key must be at most ${VARIANT_KEY_MAX_LENGTH} characters`)
  .regex(VARIANT_KEY, "A variant's key may hold letters, digits, - and _ only");

export const goalNameSchema = z
  .string({ error: "A goal's name must be text" })
  .trim()
  .min(1, "A goal needs a name")
  .max(GOAL_NAME_MAX_LENGTH, `A goal's name must be at most ${GOAL_NAME_MAX_LENGTH} characters`)
  .regex(GOAL_NAME, "A goal's name may hold letters, digits, -, _, . and : only");

/**
 * One variant as sent. The first variant is the control: without `htmlContent` it shows the mapping's own HTML.
 * `placement` and `seo` are given where a variant differs from the mapping's.
 */
export const variantSchema = z.object({
  key: variantKeySchema,
  htmlContent: z
    .string({ error: "A variant's HTML content must be text" })
    .refine((html) => utf8Length(html) <= HTML_CONTENT_MAX_BYTES, HTML_CONTENT_TOO_LARGE)
    .optional(),
  weight: z
    .number({ error: "A variant's weight must be a number" })
    .int("A variant's weight must be a whole number")
    .min(1, "A variant's weight must be at least 1")
    .max(99, "A variant's weight must be at most 99"),
  placement: placementSchema.optional(),
  seo: seoSchema.optional(),
});

export const variantsSchema = z
  .array(variantSchema, { error: "Variants must be a list" })
  .min(VARIANTS_MIN, VARIANTS_COUNT)
  .max(VARIANTS_MAX, VARIANTS_COUNT)
  .superRefine((variants, ctx) => {
    if (variants.reduce((sum, v) => sum + v.weight, 0) !== 100) ctx.addIssue({ code: "custom", message: WEIGHTS_SUM });
    if (new Set(variants.map((v) => v.key.toLowerCase())).size !== variants.length) {
      ctx.addIssue({ code: "custom", message: VARIANT_KEYS_UNIQUE });
    }
    variants.slice(1).forEach((v, i) => {
      if (v.htmlContent === undefined) {
        ctx.addIssue({
          code: "custom",
          message: `Variant ${v.key} needs its HTML content`,
          path: [i + 1, "htmlContent"],
        });
      }
    });
  });

export const goalsSchema = z
  .array(goalNameSchema, { error: "Goals must be a list of names" })
  .max(GOALS_MAX, `An experiment measures at most ${GOALS_MAX} goals`)
  .transform((goals) => [...new Set(goals)]);

/**
 * A mapping's experiment fields, on create and `PATCH /api/mappings/{id}`: `variants` starts or changes one
 * (`null` stops it: the control's content stays), `goals` names what it measures.
 */
export const experimentFields = {
  variants: variantsSchema.nullable().optional(),
  goals: goalsSchema.optional(),
};

export type VariantInput = z.infer<typeof variantSchema>;

/** A variant as the API answers it (on a mapping with an experiment). */
export interface Variant {
  key: string;
  htmlContent: string;
  weight: number;
  /** Present where the variant's placement differs from the mapping's. */
  placement?: Placement;
  /** Present where the variant's SEO fields differ from the mapping's. */
  seo?: Seo;
}

/**
 * An experiment as a mapping keeps it (its `experiment` column, and so its versions): the control's HTML is the
 * mapping's own (`htmlContent` absent on the first variant). `id` names this run of the experiment: visitors are
 * assigned and counted per id, and a new set of variant keys starts a new one.
 */
export interface StoredExperiment {
  id: string;
  variants: StoredVariant[];
  goals: string[];
  /** Epoch ms. */
  startedAt: number;
}

export type StoredVariant = Omit<Variant, "htmlContent"> & { htmlContent?: string };

/** `POST /api/goals` (the snippet's `dynamicContent.goal(name)`): a visitor reached a goal. */
export const goalBody = z.object({
  u: z.string({ error: "u (user id) is required" }).min(1, "u (user id) is required").max(100, "Unknown user id"),
  vid: z
    .string({ error: "vid (visitor id) is required" })
    .regex(VISITOR_ID, "vid must be 8 to 64 letters, digits, - or _"),
  goal: goalNameSchema,
});

export type GoalBody = z.infer<typeof goalBody>;

/** `POST /api/mappings/{id}/experiment/promote`: the variant that becomes the mapping's content. */
export const promoteBody = z.object({ variant: variantKeySchema });

/** `POST /api/mappings/{id}/preview` may name the variant the link shows (absent: the control). */
export const previewBody = z.object({ variant: variantKeySchema.optional() });

/** One variant's figures for one goal (`GET /api/mappings/{id}/experiment`). */
export interface VariantGoalResult {
  key: string;
  goal: string;
  /** Visitors who saw this variant, each once. */
  visitors: number;
  /** Of them, those who reached the goal after seeing it, each once. */
  conversions: number;
  /** conversions / visitors (0 without visitors). */
  rate: number;
  /** The relative difference of `rate` against the control's (0.12: 12 % better); null for the control and while either rate is undefined. */
  uplift: number | null;
  /** The uplift's 95 % confidence interval; null where `uplift` is. */
  upliftCi95: [number, number] | null;
  /** The posterior probability (beta-binomial, uniform priors) that this variant's rate beats the control's; null for the control. */
  probabilityToBeatControl: number | null;
  /** The share of `visitors` one address brought in one day, the most any did (0 without visitors). */
  topAddressVisitorShare: number;
  /** The share of `conversions` of visitors that one address brought in one day, the most any did (0 without). */
  topAddressConversionShare: number;
}

/** Whether assignment went as the weights say: a chi-square test of visitors per variant against the weights. */
export interface SampleRatioCheck {
  pValue: number;
  /** False when pValue < SRM_P_THRESHOLD: the split is off, and the results are not to be trusted. */
  ok: boolean;
}

/** The p-value under which a sample-ratio mismatch is reported (the usual threshold of the field). */
export const SRM_P_THRESHOLD = 0.001;

/**
 * New visitors one address adds to an experiment a day, at most (an address is known by a keyed hash of the day and
 * the IP address, or IPv6 /64): whatever visitor ids it invents, the rest of its new ids are not counted.
 */
export const ADDRESS_DAILY_EXPOSURES = 20;
/** New goals (a visitor id and goal name) one address adds to a customer's a day, at most. */
export const ADDRESS_DAILY_GOALS = 20;
/**
 * Visitors a customer's experiments count together at most (the runs still kept: running, or ended within the
 * retention), on a plan without limits or a large one; past it the sample is full and new visitors are not counted.
 */
export const EXPERIMENT_MAX_VISITORS = 50_000;
/** The least a plan's experiments may count together. */
export const EXPERIMENT_MIN_VISITORS = 1_000;
/** A metered plan's experiments count together at most this many times its smallest limit (Free's 1,000: 5,000). */
export const EXPERIMENT_VISITORS_PER_LIMIT = 5;

/** The visitors a customer's experiments may count together, for their plan's smallest limit (null: none). */
export function experimentVisitorCap(limit: number | null): number {
  if (limit === null) return EXPERIMENT_MAX_VISITORS;
  return Math.min(EXPERIMENT_MAX_VISITORS, Math.max(EXPERIMENT_MIN_VISITORS, limit * EXPERIMENT_VISITORS_PER_LIMIT));
}
/**
 * The results warn (`concentrated`) when one address brought at least this share of a variant's visitors or of its
 * conversions on a goal, and at least `CONCENTRATION_MIN_COUNT` of them.
 */
export const CONCENTRATION_SHARE = 0.1;
export const CONCENTRATION_MIN_COUNT = 5;

/** `GET /api/mappings/{id}/experiment`. */
export interface ExperimentResults {
  /** Per variant (in the experiment's order) and goal (in the experiment's order). */
  variants: VariantGoalResult[];
  srm: SampleRatioCheck;
  /** The variants' keys and weights as the experiment runs them; the first is the control. */
  weights: { key: string; weight: number }[];
  goals: string[];
  startedAt: string;
  /**
   * True when one address carries a large share of a variant's visitors or conversions (`CONCENTRATION_SHARE`):
   * the results may have been forged or skewed by a few machines.
   */
  concentrated: boolean;
  /**
   * True once the customer's experiments count the visitors their plan keeps (`experimentVisitorCap`): later
   * visitors are not counted until ended experiments' rows are purged.
   */
  sampleFull: boolean;
  /** The visitors the customer's experiments may count together (`experimentVisitorCap`). */
  visitorCap: number;
  /** Only with `?segment=` (docs/experiments.md, "Results by segment"): the figures per segment value. */
  segments?: SegmentedResults;
}

/** What experiment results may be split by (docs/experiments.md, "Results by segment"; contract/segments.ts). */
export const SEGMENT_DIMENSIONS = ["device", "country", "referrer"] as const;
export type SegmentDimension = (typeof SEGMENT_DIMENSIONS)[number];

/** `GET /api/mappings/{id}/experiment?segment=device|country|referrer`. */
export const experimentResultsQuery = z.object({
  segment: z.enum(SEGMENT_DIMENSIONS, { error: `segment must be one of ${SEGMENT_DIMENSIONS.join(", ")}` }).optional(),
});

/** One segment value's figures: per variant and goal, as the whole experiment's. */
export interface SegmentResult {
  /** A device (`mobile`), a country code (`DE`, or `unknown`), a referrer type (`search`), or `other`. */
  value: string;
  /** Visitors of every variant in this segment. */
  visitors: number;
  variants: VariantGoalResult[];
}

/** The split the results answer with `?segment=`: the top values by visitors, then the rest as `other`. */
export interface SegmentedResults {
  dimension: SegmentDimension;
  values: SegmentResult[];
}
