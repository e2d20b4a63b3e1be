/**
 * @module `validate(target, schema)`: zValidator whose failure takes the one error path,
 * answering 400 with the first issue's message (the messages of SPEC.md §5).
 */
import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { ZodType } from "zod";
import { errorResponse } from "./errors";

export function validate<T extends ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  return zValidator(target, schema, (result, c) => {
    if (!result.success) {
      const issue = result.error.issues[0];
      const message = issue?.message ?? "Invalid input";
      return errorResponse(c, 400, message);
    }
  });
}
