/** The authorization matrix (test/authorization-matrix.ts), first of two parts; and its rows against the app's routes. */
import { describe, expect, it } from "vitest";
import { describeAuthorizationMatrix } from "../test/authorization-matrix";
import { appRoutes, MATRIX } from "../test/route-matrix";

describe("the authorization matrix", () => {
  it("has a row for every route of the app, and a route for every row", () => {
    expect(Object.keys(MATRIX).sort()).toEqual(appRoutes());
  });

  describeAuthorizationMatrix(1, 2);
});
