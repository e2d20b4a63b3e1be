/**
 * @module What one variant's figures for a goal say, as a plain sentence (docs/experiments.md): how much better or
 * worse it converts than the control, and how likely it is to be better. Whole percents; a probability is never
 * rounded to a certainty it is not (0 % or 100 %).
 */
import type { VariantGoalResult } from "#contract/experiments";

export type ExperimentLanguage = "en" | "de";

const SENTENCES = {
  en: {
    noData: "Not enough data yet.",
    better: (key: string, control: string, uplift: number, chance: number) =>
      `${key} converts ${uplift} % better than ${control}; ${chance} % likely to be better.`,
    worse: (key: string, control: string, uplift: number, chance: number) =>
      `${key} converts ${uplift} % worse than ${control}; ${chance} % likely to be better.`,
    same: (key: string, control: string, chance: number) =>
      `${key} converts as well as ${control}; ${chance} % likely to be better.`,
  },
  de: {
    noData: "Noch nicht genug Daten.",
    better: (key: string, control: string, uplift: number, chance: number) =>
      `${key} konvertiert ${uplift} % besser als ${control}; mit ${chance} % Wahrscheinlichkeit besser.`,
    worse: (key: string, control: string, uplift: number, chance: number) =>
      `${key} konvertiert ${uplift} % schlechter als ${control}; mit ${chance} % Wahrscheinlichkeit besser.`,
    same: (key: string, control: string, chance: number) =>
      `${key} konvertiert so gut wie ${control}; mit ${chance} % Wahrscheinlichkeit besser.`,
  },
} as const;

/** A probability as whole percents, kept within 1 to 99 unless it is exactly 0 or 1. */
export function chancePercent(probability: number): number {
  const percent = Math.round(probability * 100);
  if (probability > 0 && probability < 1) return Math.min(99, Math.max(1, percent));
  return percent;
}

/**
 * The sentence for a non-control variant's result against the control `controlKey`: "B converts 12 % better than
 * A; 97 % likely to be better.", or "Not enough data yet." while the uplift or the probability is unknown.
 */
export function experimentSentence(
  result: Pick<VariantGoalResult, "key" | "uplift" | "probabilityToBeatControl" | "visitors">,
  controlKey: string,
  lang: ExperimentLanguage = "en",
): string {
  const text = SENTENCES[lang];
  const { key, uplift, probabilityToBeatControl: probability } = result;
  if (uplift === null || probability === null || result.visitors === 0) return text.noData;
  const percent = Math.round(Math.abs(uplift) * 100);
  const chance = chancePercent(probability);
  if (percent === 0) return text.same(key, controlKey, chance);
  return uplift > 0 ? text.better(key, controlKey, percent, chance) : text.worse(key, controlKey, percent, chance);
}
