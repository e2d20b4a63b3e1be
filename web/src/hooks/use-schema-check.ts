import { useState } from "react";
import type { z } from "zod";
import { fieldErrors } from "@/lib/field-errors";

type FieldErrors = Partial<Record<string, string>>;

// One object for "no errors", so clearing errors that are already clear renders nothing anew.
const NO_ERRORS: FieldErrors = Object.freeze({});

/**
 * A form's check with the contract's schema before anything is sent. `check` returns the parsed body and clears
 * the errors, or, when the input fails, keeps the first message per field in `errors` (to show under each input)
 * and returns undefined.
 */
export function useSchemaCheck<S extends z.ZodType>(schema: S) {
  const [errors, setErrors] = useState<FieldErrors>(NO_ERRORS);

  function check(input: z.input<S>): z.output<S> | undefined {
    const parsed = schema.safeParse(input);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return undefined;
    }
    setErrors(NO_ERRORS);
    return parsed.data;
  }

  return { errors, check, clearErrors: () => setErrors(NO_ERRORS) };
}
