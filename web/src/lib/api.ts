/**
 * @module The one request helper (SPEC.md §7 and §8): cookies always, `X-API-Key` when a key is stored, a
 * JSON content type only with a body, and every non-OK answer thrown as an `ApiError`.
 */
import { DELIVERY_EVERYWHERE_BY_HEADER, DELIVERY_PENDING_HEADER, type ErrorBody } from "#contract/responses";
import type { Page } from "#contract/page";
import { getApiKey } from "./storage";

export class ApiError extends Error {
  /** The `error` field of the server's JSON body, when it sent one; the text a toast should show. */
  readonly serverMessage: string | undefined;

  constructor(
    readonly status: number,
    statusText: string,
    readonly bodyText: string,
  ) {
    super(`${status}: ${bodyText || statusText}`);
    this.name = "ApiError";
    this.serverMessage = readErrorField(bodyText);
  }
}

function readErrorField(bodyText: string): string | undefined {
  try {
    const body = JSON.parse(bodyText) as Partial<ErrorBody> | null;
    return typeof body?.error === "string" && body.error ? body.error : undefined;
  } catch {
    return undefined;
  }
}

export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/** A body sent as it is, with its own content type (a file, such as an import's CSV). */
export class RawBody {
  constructor(
    readonly text: string,
    readonly contentType: string,
  ) {}
}

/** Sends one request and answers the response, or throws an `ApiError` when it is not OK. */
export async function apiRequest(method: HttpMethod, path: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = {};
  const apiKey = getApiKey();
  if (apiKey) headers["X-API-Key"] = apiKey;
  if (body !== undefined) headers["Content-Type"] = body instanceof RawBody ? body.contentType : "application/json";

  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : body instanceof RawBody ? body.text : JSON.stringify(body),
    credentials: "include",
  });
  if (!response.ok) {
    throw new ApiError(response.status, response.statusText, await response.text());
  }
  return response;
}

/** A change: the parsed answer, and what it says of the change's delivery. */
export async function apiChange<T>(method: HttpMethod, path: string, body?: unknown) {
  const response = await apiRequest(method, path, body);
  return {
    data: (await response.json()) as T,
    deliveryPending: response.headers.has(DELIVERY_PENDING_HEADER),
    everywhereBy: response.headers.get(DELIVERY_EVERYWHERE_BY_HEADER),
  };
}

/** `apiRequest` plus the parsed JSON answer. */
export async function apiJson<T>(method: HttpMethod, path: string, body?: unknown): Promise<T> {
  const response = await apiRequest(method, path, body);
  return (await response.json()) as T;
}

export interface GetJsonOptions {
  /** "returnNull" answers null for a 401 instead of throwing (for "not signed in" being a normal state). */
  on401?: "throw" | "returnNull";
}

/** The query function: a GET that parses JSON. */
export function getJson<T>(path: string, options: { on401: "returnNull" }): Promise<T | null>;
export function getJson<T>(path: string, options?: GetJsonOptions): Promise<T>;
export async function getJson<T>(path: string, { on401 = "throw" }: GetJsonOptions = {}): Promise<T | null> {
  try {
    return await apiJson<T>("GET", path);
  } catch (error) {
    if (on401 === "returnNull" && error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

/** The text to show a person for a failed call: the server's own message, else `fallback`, else the error. */
export function describeError(error: unknown, fallback?: string): string {
  if (error instanceof ApiError && error.serverMessage) return error.serverMessage;
  if (fallback) return fallback;
  return error instanceof Error ? error.message : String(error);
}

/**
 * A failure toast's text in SPEC.md's words, with the server's own message as a second line when it sent one (why an
 * admin action failed: "not verified yet", "activate it first", a throttle).
 */
export function withServerReason(text: string, error: unknown): string {
  return error instanceof ApiError && error.serverMessage ? `${text}\n${error.serverMessage}` : text;
}

/** `path` with the given query parameters; empty and undefined ones are left out (so defaults stay implicit). */
export function withQuery(path: string, params: Record<string, string | number | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== "") query.set(name, String(value));
  }
  const text = query.toString();
  if (!text) return path;
  return `${path}${path.includes("?") ? "&" : "?"}${text}`;
}

/**
 * A GET of a list page: the rows, and the total from `X-Total-Count` (the rows' count when the header is missing).
 * The page's size is always sent: a list asked for without one answers its whole list (docs/api.md, "Lists").
 */
export async function getPage<T>(
  path: string,
  params: { limit: number } & Record<string, string | number | undefined>,
): Promise<Page<T>> {
  const response = await apiRequest("GET", withQuery(path, params));
  const rows = (await response.json()) as T[];
  const header = response.headers.get("X-Total-Count");
  return { rows, total: header === null ? rows.length : Number(header) };
}
