/**
 * @module A mapping's experiment results (docs/experiments.md), a chunk of its own loaded when the row's
 * "Experiment results" is first pressed: for the chosen goal, the rates as bars, the figures as a table and a plain
 * sentence per variant; a warning when the split of visitors does not match the weights, when one address carries
 * much of a variant's visitors or conversions, or when the sample is full; and per variant "Make B
 * permanent", asked for first, which ends the experiment with that variant's content.
 */
import { useState, type ReactNode } from "react";
import type { ExperimentResults } from "#contract/experiments";
import type { Mapping } from "#contract/responses";
import { ConfirmActionButton } from "@/components/confirm-action-button";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Spinner } from "@/components/ui/spinner";
import { describeError } from "@/lib/api";
import { formatDayTime, formatGermanDayTime } from "@/lib/format-date";
import { useExperimentResults, usePromoteVariant } from "@/queries/experiments";
import { ExperimentChart } from "./experiment-chart";
import { formatPValue } from "./experiment-format";
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
}

export function ExperimentResultsDialog({
  mapping,
  open,
  onOpenChange,
  onCloseAutoFocus,
  lang = "en",
}: ExperimentResultsDialogProps) {
  const text = EXPERIMENT_TEXT[lang];
  const results = useExperimentResults(mapping.id, open);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent onCloseAutoFocus={onCloseAutoFocus} className="max-h-[90vh] max-w-3xl overflow-y-auto">
        <DialogHeader>
          <DialogTitle>{text.results}</DialogTitle>
          <DialogDescription className="break-all">{mapping.url}</DialogDescription>
        </DialogHeader>
        {results.data ? (
          <ResultsView
            mappingId={mapping.id}
            results={results.data}
            lang={lang}
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

function ResultsView({
  mappingId,
  results,
  lang,
  onPromoted,
}: {
  mappingId: number;
  results: ExperimentResults;
  lang: ExperimentLanguage;
  onPromoted: () => void;
}) {
  const text = EXPERIMENT_TEXT[lang];
  const [chosen, setGoal] = useState(results.goals[0] ?? "");
  const goal = results.goals.includes(chosen) ? chosen : (results.goals[0] ?? "");
  const promote = usePromoteVariant(mappingId, text.promoted);
  // The experiment's order, the control first.
  const order = results.weights.map((w) => w.key);
  const forGoal = results.variants
    .filter((r) => r.goal === goal)
    .sort((a, b) => order.indexOf(a.key) - order.indexOf(b.key));
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
          </li>
        ))}
      </ul>
    </div>
  );
}
