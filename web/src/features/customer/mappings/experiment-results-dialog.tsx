/**
 * @module A mapping's experiment results (docs/experiments.md), a chunk of its own loaded when the row's
 * "Experiment results" is first pressed: for the chosen goal, the rates as bars, the figures as a table and a plain
 * sentence per variant; a warning when the split of visitors does not match the weights, when one address carries
 * much of a variant's visitors or conversions, or when the sample is full; and per variant "Make B
 * permanent", asked for first, which ends the experiment with that variant's content. A picker splits the figures
 * by device, country or referrer (docs/experiments.md, "Results by segment"). The same dialog shows a holdout's
 * results ("Audience results", docs/audiences.md): the arms "holdout" and "audience", nothing to make permanent.
 */
import { useId, useState, type ReactNode } from "react";
import type { ExperimentResults, SegmentDimension, SegmentedResults } from "#contract/experiments";
import { OTHER_SEGMENTS, UNKNOWN_COUNTRY } from "#contract/segments";
import type { Mapping } from "#contract/responses";
import { ConfirmActionButton } from "@/components/confirm-action-button";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Spinner } from "@/components/ui/spinner";
import { describeError } from "@/lib/api";
import { formatDayTime, formatGermanDayTime } from "@/lib/format-date";
import { useExperimentResults, usePromoteVariant, type ResultsKind } from "@/queries/experiments";
import { CHOICE_TEXT } from "./audience-text";
import { ExperimentChart } from "./experiment-chart";
import { formatCount, formatPValue } from "./experiment-format";
import { ExperimentResultsTable } from "./experiment-results-table";
import { experimentSentence, type ExperimentLanguage } from "./experiment-sentence";
import { EXPERIMENT_TEXT } from "./experiment-text";

/** A plain warning above the figures. */
function Warning({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="rounded-md border border-amber-500 bg-amber-50 p-3 text-sm text-amber-900">
      {children}
    </p>
  );
}

interface ExperimentResultsDialogProps {
  mapping: Mapping;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus?: (event: Event) => void;
  lang?: ExperimentLanguage;
  /** The experiment's results (the default), or the holdout's. */
  kind?: ResultsKind;
}

/** The row's "Audience results": a holdout's comparison, in the experiment's dialog. */
export function AudienceResultsDialog(props: Omit<ExperimentResultsDialogProps, "kind">) {
  return <ExperimentResultsDialog {...props} kind="audience-results" />;
}

export function ExperimentResultsDialog({
  mapping,
  open,
  onOpenChange,
  onCloseAutoFocus,
  lang = "en",
  kind = "experiment",
}: ExperimentResultsDialogProps) {
  const text = EXPERIMENT_TEXT[lang];
  const [segment, setSegment] = useState<SegmentDimension | undefined>();
  const results = useExperimentResults(mapping.id, open, kind, segment);
  const holdout = kind === "audience-results";
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent onCloseAutoFocus={onCloseAutoFocus} className="max-h-[90vh] max-w-3xl overflow-y-auto">
        <DialogHeader>
          <DialogTitle>{holdout ? text.audienceResults : text.results}</DialogTitle>
          <DialogDescription className="break-all">{mapping.url}</DialogDescription>
        </DialogHeader>
        {results.data ? (
          <ResultsView
            mappingId={mapping.id}
            results={results.data}
            lang={lang}
            holdoutShare={holdout ? (mapping.holdout ?? 0) : undefined}
            segment={segment}
            onSegment={setSegment}
            onPromoted={() => onOpenChange(false)}
          />
        ) : results.isError ? (
          <p className="text-sm">{describeError(results.error, text.loadFailed)}</p>
        ) : (
          <Spinner />
        )}
      </DialogContent>
    </Dialog>
  );
}

/** The figures of one goal, in the experiment's order (the control first). */
const goalRows = (variants: ExperimentResults["variants"], goal: string, order: string[]) =>
  variants.filter((r) => r.goal === goal).sort((a, b) => order.indexOf(a.key) - order.indexOf(b.key));

function ResultsView({
  mappingId,
  results,
  lang,
  holdoutShare,
  segment,
  onSegment,
  onPromoted,
}: {
  mappingId: number;
  results: ExperimentResults;
  lang: ExperimentLanguage;
  /** Only for a holdout's results: the share held out; there is nothing to make permanent. */
  holdoutShare?: number;
  segment: SegmentDimension | undefined;
  onSegment: (segment: SegmentDimension | undefined) => void;
  onPromoted: () => void;
}) {
  const text = EXPERIMENT_TEXT[lang];
  const [chosen, setGoal] = useState(results.goals[0] ?? "");
  const goal = results.goals.includes(chosen) ? chosen : (results.goals[0] ?? "");
  const promote = usePromoteVariant(mappingId, text.promoted);
  const order = results.weights.map((w) => w.key);
  const forGoal = goalRows(results.variants, goal, order);
  const controlKey = order[0] ?? forGoal[0]?.key ?? "";
  // A variant without figures for the goal yet has no data to speak of.
  const sentenceFor = (key: string) =>
    experimentSentence(
      forGoal.find((r) => r.key === key) ?? { key, uplift: null, probabilityToBeatControl: null, visitors: 0 },
      controlKey,
      lang,
    );
  const formatStart = lang === "de" ? formatGermanDayTime : formatDayTime;

  return (
    <div className="space-y-4">
      <p className="text-sm text-muted-foreground">{text.runningSince(formatStart(results.startedAt))}</p>
      {holdoutShare !== undefined && <p className="text-sm">{text.audienceIntro(holdoutShare)}</p>}
      {!results.srm.ok && <Warning>{text.srm(formatPValue(results.srm.pValue, lang))}</Warning>}
      {results.concentrated && <Warning>{text.concentrated}</Warning>}
      {results.sampleFull && (
        <Warning>{text.sampleFull(results.visitorCap.toLocaleString(lang === "de" ? "de-DE" : "en-US"))}</Warning>
      )}
      {results.goals.length > 1 && (
        <div role="group" aria-label={text.goal} className="flex flex-wrap items-center gap-2">
          <span className="text-sm font-medium">{text.goal}</span>
          {results.goals.map((name) => (
            <Button
              key={name}
              type="button"
              size="sm"
              variant={name === goal ? "default" : "outline"}
              aria-pressed={name === goal}
              onClick={() => setGoal(name)}
            >
              {name}
            </Button>
          ))}
        </div>
      )}
      <ExperimentChart results={forGoal} goal={goal} lang={lang} />
      <ExperimentResultsTable results={forGoal} goal={goal} lang={lang} />
      <ul className="space-y-3">
        {order.slice(1).map((key) => (
          <li key={key} className="flex flex-wrap items-center justify-between gap-2 text-sm">
            <span>{sentenceFor(key)}</span>
            {holdoutShare === undefined && (
              <ConfirmActionButton
                trigger={
                  <Button type="button" variant="outline" size="sm" disabled={promote.isPending}>
                    {text.makePermanent(key)}
                  </Button>
                }
                title={text.confirmTitle(key)}
                description={text.confirmDescription(key)}
                confirmLabel={text.makePermanent(key)}
                cancelLabel={text.cancel}
                onConfirm={() => promote.mutate(key, { onSuccess: onPromoted })}
              />
            )}
          </li>
        ))}
      </ul>
      <SegmentPicker segment={segment} onSegment={onSegment} lang={lang} />
      {segment && results.segments?.dimension === segment && (
        <SegmentTables segments={results.segments} goal={goal} order={order} lang={lang} />
      )}
    </div>
  );
}

const SEGMENT_ALL = "all";

/** "All visitors", or the results split by device, country or referrer (asked for with `?segment=`). */
function SegmentPicker({
  segment,
  onSegment,
  lang,
}: {
  segment: SegmentDimension | undefined;
  onSegment: (segment: SegmentDimension | undefined) => void;
  lang: ExperimentLanguage;
}) {
  const text = EXPERIMENT_TEXT[lang];
  const id = useId();
  return (
    <div className="flex flex-wrap items-center gap-2">
      <label htmlFor={id} className="text-sm font-medium">
        {text.segment}
      </label>
      <select
        id={id}
        value={segment ?? SEGMENT_ALL}
        onChange={(e) => onSegment(e.target.value === SEGMENT_ALL ? undefined : (e.target.value as SegmentDimension))}
        className="flex h-9 rounded-md border border-input bg-background px-3 text-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      >
        {Object.entries(text.segments).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A segment value as the customer reads it: a device's or referrer type's label, a country's code. */
function segmentLabel(dimension: SegmentDimension, value: string, lang: ExperimentLanguage): string {
  const text = EXPERIMENT_TEXT[lang];
  if (value === OTHER_SEGMENTS) return text.segmentOther;
  if (value === UNKNOWN_COUNTRY) return text.segmentUnknown;
  const labels: Record<string, string> =
    dimension === "device" ? CHOICE_TEXT[lang].device : dimension === "referrer" ? CHOICE_TEXT[lang].referrer : {};
  return labels[value] ?? value;
}

/** Per segment value (most visitors first, as the API orders them), the goal's figures as the whole table shows them. */
function SegmentTables({
  segments,
  goal,
  order,
  lang,
}: {
  segments: SegmentedResults;
  goal: string;
  order: string[];
  lang: ExperimentLanguage;
}) {
  const text = EXPERIMENT_TEXT[lang];
  if (segments.values.length === 0) return <p className="text-sm text-muted-foreground">{text.noSegments}</p>;
  return (
    <div className="space-y-4">
      {segments.values.map((value) => (
        <section key={value.value} aria-label={segmentLabel(segments.dimension, value.value, lang)}>
          <h3 className="text-sm font-medium">
            {text.segmentHeading(
              segmentLabel(segments.dimension, value.value, lang),
              formatCount(value.visitors, lang),
            )}
          </h3>
          <ExperimentResultsTable results={goalRows(value.variants, goal, order)} goal={goal} lang={lang} />
        </section>
      ))}
    </div>
  );
}
