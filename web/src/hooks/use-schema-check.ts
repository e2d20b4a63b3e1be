/**
 * @module Every form's check with the contract's schema before anything is sent (docs/spa.md); the schemas load
 * as a chunk of their own.
 */
import { useEffect, useRef, useState } from "react";
import type { z } from "zod";
import { toast } from "@/lib/toast";
import { loadContractSchemas, type ContractSchemas } from "@/lib/contract-schemas";
import { fieldErrors } from "@/lib/field-errors";

type FieldErrors = Partial<Record<string, string>>;

// One object for "no errors", so clearing errors that are already clear renders nothing anew.
const NO_ERRORS: FieldErrors = Object.freeze({});

export const SCHEMAS_UNAVAILABLE_MESSAGE = "The form could not be checked. Please reload the page.";

/**
 * A form's check with the contract's schema before anything is sent; `pick` names the schema, e.g.
 * `(schemas) => schemas.mappingBody`. `check` resolves to the parsed body and clears the errors, or, when the
 * input fails, keeps the first message per field in `errors` (to show under each input) and resolves to
 * undefined. The schemas start loading when the form appears; while one check runs, another resolves to
 * undefined at once, so a double click sends once. If the schemas cannot load, a toast says so and nothing is
 * sent.
 */
export function useSchemaCheck<S extends z.ZodType>(pick: (schemas: ContractSchemas) => S) {
  const [errors, setErrors] = useState<FieldErrors>(NO_ERRORS);
  const checking = useRef(false);

  useEffect(() => {
    // Only to have them ready by the submit; a failure is reported by the check that needs them.
    loadContractSchemas().catch(() => undefined);
  }, []);

  async function check(input: z.input<S>): Promise<z.output<S> | undefined> {
    if (checking.current) return undefined;
    checking.current = true;
    try {
      let schemas: ContractSchemas;
      try {
        schemas = await loadContractSchemas();
      } catch {
        toast({ variant: "destructive", title: "Error", description: SCHEMAS_UNAVAILABLE_MESSAGE });
        return undefined;
      }
      const parsed = pick(schemas).safeParse(input);
      if (!parsed.success) {
        setErrors(fieldErrors(parsed.error));
        return undefined;
      }
      setErrors(NO_ERRORS);
      return parsed.data;
    } finally {
      checking.current = false;
    }
  }

  return { errors, check, clearErrors: () => setErrors(NO_ERRORS) };
}
