import { describe, expect, it } from "vitest";
import { parsePrice, parseWholeNumber, toFormValues, toProductVersionBody } from "./product-version-form-values";

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

describe("parsePrice", () => {
  it("reads dollars and cents, to the cent, and makes empty or non-numeric input null", () => {
    expect(parsePrice("29.99")).toBe(29.99);
    expect(parsePrice(" 29,90 ")).toBe(29.9);
    expect(parsePrice("29")).toBe(29);
    expect(parsePrice("0.125")).toBe(0.13);
    expect(parsePrice("")).toBeNull();
    expect(parsePrice("abc")).toBeNull();
  });
});

describe("product version form values", () => {
  it("keeps a price with cents as it is, 29.99 and not 29", () => {
    const values = toFormValues({
      id: 1,
      name: "Growth",
      description: null,
      eventsLimit: 100,
      websitesLimit: 5,
      dynamicContentLimit: null,
      price: 29.99,
      paypalPlanId: "P-GROWTH",
      isDefault: false,
    });
    expect(values.price).toBe("29.99");
    expect(toProductVersionBody(values).price).toBe(29.99);
  });

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
