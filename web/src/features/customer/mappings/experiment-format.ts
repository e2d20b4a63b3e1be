/**
 * @module The experiment results' numbers as text, in the screen's language: rates and uplifts as percents with one
 * decimal ("4.2 %", "+12.0 %"), probabilities as whole percents, the SRM check's p-value to four places.
 */
import { chancePercent, type ExperimentLanguage } from "./experiment-sentence";

const LOCALES = { en: "en-US", de: "de-DE" } as const;

const decimal = (lang: ExperimentLanguage, options: Intl.NumberFormatOptions) =>
  new Intl.NumberFormat(LOCALES[lang], { minimumFractionDigits: 1, maximumFractionDigits: 1, ...options });

export const formatCount = (value: number, lang: ExperimentLanguage) =>
  new Intl.NumberFormat(LOCALES[lang]).format(value);

/** A rate (0.042) as "4.2 %". */
export const formatRate = (rate: number, lang: ExperimentLanguage) => `${decimal(lang, {}).format(rate * 100)} %`;

/** An uplift (0.12, -0.08) as "+12.0 %", "-8.0 %". */
export const formatUplift = (uplift: number, lang: ExperimentLanguage) =>
  `${decimal(lang, { signDisplay: "exceptZero" }).format(uplift * 100)} %`;

export const formatChance = (probability: number) => `${chancePercent(probability)} %`;

/** The p-value as the SRM warning says it: "= 0.0003", or "< 0.0001" below what four places show. */
export function formatPValue(p: number, lang: ExperimentLanguage) {
  if (p < 0.0001) return `< ${lang === "de" ? "0,0001" : "0.0001"}`;
  return `= ${new Intl.NumberFormat(LOCALES[lang], { minimumFractionDigits: 4, maximumFractionDigits: 4 }).format(p)}`;
}
