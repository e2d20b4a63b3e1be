/**
 * @module The one error shape. Handlers throw an `ApiError` (models a `Refusal`); `app.onError` turns it into
 * `{ "error": message }` with its status. Anything else is logged and answered as a 500.
 */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ErrorBody } from "#contract/responses";
import { Refusal } from "../lib/refusal";

export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    /** Extra headers of the answer, e.g. `Retry-After`. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
export const unauthorized = (message = "Invalid or missing API key") => new ApiError(401, message);
export const forbidden = (message = "Forbidden") => new ApiError(403, message);
export const notFound = (message = "Not found") => new ApiError(404, message);
export const conflict = (message: string) => new ApiError(409, message);
/** 429 with `Retry-After` in whole seconds (at least 1). */
export const tooManyRequests = (message: string, retryAfterMs: number) =>
  new ApiError(429, message, { "Retry-After": String(Math.max(1, Math.ceil(retryAfterMs / 1000))) });

export function errorResponse(
  c: Context,
  status: ContentfulStatusCode,
  message: string,
  headers: Record<string, string> = {},
) {
  return c.json<ErrorBody>({ error: message }, status, headers);
}

export function handleError(err: Error, c: Context) {
  if (err instanceof ApiError) return errorResponse(c, err.status, err.message, err.headers);
  if (err instanceof Refusal) return errorResponse(c, err.status, err.message);
  if (err instanceof HTTPException) return errorResponse(c, err.status as ContentfulStatusCode, err.message);
  console.error("Unhandled error", c.req.method, c.req.path, err);
  return errorResponse(c, 500, "Internal server error");
}
