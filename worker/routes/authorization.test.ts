/**
 * The authorization matrix: every route of the app (read from Hono's own route table) against every kind of
 * caller, each expected status written once in test/route-matrix.ts. A route added without its row fails the
 * first test. Every refusal must also change nothing, and every answer of the API must be one no browser renders
 * as a page.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { appRoutes, copiedFixture, MATRIX, PRINCIPALS, send, snapshot, stubPayPalPostBack } from "../test/route-matrix";

beforeEach(stubPayPalPostBack);
afterEach(() => vi.restoreAllMocks());

describe("the authorization matrix", () => {
  it("has a row for every route of the app, and a route for every row", () => {
    expect(Object.keys(MATRIX).sort()).toEqual(appRoutes());
  });

  describe.each(Object.entries(MATRIX))("%s", (route, { request, expect: expected }) => {
    it.each(PRINCIPALS)(`as %s answers as the matrix says`, async (principal) => {
      const fixture = await copiedFixture();
      const req = request(fixture);
      const before = await snapshot();
      const res = await send(req, fixture.keys[principal]);
      const body = req.method === "HEAD" ? "" : await res.text();
      expect(res.status, `${route} as ${principal}: ${body.slice(0, 200)}`).toBe(expected[principal]);

      if (res.status === 401 || res.status === 403) {
        expect(JSON.parse(body).error, "a refusal says why").toBeTruthy();
        expect(await snapshot(), "a refusal changes nothing").toEqual(before);
      }
      if (req.path.startsWith("/api/")) {
        expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
        expect(res.headers.get("Content-Security-Policy")).toContain("sandbox");
        expect(res.headers.get("Content-Type") ?? "").not.toContain("html");
      }
    });
  });
});
