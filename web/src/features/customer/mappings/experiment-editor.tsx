/**
 * @module The variants of an experiment and its goals (docs/experiments.md), a chunk of its own: the control's key
 * and weight (its HTML is the mapping's), then one to four more variants with key, weight and HTML, and the goals as
 * comma-separated names. Each message of the contract's schemas shows next to its field.
 */
import { useId } from "react";
import { VARIANTS_MAX } from "#contract/experiments";
import { Button } from "@/components/ui/button";
import { FieldError, FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { addVariant, removeVariant, type ExperimentInput, type VariantRow } from "./experiment-input";
import type { ExperimentLanguage } from "./experiment-sentence";
import { EXPERIMENT_TEXT } from "./experiment-text";
import type { ExperimentErrors } from "./use-experiment-check";

interface ExperimentEditorProps {
  value: ExperimentInput;
  onChange: (value: ExperimentInput) => void;
  errors: ExperimentErrors;
  lang?: ExperimentLanguage;
}

export function ExperimentEditor({ value, onChange, errors, lang = "en" }: ExperimentEditorProps) {
  const text = EXPERIMENT_TEXT[lang];
  const variantsErrorId = useId();
  const total = value.variants.reduce((sum, v) => sum + (Number(v.weight) || 0), 0);
  const setRow = (index: number, change: Partial<VariantRow>) =>
    onChange({ ...value, variants: value.variants.map((v, i) => (i === index ? { ...v, ...change } : v)) });

  return (
    <div className="space-y-4">
      <p className="text-sm text-muted-foreground">{text.intro}</p>
      <ol className="space-y-4">
        {value.variants.map((variant, i) => {
          const rowErrors = errors.rows[i] ?? {};
          return (
            <li key={i} className="space-y-3 rounded-md border p-3" aria-label={text.variant(i + 1)}>
              <div className="flex items-center justify-between gap-2 text-sm font-medium">
                <span>
                  {text.variant(i + 1)}
                  {i === 0 && ` · ${text.control}`}
                </span>
                {i > 0 && (
                  <Button
                    type="button"
                    variant="ghost"
                    size="sm"
                    aria-label={text.removeVariant(variant.key)}
                    disabled={value.variants.length <= 2}
                    onClick={() => onChange(removeVariant(value, i))}
                  >
                    {text.remove}
                  </Button>
                )}
              </div>
              <div className="grid gap-3 sm:grid-cols-2">
                <FormField label={text.key} error={rowErrors.key}>
                  <Input
                    aria-label={text.keyOf(i + 1)}
                    value={variant.key}
                    onChange={(e) => setRow(i, { key: e.target.value })}
                  />
                </FormField>
                <FormField label={text.weight} error={rowErrors.weight}>
                  <Input
                    aria-label={text.weightOf(i + 1)}
                    type="number"
                    inputMode="numeric"
                    min={1}
                    max={99}
                    step={1}
                    value={variant.weight}
                    onChange={(e) => setRow(i, { weight: e.target.value })}
                  />
                </FormField>
              </div>
              {i === 0 ? (
                <p className="text-sm text-muted-foreground">{text.controlContent}</p>
              ) : (
                <FormField label={text.html} error={rowErrors.htmlContent}>
                  <Textarea
                    aria-label={text.htmlOf(i + 1)}
                    value={variant.htmlContent}
                    onChange={(e) => setRow(i, { htmlContent: e.target.value })}
                    rows={4}
                    className="font-mono"
                  />
                </FormField>
              )}
            </li>
          );
        })}
      </ol>
      <div className="flex flex-wrap items-center gap-3">
        {value.variants.length < VARIANTS_MAX && (
          <Button type="button" variant="outline" size="sm" onClick={() => onChange(addVariant(value))}>
            {text.addVariant}
          </Button>
        )}
        <p className="text-sm text-muted-foreground">{text.weightsTotal(total)}</p>
      </div>
      <FieldError id={variantsErrorId} error={errors.variants} />
      <FormField label={text.goals} error={errors.goals}>
        <Input
          value={value.goals}
          onChange={(e) => onChange({ ...value, goals: e.target.value })}
          placeholder={text.goalsPlaceholder}
        />
      </FormField>
      <p className="text-xs text-muted-foreground">{text.goalsHint}</p>
    </div>
  );
}
