/**
 * @module The experiment editor's check with the contract's schemas (contract/experiments.ts) before anything is
 * sent, as `useSchemaCheck` does for the rest of the form: the first message per variant field, for the list (the
 * weights' sum, the keys, the count) and for the goals. The schemas load as a chunk of their own.
 */
import { useEffect, useState } from "react";
import type { z } from "zod";
import { loadExperimentSchemas } from "@/lib/contract-schemas";
import { toast } from "@/lib/toast";
import { SCHEMAS_UNAVAILABLE_MESSAGE } from "@/hooks/use-schema-check";
import type { ExperimentBody } from "./experiment-input";

export interface VariantErrors {
  key?: string;
  weight?: string;
  htmlContent?: string;
}

export interface ExperimentErrors {
  /** About the variants as a whole: their count, their weights' sum, their keys. */
  variants?: string;
  /** Per row, by index. */
  rows: VariantErrors[];
  goals?: string;
}

export const NO_EXPERIMENT_ERRORS: ExperimentErrors = Object.freeze({ rows: [] }) as ExperimentErrors;

export const hasExperimentErrors = (errors: ExperimentErrors) =>
  !!errors.variants || !!errors.goals || errors.rows.some((row) => row && Object.keys(row).length > 0);

function variantErrors(issues: z.core.$ZodIssue[]): Pick<ExperimentErrors, "variants" | "rows"> {
  const errors: Pick<ExperimentErrors, "variants" | "rows"> = { rows: [] };
  for (const { path, message } of issues) {
    const [index, field] = path;
    if (typeof index === "number" && (field === "key" || field === "weight" || field === "htmlContent")) {
      const row = (errors.rows[index] ??= {});
      row[field] ??= message;
    } else {
      errors.variants ??= message;
    }
  }
  return errors;
}

/**
 * `check(body)` resolves to the body as the schemas parse it (trimmed keys, goals without repeats), or to
 * undefined with `errors` set. A body without variants (none, or `null` to stop) passes as it is.
 */
export function useExperimentCheck(running: boolean) {
  const [errors, setErrors] = useState<ExperimentErrors>(NO_EXPERIMENT_ERRORS);

  useEffect(() => {
    if (running) loadExperimentSchemas().catch(() => undefined);
  }, [running]);

  async function check(body: ExperimentBody): Promise<ExperimentBody | undefined> {
    if (!body.variants) {
      setErrors(NO_EXPERIMENT_ERRORS);
      return body;
    }
    let schemas: Awaited<ReturnType<typeof loadExperimentSchemas>>;
    try {
      schemas = await loadExperimentSchemas();
    } catch {
      toast({ variant: "destructive", title: "Error", description: SCHEMAS_UNAVAILABLE_MESSAGE });
      return undefined;
    }
    const variants = schemas.variantsSchema.safeParse(body.variants);
    const goals = schemas.goalsSchema.safeParse(body.goals ?? []);
    const found: ExperimentErrors = variants.success ? { rows: [] } : variantErrors(variants.error.issues);
    if (!goals.success) found.goals = goals.error.issues[0]?.message;
    else if (goals.data.length === 0) found.goals = schemas.GOALS_NEEDED;
    if (!variants.success || found.goals) {
      setErrors(found);
      return undefined;
    }
    setErrors(NO_EXPERIMENT_ERRORS);
    return { variants: variants.data, goals: goals.data };
  }

  return { errors, check, clearErrors: () => setErrors(NO_EXPERIMENT_ERRORS) };
}
