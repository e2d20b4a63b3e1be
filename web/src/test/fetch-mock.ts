import { vi } from "vitest";

type Handler = (request: { url: string; init: RequestInit }) => Response | Promise<Response>;

/** Replaces `fetch` with `handler`; the returned mock records every call. */
export function mockFetch(handler: Handler) {
  const fetchMock = vi.fn((input: RequestInfo | URL, init: RequestInit = {}) =>
    Promise.resolve(handler({ url: String(input), init })),
  );
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}
