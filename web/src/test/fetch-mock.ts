import { vi } from "vitest";

interface FetchRequest {
  url: string;
  init: RequestInit;
}

type Handler = (request: FetchRequest) => Response | Promise<Response>;

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

/**
 * One call as a fake API sees it: the method, the address and the JSON body, parsed. Every list page the SPA asks
 * for names its size (`limit`, lib/api.ts `getPage`): it is kept apart in `limit`, so that `url` reads as the list
 * and its filters.
 */
export interface ApiCall {
  method: string;
  url: string;
  body: unknown;
  limit?: number;
}

/** Answers the calls it knows; undefined passes the call on to the next route. */
export type ApiRoute<C extends ApiCall = ApiCall> = (call: C) => Response | undefined;

export function apiCall({ url, init }: FetchRequest): ApiCall {
  const parsed = new URL(url, "http://spa.test");
  const limit = parsed.searchParams.get("limit");
  parsed.searchParams.delete("limit");
  return {
    method: init.method ?? "GET",
    url: limit === null ? url : parsed.pathname + parsed.search,
    body: init.body ? JSON.parse(String(init.body)) : undefined,
    ...(limit === null ? {} : { limit: Number(limit) }),
  };
}

/**
 * A fake API that records every call (as `record` describes it) in the returned list. The first of `routes`
 * that answers a call answers it (an undefined route is skipped); a call none answers gets a 500 with the
 * error 'unexpected {method} {url}'.
 */
export function mockApiRecording<C extends ApiCall>(
  record: (request: FetchRequest) => C,
  ...routes: (ApiRoute<C> | undefined)[]
): C[] {
  const calls: C[] = [];
  mockFetch((request) => {
    const call = record(request);
    calls.push(call);
    for (const route of routes) {
      const answer = route?.(call);
      if (answer) return answer;
    }
    return jsonResponse({ error: `unexpected ${call.method} ${call.url}` }, 500);
  });
  return calls;
}

/** `mockApiRecording` of each call's method, address and body. */
export function mockApi(...routes: (ApiRoute | undefined)[]): ApiCall[] {
  return mockApiRecording(apiCall, ...routes);
}
