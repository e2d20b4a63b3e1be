import type { z } from "zod";

/** The first validation message per top-level field, for showing under each input. */
export function fieldErrors<T>(error: z.ZodError<T>): Partial<Record<string, string>> {
  const errors: Partial<Record<string, string>> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "");
    errors[field] ??= issue.message;
  }
  return errors;
}
