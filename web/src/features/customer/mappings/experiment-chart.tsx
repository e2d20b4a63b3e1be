/**
 * @module An experiment's conversion rates for one goal as bars, one per variant, drawn as `components/usage-chart.tsx`
 * draws its own (plain elements, no chart library). A variant beside the control has a line for its uplift's 95 %
 * interval, read as rates against the control's. Each bar states its numbers as text, for screen readers and on hover.
 */
import type { VariantGoalResult } from "#contract/experiments";
import type { ExperimentLanguage } from "./experiment-sentence";
import { formatRate } from "./experiment-format";
import { EXPERIMENT_TEXT } from "./experiment-text";

/** The interval of a variant's rate that its uplift's interval means, against the control's rate. */
function rateInterval(result: VariantGoalResult, controlRate: number): [number, number] | null {
  if (!result.upliftCi95) return null;
  const [low, high] = result.upliftCi95;
  return [Math.max(0, controlRate * (1 + low)), Math.max(0, controlRate * (1 + high))];
}

export function ExperimentChart({
  results,
  goal,
  lang = "en",
}: {
  /** One goal's results, the control first. */
  results: VariantGoalResult[];
  goal: string;
  lang?: ExperimentLanguage;
}) {
  const text = EXPERIMENT_TEXT[lang];
  const controlRate = results[0]?.rate ?? 0;
  const bars = results.map((result, i) => ({ result, interval: i === 0 ? null : rateInterval(result, controlRate) }));
  const highest = Math.max(1e-9, ...bars.flatMap(({ result, interval }) => [result.rate, interval?.[1] ?? 0]));
  const width = (rate: number) => `${Math.min(100, (rate / highest) * 100)}%`;
  const describe = ({ result, interval }: (typeof bars)[number]) =>
    text.bar(
      result.key,
      formatRate(result.rate, lang),
      interval && `${formatRate(interval[0], lang)} ${text.to} ${formatRate(interval[1], lang)}`,
    );

  return (
    <section aria-label={text.chart(goal)} className="space-y-2">
      <p className="text-sm text-muted-foreground">{text.chart(goal)}</p>
      <ol className="space-y-2">
        {bars.map((bar) => (
          <li
            key={bar.result.key}
            className="grid grid-cols-[4rem_1fr_4.5rem] items-center gap-2 text-sm"
            title={describe(bar)}
            aria-label={describe(bar)}
          >
            <span className="truncate font-medium">{bar.result.key}</span>
            <span className="relative h-6 rounded-sm bg-muted">
              <span
                className="absolute inset-y-0 left-0 rounded-sm bg-primary"
                style={{ width: width(bar.result.rate) }}
              />
              {bar.interval && (
                <span
                  className="absolute top-1/2 h-0.5 -translate-y-1/2 bg-amber-500"
                  style={{ left: width(bar.interval[0]), right: `calc(100% - ${width(bar.interval[1])})` }}
                />
              )}
            </span>
            <span className="text-right tabular-nums" aria-hidden="true">
              {formatRate(bar.result.rate, lang)}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
