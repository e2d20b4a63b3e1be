/**
 * @module Bad input on every route: fast-check sends at least 10,000 variations of the route matrix's requests
 * (route-matrix.ts), each one thing wrong: a bad id in the path; a bad query parameter; a field of the wrong type,
 * empty, huge, unicode, SQL or HTML; a missing field; an unknown field; a body that is no JSON, too large or of
 * another type; a missing, doubled or garbage key. Every answer is below 500, every refusal of the API says why in
 * the one error shape, and a refused request leaves the database as it was (no write to what the matrix's snapshot
 * holds, as `watchWrites` records it). A failure prints fast-check's seed and the shrunk request. The routes are
 * sent in parts, a test file each (routes/input-fuzz-*.test.ts), so that the parts run beside each other.
 */
import fc from "fast-check";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import {
  appRoutes,
  createFixture,
  MATRIX,
  send,
  stubPayPalPostBack,
  matrixPart,
  watchWrites,
  type Expected,
  type Fixture,
  type Principal,
  type RouteRequest,
} from "./route-matrix";

export const TOTAL_RUNS = 10_000;
export const RUNS_PER_ROUTE = Math.ceil(TOTAL_RUNS / appRoutes().length);

/** Strings an attacker tries in any field, id or parameter. */
const nastyString = fc.oneof(
  fc.constantFrom(
    "",
    " ",
    "0",
    "-1",
    "1.5",
    "1e309",
    "NaN",
    "null",
    "undefined",
    "true",
    "[]",
    "{}",
    "' OR 1=1 --",
    '"; DROP TABLE users; --',
    "1; DELETE FROM url_mappings",
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "javascript:alert(1)//x",
    "data:text/html,<b>x</b>",
    "../../../etc/passwd",
    "%00",
    "\u0000",
    "\uFFFF\uFFFE",
    "\uD800",
    "𝕏😀‮",
    "Ä".repeat(300),
    "a".repeat(5_000),
    "9".repeat(400),
    "x@",
    "@x",
    "a@b",
    "__proto__",
    "constructor",
  ),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.integer().map(String),
  fc.double().map(String),
);

/** Values of the wrong type or size for a JSON field. */
const badValue = fc.oneof(
  nastyString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
  fc.dictionary(nastyString, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
  fc.constant("x".repeat(300_000)),
);

const QUERY_NAMES = [
  "limit",
  "offset",
  "searchTerm",
  "sortBy",
  "sortDirection",
  "group",
  "url",
  "email",
  "status",
  "startDate",
  "endDate",
  "token",
  "u",
  "action",
];

type Mutation =
  | { kind: "path"; value: string }
  | { kind: "query"; name: string; value: string; raw: boolean }
  | { kind: "field"; name: string; value: unknown }
  | { kind: "drop" }
  | { kind: "unknownField"; name: string; value: unknown }
  | { kind: "body"; text: string; contentType: string }
  | { kind: "key"; variant: "missing" | "doubled" | "garbage" | "huge" | "padded" };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("path" as const), value: nastyString }),
  fc.record({
    kind: fc.constant("query" as const),
    name: fc.oneof(fc.constantFrom(...QUERY_NAMES), nastyString),
    value: nastyString,
    raw: fc.boolean(),
  }),
  fc.record({ kind: fc.constant("field" as const), name: fc.string({ maxLength: 12 }), value: badValue }),
  fc.record({ kind: fc.constant("drop" as const) }),
  fc.record({ kind: fc.constant("unknownField" as const), name: nastyString, value: badValue }),
  fc.record({
    kind: fc.constant("body" as const),
    text: fc.oneof(
      fc.constantFrom("{", "[1,", '{"a":', "null", "[]", '"string"', "{}{}", "\u0000", "x".repeat(70_000)),
      fc.string({ unit: "grapheme", maxLength: 60 }),
    ),
    contentType: fc.constantFrom(
      "application/json",
      "application/json; charset=latin1",
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "",
    ),
  }),
  fc.record({
    kind: fc.constant("key" as const),
    variant: fc.constantFrom(
      "missing" as const,
      "doubled" as const,
      "garbage" as const,
      "huge" as const,
      "padded" as const,
    ),
  }),
);

/** The caller the route serves (the first of these whose matrix status is a success), for input to reach its checks. */
function servedCaller(expected: Expected): Principal {
  return (["customer", "admin", "anonymous"] as const).find((p) => expected[p] < 300) ?? "anonymous";
}

/** A path segment as sent: percent-encoded, or for text no URL can encode (a lone surrogate) invalid UTF-8. */
function segment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return "%ED%A0%80";
  }
}

/** The valid request with one thing wrong, and the headers to send it with. */
function mutate(route: string, valid: RouteRequest, key: string | undefined, mutation: Mutation) {
  const request: RouteRequest = { ...valid };
  const headers = new Headers();
  let apiKey = key;
  const [method = "", pattern = ""] = route.split(" ");
  // A GET or HEAD request has no body: what would be wrong in the body is wrong in the query instead.
  const bodyless = method === "GET" || method === "HEAD";
  const m: Mutation =
    bodyless && ["field", "drop", "unknownField", "body"].includes(mutation.kind)
      ? { kind: "query", name: "json", value: JSON.stringify(mutation), raw: false }
      : mutation;
  const [path = "", query = ""] = valid.path.split("?");
  const params = new URLSearchParams(query);
  switch (m.kind) {
    case "path": {
      const segments = path.split("/");
      const dynamic = pattern.split("/").findIndex((s) => s.startsWith(":"));
      const at = dynamic >= 0 ? dynamic : segments.length - 1;
      segments[at] = segment(m.value);
      request.path = segments.join("/") + (query ? `?${query}` : "");
      break;
    }
    case "query":
      // Raw: as a hand-written URL would carry it, unencoded (but for what would end the URL).
      if (m.raw) request.path = `${path}?${query ? `${query}&` : ""}${m.name}=${m.value.replace(/[#\s]/g, "")}`;
      else {
        params.set(m.name, m.value);
        request.path = `${path}?${params}`;
      }
      break;
    case "field": {
      const body = isRecord(valid.json) ? { ...valid.json } : {};
      const names = Object.keys(body);
      body[names.length > 0 ? names[m.name.length % names.length]! : m.name] = m.value;
      request.json = body;
      request.method = valid.method ?? "POST";
      break;
    }
    case "drop": {
      const body = isRecord(valid.json) ? { ...valid.json } : {};
      delete body[Object.keys(body)[0] ?? ""];
      request.json = body;
      request.method = valid.method ?? "POST";
      break;
    }
    case "unknownField":
      request.json = { ...(isRecord(valid.json) ? valid.json : {}), [m.name]: m.value };
      request.method = valid.method ?? "POST";
      break;
    case "body":
      request.json = undefined;
      request.body = m.text;
      request.method = valid.method ?? "POST";
      if (m.contentType) headers.set("Content-Type", m.contentType);
      break;
    case "key":
      apiKey = undefined;
      if (m.variant === "doubled" && key) headers.set("X-API-Key", `${key}, ${key}`);
      if (m.variant === "garbage") headers.set("X-API-Key", "dc_' OR 1=1 --");
      if (m.variant === "huge") headers.set("X-API-Key", `dc_${"A".repeat(8_000)}`);
      if (m.variant === "padded" && key) headers.set("X-API-Key", ` ${key}\t`);
      break;
  }
  return { request, apiKey, headers };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Part `part` of `parts` of the routes (route-matrix.ts `matrixPart`), each sent RUNS_PER_ROUTE bad variations. */
export function describeInputFuzz(part: number, parts: number) {
  /** Every status the part saw: its last test checks that the variations reached each kind of check. */
  const statuses = new Set<number>();

  beforeEach(() => {
    stubPayPalPostBack();
    // Refused mails, failed lookups and the like are logged; the assertions are on the answers.
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    vi.spyOn(console, "log").mockImplementation(() => undefined);
  });
  afterEach(() => vi.restoreAllMocks());

  it.each(matrixPart(part, parts))(
    `%s: never a 5xx, every refusal says why and changes nothing`,
    { timeout: 180_000 },
    async (route) => {
      const row = MATRIX[route]!;
      let fixture: Fixture | undefined;
      let writes: Awaited<ReturnType<typeof watchWrites>> | undefined;
      let sent = 0;
      await fc.assert(
        fc.asyncProperty(mutation, async (m) => {
          fixture ??= await createFixture();
          writes ??= await watchWrites();
          const caller = servedCaller(row.expect);
          const { request, apiKey, headers } = mutate(route, row.request(fixture), fixture.keys[caller], m);
          const res = await send(request, apiKey, headers);
          const text = request.method === "HEAD" ? "" : await res.text();
          const written = await writes.take();
          sent++;
          const what = `${request.method ?? "GET"} ${request.path.slice(0, 200)} (${m.kind}): ${res.status} ${text.slice(0, 200)}`;
          expect(res.status, what).toBeLessThan(500);
          statuses.add(res.status);
          if (res.status >= 400) {
            if (request.path.startsWith("/api/") && request.method !== "HEAD") {
              expect((JSON.parse(text) as { error?: unknown }).error, `a refusal says why: ${what}`).toEqual(
                expect.stringMatching(/\S/),
              );
            }
            expect(written, `a refusal changes nothing: ${what}`).toEqual([]);
          }
        }),
        { numRuns: RUNS_PER_ROUTE },
      );
      expect(sent).toBe(RUNS_PER_ROUTE);
    },
  );

  // Not 403: a part's requests go as the caller each route serves, and only some routes refuse a served caller's bad
  // input with it; the authorization matrix holds every route's 403s.
  it("reached the body cap, validation, authentication and lookups", () => {
    expect([...statuses].filter((status) => status >= 400).sort()).toEqual(
      expect.arrayContaining([400, 401, 404, 413]),
    );
  });
}
