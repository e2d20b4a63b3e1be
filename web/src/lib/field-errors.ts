import type { z } from "zod";

/**
 * The first validation message per field, for showing under each input: a top-level field by its name, a field
 * of a nested object by its dotted path (`seo.canonical`); an item of a list counts as its list.
 */
export function fieldErrors<T>(error: z.ZodError<T>): Partial<Record<string, string>> {
  const errors: Partial<Record<string, string>> = {};
  for (const issue of error.issues) {
    const field = issue.path.filter((key) => typeof key === "string").join(".");
    errors[field] ??= issue.message;
  }
  return errors;
}
