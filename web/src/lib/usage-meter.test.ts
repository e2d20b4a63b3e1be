import { describe, expect, it } from "vitest";
import { usageMeter } from "./usage-meter";

describe("usageMeter", () => {
  it("rounds the share of the limit", () => {
    expect(usageMeter(1, 3)).toEqual({ percent: 33, limitLabel: "3" });
    expect(usageMeter(2, 3)).toEqual({ percent: 67, limitLabel: "3" });
    expect(usageMeter(0, 10)).toEqual({ percent: 0, limitLabel: "10" });
  });

  it("caps at 100", () => {
    expect(usageMeter(10, 10).percent).toBe(100);
    expect(usageMeter(25, 10).percent).toBe(100);
  });

  it("treats a null or 0 limit as unlimited: ∞ and an empty bar", () => {
    expect(usageMeter(5, null)).toEqual({ percent: 0, limitLabel: "∞" });
    expect(usageMeter(5, 0)).toEqual({ percent: 0, limitLabel: "∞" });
  });
});
