/**
 * @module `validate(target, schema)`: zValidator whose failure takes the one error path,
 * answering 400 with the first issue's message (the messages of SPEC.md §5). What a schema accepts is also held to
 * the body-wide nesting bound (json-depth.ts), so free JSON cannot be stored deeper than SQLite reads.
 */
import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { ZodType } from "zod";
import { errorResponse } from "./errors";
import { bodyTooDeep } from "./json-depth";

export function validate<T extends ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  return zValidator(target, schema, (result, c) => {
    if (!result.success) {
      const issue = result.error.issues[0];
      const message = issue?.message ?? "Invalid input";
      return errorResponse(c, 400, message);
    }
    const tooDeep = target === "json" ? bodyTooDeep(result.data) : null;
    if (tooDeep) return errorResponse(c, 400, tooDeep);
  });
}
