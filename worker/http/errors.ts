/**
 * @module The one error shape. Handlers throw an `ApiError`; `app.onError` turns it into
 * `{ "error": message }` with its status. Anything else is logged and answered as a 500.
 */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ErrorBody } from "../contract/responses";

export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
export const unauthorized = (message = "Invalid or missing API key") => new ApiError(401, message);
export const forbidden = (message = "Forbidden") => new ApiError(403, message);
export const notFound = (message = "Not found") => new ApiError(404, message);
export const conflict = (message: string) => new ApiError(409, message);
export const tooManyRequests = (message: string) => new ApiError(429, message);

export function errorResponse(c: Context, status: ContentfulStatusCode, message: string) {
  return c.json<ErrorBody>({ error: message }, status);
}

export function handleError(err: Error, c: Context) {
  if (err instanceof ApiError) return errorResponse(c, err.status, err.message);
  if (err instanceof HTTPException) return errorResponse(c, err.status as ContentfulStatusCode, err.message);
  console.error("Unhandled error", c.req.method, c.req.path, err);
  return errorResponse(c, 500, "Internal server error");
}
