import { describe, expect, it } from "vitest";
import { gammaQ, logBeta, logGamma, normalCdf } from "./special-functions";

// References from scipy 1.17.1: scipy.special.gammaln, betaln, gammaincc and scipy.stats.norm.cdf.

describe("logGamma", () => {
  it.each([
    [0.5, 0.5723649429247],
    [1, 0],
    [2.5, 0.2846828704729192],
    [10, 12.801827480081469],
    [101, 363.73937555556347],
  ])("ln Γ(%d) = %d", (x, expected) => expect(logGamma(x)).toBeCloseTo(expected, 12));

  it("keeps 15 significant digits for large arguments", () => {
    expect(logGamma(1e5) / 1051287.7089736569 - 1).toBeCloseTo(0, 14);
  });

  it("gives ln B(a, b)", () => expect(logBeta(201, 1562)).toBeCloseTo(-627.2165592823258, 9));
});

describe("gammaQ", () => {
  it.each([
    [0.5, 0.1, 0.6547208460185768],
    [0.5, 3, 0.014305878435429641],
    [1, 7.692307692307692, 0.0004563239005810314],
    [2, 0.8, 0.8087921354109989],
    [1.5, 0.01, 0.9992522446606088],
  ])("Q(%d, %d) = %d", (a, x, expected) => expect(gammaQ(a, x)).toBeCloseTo(expected, 12));

  it("keeps the far tail's relative precision", () => {
    expect(gammaQ(2, 40) / 1.7418252446695558e-16).toBeCloseTo(1, 10);
    expect(gammaQ(2, 0)).toBe(1);
  });
});

describe("normalCdf", () => {
  it.each([
    [-8, 6.22096057427174e-16],
    [-1.959964, 0.024999999096442398],
    [0, 0.5],
    [0.5, 0.6914624612740131],
    [3, 0.9986501019683699],
  ])("Φ(%d) = %d", (z, expected) => expect(normalCdf(z)).toBeCloseTo(expected, 12));
});
