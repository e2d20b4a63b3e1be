/**
 * @module The experiment editor's state and what it sends (docs/experiments.md): the variants as rows (the first
 * the control, without HTML of its own: it shows the mapping's), the goals as comma-separated text. A new experiment
 * starts with A and B at 50/50. A variant's placement and SEO fields have no inputs; those the API answered are
 * kept and sent back as they were.
 */
import type { Mapping } from "#contract/responses";
// Types only: the experiments' module holds zod, which loads with the schemas (lib/contract-schemas.ts).
import type { VariantInput } from "#contract/experiments";
import type { ExperimentFields } from "@/queries/mappings";

export interface VariantRow {
  key: string;
  /** The input's text: a whole number from 1 to 99 once checked. */
  weight: string;
  /** Unused on the control. */
  htmlContent: string;
  placement?: VariantInput["placement"];
  seo?: VariantInput["seo"];
}

export interface ExperimentInput {
  /** "Run an experiment" checked (false: no experiment, or stopping the one that runs). */
  running: boolean;
  variants: VariantRow[];
  goals: string;
}

/** The experiment fields of a mapping's body: `variants: null` stops the experiment. */
export type ExperimentBody = ExperimentFields;

export const NO_EXPERIMENT: ExperimentInput = { running: false, variants: [], goals: "" };

const KEYS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** Weights as even as whole numbers allow, the first ones taking what is left over: 50/50, 34/33/33, … */
function evenWeights(count: number): string[] {
  return Array.from({ length: count }, (_, i) => String(Math.floor(100 / count) + (i < 100 % count ? 1 : 0)));
}

/** A new experiment: the control A and the variant B (its HTML `html` to begin with), 50/50. */
export function startExperiment(html = ""): ExperimentInput {
  return {
    running: true,
    variants: [
      { key: "A", weight: "50", htmlContent: "" },
      { key: "B", weight: "50", htmlContent: html },
    ],
    goals: "",
  };
}

/** One more variant, named by the first letter not taken, and the weights evened out again. */
export function addVariant(input: ExperimentInput): ExperimentInput {
  const taken = new Set(input.variants.map((v) => v.key.trim().toUpperCase()));
  const key = [...KEYS].find((letter) => !taken.has(letter)) ?? "";
  return rebalance({ ...input, variants: [...input.variants, { key, weight: "", htmlContent: "" }] });
}

/** Without the variant at `index` (never the control), the weights evened out again. */
export function removeVariant(input: ExperimentInput, index: number): ExperimentInput {
  if (index === 0) return input;
  return rebalance({ ...input, variants: input.variants.filter((_, i) => i !== index) });
}

function rebalance(input: ExperimentInput): ExperimentInput {
  const weights = evenWeights(input.variants.length);
  return { ...input, variants: input.variants.map((v, i) => ({ ...v, weight: weights[i]! })) };
}

/** The mapping's experiment as the editor shows it (none: `NO_EXPERIMENT`). */
export function experimentOf(mapping: Mapping): ExperimentInput {
  if (!mapping.variants?.length) return NO_EXPERIMENT;
  return {
    running: true,
    variants: mapping.variants.map(({ key, weight, htmlContent, placement, seo }, i) => ({
      key,
      weight: String(weight),
      htmlContent: i === 0 ? "" : htmlContent,
      ...(placement ? { placement } : {}),
      ...(seo ? { seo } : {}),
    })),
    goals: (mapping.goals ?? []).join(", "),
  };
}

/** A weight's text as a number; an empty input is not 0 but no number at all, which the schema names. */
const weightOf = (text: string) => (text.trim() === "" ? Number.NaN : Number(text));

export const goalNames = (text: string) =>
  text
    .split(",")
    .map((goal) => goal.trim())
    .filter((goal) => goal !== "");

/** The variants and goals to send for a running experiment, as the schemas read them (the control without HTML). */
export function experimentFields(input: ExperimentInput): Required<ExperimentBody> & { variants: VariantInput[] } {
  return {
    variants: input.variants.map(({ key, weight, htmlContent, placement, seo }, i) => ({
      key,
      weight: weightOf(weight),
      ...(i === 0 ? {} : { htmlContent }),
      ...(placement ? { placement } : {}),
      ...(seo ? { seo } : {}),
    })),
    goals: goalNames(input.goals),
  };
}

/** A new mapping's experiment fields: none unless "Run an experiment" is checked. */
export const experimentBody = (input: ExperimentInput): ExperimentBody =>
  input.running ? experimentFields(input) : {};

/**
 * What a change sends of the experiment (`before` is `experimentOf` the mapping): nothing when nothing changed,
 * `variants: null` to stop it, else the variants and goals whole.
 */
export function experimentChange(before: ExperimentInput, after: ExperimentInput): ExperimentBody {
  if (!after.running) return before.running ? { variants: null } : {};
  const fields = experimentFields(after);
  const same = before.running && JSON.stringify(experimentFields(before)) === JSON.stringify(fields);
  return same ? {} : fields;
}
