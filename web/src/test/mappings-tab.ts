/**
 * The customer's URL Mappings tab, rendered with its reads answered: the screens' tests of mapping rows (row actions,
 * experiments, audiences) open it the same way.
 */
import { fireEvent, screen } from "@testing-library/react";
import type { Mapping } from "#contract/responses";
import { jsonResponse, mockApi, type ApiCall } from "./fetch-mock";
import { renderApp } from "./render-app";

/**
 * The URL Mappings tab with `rows` (the server's one row per URL, `state.rows`: a test may change them); `change`
 * answers the calls the test is about, the rest of the dashboard's reads answer empty.
 */
export function openMappingsTab(rows: Mapping[], change: (call: ApiCall) => Response | undefined = () => undefined) {
  window.localStorage.setItem("apiKey", "key-1");
  const state = { rows };
  const calls = mockApi(
    (call) => (call.method === "GET" && call.url === "/api/mappings?group=url" ? jsonResponse(state.rows) : undefined),
    (call) => (call.method === "GET" && call.url.startsWith("/api/mappings/deleted") ? jsonResponse([]) : undefined),
    (call) =>
      call.method === "GET" && call.url === "/api/user/stats" ? jsonResponse({ totalRequests: 0 }) : undefined,
    (call) =>
      call.method === "GET" && call.url === "/api/url-rules"
        ? jsonResponse({ trackingParameters: [], ignoredParameters: [] })
        : undefined,
    (call) => (call.method === "GET" && call.url.startsWith("/api/analytics") ? jsonResponse([]) : undefined),
    change,
  );
  renderApp("/dashboard");
  fireEvent.mouseDown(screen.getByRole("tab", { name: "URL Mappings" }));
  return { calls, state };
}

/** The calls that change something, as `[method, url, body]`. */
export const changes = (calls: ApiCall[]) =>
  calls.filter((c) => c.method !== "GET").map((c) => [c.method, c.url, c.body]);
