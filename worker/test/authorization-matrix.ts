/**
 * @module The authorization matrix: every route of the app (read from Hono's own route table) against every kind of
 * caller, each expected status written once in route-matrix.ts. Every refusal must also change nothing, and every
 * answer of the API must be one no browser renders as a page. The routes are checked in parts, a test file each
 * (routes/authorization-*.test.ts), so that the parts run beside each other.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { copiedFixture, MATRIX, matrixPart, PRINCIPALS, send, snapshot, stubPayPalPostBack } from "./route-matrix";

export function describeAuthorizationMatrix(part: number, parts: number) {
  beforeEach(stubPayPalPostBack);
  afterEach(() => vi.restoreAllMocks());

  describe.each(matrixPart(part, parts))("%s", (route) => {
    const { request, expect: expected } = MATRIX[route]!;
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
}
