/**
 * @module `validate(target, schema)`: zValidator whose failure takes the one error path,
 * answering 400 with the first issue's message (the messages of SPEC.md §5; zod's own led by the field). What a
 * schema accepts is also held to the body-wide nesting bound (json-depth.ts), so free JSON cannot be stored deeper
 * than SQLite reads.
 */
import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { ZodType } from "zod";
import type { $ZodIssue } from "zod/v4/core";
import { errorResponse } from "./errors";
import { bodyTooDeep } from "./json-depth";

/** Zod's own messages, which name no field ("Invalid input: expected number, received undefined"). */
const ZOD_DEFAULT_MESSAGE = /^(Invalid input|Invalid option|Too small:|Too big:)/;

/** The issue's message; one of zod's own is led by the field it is about ("eventsLimit: Invalid input: …"). */
function messageOf(issue: $ZodIssue | undefined): string {
  if (!issue) return "Invalid input";
  const field = issue.path.join(".");
  return field && ZOD_DEFAULT_MESSAGE.test(issue.message) ? `${field}: ${issue.message}` : issue.message;
}

export function validate<T extends ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  return zValidator(target, schema, (result, c) => {
    if (!result.success) {
      return errorResponse(c, 400, messageOf(result.error.issues[0]));
    }
    const tooDeep = target === "json" ? bodyTooDeep(result.data) : null;
    if (tooDeep) return errorResponse(c, 400, tooDeep);
  });
}
