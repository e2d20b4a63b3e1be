/** Bad input on every route (test/input-fuzz.ts), first of three parts; and the total it sends. */
import { describe, expect, it } from "vitest";
import { describeInputFuzz, RUNS_PER_ROUTE, TOTAL_RUNS } from "../test/input-fuzz";
import { appRoutes } from "../test/route-matrix";

describe("bad input on every route", () => {
  it(`sends at least ${TOTAL_RUNS} requests in all`, () => {
    expect(RUNS_PER_ROUTE * appRoutes().length).toBeGreaterThanOrEqual(TOTAL_RUNS);
  });

  describeInputFuzz(1, 3);
});
