/**
 * @module snippet.js as a customer's page runs it: the built file (web/public/snippet.js, which
 * scripts/dev/build-snippet.mjs writes; `npm test` builds first) in jsdom, with a stand-in fetch. Here the visitor id
 * it keeps and sends, and `dynamicContent.goal(name)`; e2e/ drives the rest of it in Chromium.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi, type Mock } from "vitest";
import { VISITOR_COOKIE, VISITOR_ID } from "#contract/experiments";

/** What the snippet and the page's inline stub put on `window`. */
interface SnippetWindow {
  dynamicContentUserId?: string;
  setDynamicContentUserId?: (id: string) => void;
  dynamicContent?: { goal(name: string): void };
}

const ORIGIN = "https://dc.test";
const USER_ID = "user-1";
const page = window as unknown as SnippetWindow;
const snippetPath = join(import.meta.dirname, "public/snippet.js");

let source = "";
let fetchMock: Mock<(url: string, init?: RequestInit) => Promise<Response>>;
let historyMethods: Pick<History, "pushState" | "replaceState">;

beforeAll(() => {
  if (!existsSync(snippetPath)) throw new Error("web/public/snippet.js is missing: run npm run build first");
  source = readFileSync(snippetPath, "utf8");
});

beforeEach(() => {
  fetchMock = vi.fn(async () => new Response(null, { status: 204 }));
  vi.stubGlobal("fetch", fetchMock);
  historyMethods = { pushState: history.pushState, replaceState: history.replaceState };
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  // The snippet wraps these on each load: every test starts with the page's own.
  Object.assign(history, historyMethods);
  delete page.dynamicContentUserId;
  delete page.setDynamicContentUserId;
  delete page.dynamicContent;
  document.cookie = `${VISITOR_COOKIE}=; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
});

/** Runs the snippet as if loaded from ORIGIN, the user id (null: none) set first as the inline stub does. */
function load(userId: string | null = USER_ID): void {
  if (userId) page.dynamicContentUserId = userId;
  Object.defineProperty(document, "currentScript", { configurable: true, value: { src: `${ORIGIN}/snippet.js` } });
  try {
    new Function(source)();
  } finally {
    delete (document as { currentScript?: unknown }).currentScript;
  }
}

/** The query of each /api/content request made so far. */
function contentRequests(): URLSearchParams[] {
  return fetchMock.mock.calls
    .map(([url]) => new URL(url))
    .filter((url) => url.pathname === "/api/content")
    .map((url) => url.searchParams);
}

function onlyVid(): string {
  const vids = contentRequests().map((q) => q.get("vid"));
  expect(vids.length).toBeGreaterThan(0);
  expect(new Set(vids).size).toBe(1);
  return vids[0]!;
}

describe("snippet.js: the visitor id", () => {
  it("makes a new id, keeps it in localStorage and sends it as vid with every content request", () => {
    load();
    history.pushState(null, "", "/next");

    const requests = contentRequests();
    expect(requests).toHaveLength(2);
    expect(requests[0]!.get("format")).toBe("json");
    expect(requests[0]!.get("u")).toBe(USER_ID);
    expect(requests[1]!.get("nav")).toBe("1");
    const vid = onlyVid();
    expect(vid).toMatch(VISITOR_ID);
    expect(localStorage.getItem(VISITOR_COOKIE)).toBe(vid);
  });

  it("asks from the origin it was loaded from, for the page's URL without its hash", () => {
    history.replaceState(null, "", "/offer?a=1#top");
    load();
    const [url] = fetchMock.mock.calls[0]!;
    expect(url.startsWith(`${ORIGIN}/api/content?`)).toBe(true);
    expect(contentRequests()[0]!.get("url")).toBe(`${location.origin}/offer?a=1`);
  });

  it("reuses the id localStorage keeps", () => {
    localStorage.setItem(VISITOR_COOKIE, "kept-visitor_01");
    load();
    expect(onlyVid()).toBe("kept-visitor_01");
  });

  it("prefers the edge proxy's cookie, and stores it in localStorage so that both agree", () => {
    localStorage.setItem(VISITOR_COOKIE, "kept-visitor_01");
    document.cookie = `${VISITOR_COOKIE}=edge-visitor_02`;
    document.cookie = "other=1";
    load();
    expect(onlyVid()).toBe("edge-visitor_02");
    expect(localStorage.getItem(VISITOR_COOKIE)).toBe("edge-visitor_02");
  });

  it("passes over an invalid cookie and an invalid stored id for a new one", () => {
    document.cookie = `${VISITOR_COOKIE}=short`;
    localStorage.setItem(VISITOR_COOKIE, "not a valid id");
    load();
    const vid = onlyVid();
    expect(vid).toMatch(VISITOR_ID);
    expect(localStorage.getItem(VISITOR_COOKIE)).toBe(vid);
  });

  it("keeps the id for the page where localStorage throws", () => {
    vi.spyOn(window, "localStorage", "get").mockImplementation(() => {
      throw new DOMException("The operation is insecure.", "SecurityError");
    });
    load();
    history.pushState(null, "", "/next");
    page.dynamicContent!.goal("signup");

    const vid = onlyVid();
    expect(vid).toMatch(VISITOR_ID);
    const goal = fetchMock.mock.calls.find(([url]) => url.endsWith("/api/goals"))!;
    expect(JSON.parse(goal[1]!.body as string).vid).toBe(vid);
  });
});

describe("snippet.js: selector health", () => {
  it("reports a selector that named nothing as m with the visitor's next content request, once", async () => {
    fetchMock.mockImplementation(async () => Response.json({ h: "<p>x</p>", p: "afterbegin", s: "#missing", i: 42 }));
    load();
    await vi.waitFor(() => expect(localStorage.getItem("dc_m")).toBe("42"));
    expect(contentRequests()[0]!.has("m")).toBe(false);
    fetchMock.mockImplementation(async () => new Response(null, { status: 204 }));
    history.pushState(null, "", "/health-next");
    expect(contentRequests()[1]!.get("m")).toBe("42");
    expect(localStorage.getItem("dc_m")).toBeNull();
    history.pushState(null, "", "/health-third");
    expect(contentRequests()[2]!.has("m")).toBe(false);
  });

  it("reports nothing when the selector names an element", async () => {
    document.body.innerHTML = '<div id="slot"></div>';
    fetchMock.mockImplementation(async () => Response.json({ h: "<p>x</p>", p: "afterbegin", s: "#slot", i: 42 }));
    load();
    await vi.waitFor(() => expect(document.querySelector("#slot [data-dynamic-content]")).not.toBeNull());
    history.pushState(null, "", "/health-found");
    expect(contentRequests()[1]!.has("m")).toBe(false);
    document.body.innerHTML = "";
  });
});

describe("snippet.js: dynamicContent.goal(name)", () => {
  it("posts the user id, visitor id and goal to /api/goals as a simple CORS request that outlives the page", () => {
    load();
    page.dynamicContent!.goal("signup");

    const [url, init] = fetchMock.mock.calls.at(-1)!;
    expect(url).toBe(`${ORIGIN}/api/goals`);
    expect(init).toMatchObject({ method: "POST", keepalive: true });
    // No headers: the string body goes as text/plain, so the browser sends no preflight.
    expect(init!.headers).toBeUndefined();
    expect(typeof init!.body).toBe("string");
    expect(JSON.parse(init!.body as string)).toEqual({ u: USER_ID, vid: onlyVid(), goal: "signup" });
  });

  it("uses the user id set later", () => {
    load(null);
    page.setDynamicContentUserId!("user-2");
    page.dynamicContent!.goal("signup");
    expect(JSON.parse(fetchMock.mock.calls.at(-1)![1]!.body as string)).toMatchObject({ u: "user-2" });
  });

  it("sends nothing without a user id", () => {
    load(null);
    page.dynamicContent!.goal("signup");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("swallows a failed request", async () => {
    const unhandled = vi.fn();
    process.on("unhandledRejection", unhandled);
    try {
      load();
      // Not through fetchMock's own answer: a mock's promise counts as handled, since the mock awaits it.
      vi.stubGlobal("fetch", (url: string, init?: RequestInit) => {
        void fetchMock(url, init);
        return Promise.reject(new TypeError("Failed to fetch"));
      });
      page.dynamicContent!.goal("signup");
      await new Promise((resolve) => setTimeout(resolve, 10));
    } finally {
      process.off("unhandledRejection", unhandled);
    }
    expect(fetchMock).toHaveBeenLastCalledWith(`${ORIGIN}/api/goals`, expect.anything());
    expect(unhandled).not.toHaveBeenCalled();
  });
});
