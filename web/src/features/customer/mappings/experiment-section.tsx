/**
 * @module The add form's and the edit dialog's "Experiment" section (docs/experiments.md), folded away: "Run an
 * experiment" starts one (A and B, 50/50), "Stop experiment" ends the one that runs when the form is saved. The
 * variants' editor is a chunk of its own, loaded when an experiment is first shown, so a form without one carries
 * none of its code.
 */
import { lazy, Suspense, useId } from "react";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { startExperiment, type ExperimentInput } from "./experiment-input";
import type { ExperimentLanguage } from "./experiment-sentence";
import { EXPERIMENT_TEXT } from "./experiment-text";
import { hasExperimentErrors, type ExperimentErrors } from "./use-experiment-check";

const ExperimentEditor = lazy(() => import("./experiment-editor").then((m) => ({ default: m.ExperimentEditor })));

interface ExperimentSectionProps {
  value: ExperimentInput;
  onChange: (value: ExperimentInput) => void;
  errors: ExperimentErrors;
  /** The experiment the mapping runs now (edit dialog), if any: unchecking it stops that one. */
  before?: ExperimentInput;
  /** A new variant B's HTML to begin with (the mapping's own, to change). */
  startHtml?: string;
  lang?: ExperimentLanguage;
}

export function ExperimentSection({ value, onChange, errors, before, startHtml, lang = "en" }: ExperimentSectionProps) {
  const text = EXPERIMENT_TEXT[lang];
  const runId = useId();
  const runsNow = before?.running === true;
  return (
    <details className="rounded-md border p-4" open={hasExperimentErrors(errors) || undefined}>
      <summary className="cursor-pointer text-sm font-medium">{runsNow ? text.sectionRunning : text.section}</summary>
      <div className="mt-4 space-y-4">
        {runsNow ? (
          value.running ? (
            <Button type="button" variant="outline" size="sm" onClick={() => onChange({ ...value, running: false })}>
              {text.stop}
            </Button>
          ) : (
            <div className="flex flex-wrap items-center gap-2">
              <p role="status" className="text-sm">
                {text.stopping}
              </p>
              <Button type="button" variant="outline" size="sm" onClick={() => onChange(before)}>
                {text.keepRunning}
              </Button>
            </div>
          )
        ) : (
          <div className="flex items-center gap-2">
            <Checkbox
              id={runId}
              checked={value.running}
              onCheckedChange={(checked) =>
                onChange(checked === true ? startExperiment(startHtml) : { ...value, running: false })
              }
            />
            <Label htmlFor={runId}>{text.run}</Label>
          </div>
        )}
        {value.running && (
          <Suspense fallback={<Spinner />}>
            <ExperimentEditor value={value} onChange={onChange} errors={errors} lang={lang} />
          </Suspense>
        )}
      </div>
    </details>
  );
}
