/**
 * @module Fail closed on settings the product cannot run safely without (APP_SECRET, PUBLIC_ORIGIN): the routes
 * that need them answer 503 in the one error shape with one message, and the isolate logs once per problem which
 * setting is wrong (README, "Configuration").
 */
import type { Context } from "hono";
import { errorResponse } from "./errors";

export const NOT_CONFIGURED_MESSAGE = "The service is not configured yet. Please try again later.";

const logged = new Set<string>();

/**
 * The 503 of a route that needs `what` ("a secret", "the product's origin"), which `problem` says is missing or
 * wrong; logged once per isolate and problem.
 */
export function notConfigured(c: Context, what: string, problem: string): Response {
  if (!logged.has(problem)) {
    logged.add(problem);
    console.error(`Refusing every request that needs ${what}: ${problem} (README, "Configuration")`);
  }
  return errorResponse(c, 503, NOT_CONFIGURED_MESSAGE);
}
