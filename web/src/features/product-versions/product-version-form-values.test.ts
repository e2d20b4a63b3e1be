import { describe, expect, it } from "vitest";
import { parseWholeNumber, toFormValues, toProductVersionBody } from "./product-version-form-values";

describe("parseWholeNumber", () => {
  it("reads integers and makes empty or non-numeric input null", () => {
    expect(parseWholeNumber("")).toBeNull();
    expect(parseWholeNumber("  ")).toBeNull();
    expect(parseWholeNumber("abc")).toBeNull();
    expect(parseWholeNumber("0")).toBe(0);
    expect(parseWholeNumber(" 42 ")).toBe(42);
    expect(parseWholeNumber("29.99")).toBe(29);
  });
});

describe("product version form values", () => {
  it("round-trips a version, with unlimited null limits as empty inputs", () => {
    const version = {
      id: 7,
      name: "Scale",
      description: null,
      eventsLimit: null,
      websitesLimit: 0,
      dynamicContentLimit: 300,
      price: 199,
      paypalPlanId: "P-1",
      isDefault: true,
    };
    const values = toFormValues(version);
    expect(values).toMatchObject({ eventsLimit: "", websitesLimit: "0", dynamicContentLimit: "300", price: "199" });
    expect(toProductVersionBody(values)).toEqual({
      name: "Scale",
      description: null,
      eventsLimit: null,
      websitesLimit: 0,
      dynamicContentLimit: 300,
      price: 199,
      paypalPlanId: "P-1",
      isDefault: true,
    });
  });

  it("sends blank description and plan id as null", () => {
    const body = toProductVersionBody({ ...toFormValues(null), name: "X", description: "  ", paypalPlanId: "" });
    expect(body.description).toBeNull();
    expect(body.paypalPlanId).toBeNull();
    expect(body.isDefault).toBe(false);
  });
});
