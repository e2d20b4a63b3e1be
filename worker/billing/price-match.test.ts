import { describe, expect, it } from "vitest";
import type { ProductVersion } from "../db/schema";
import { paymentAmountProblem, toCents } from "./price-match";

const growth = { name: "Growth", priceCents: 2900 } as ProductVersion;

describe("toCents", () => {
  it("reads plain decimals and nothing else", () => {
    expect([toCents("29.00"), toCents("29"), toCents("-0.5"), toCents(" 19.99 ")]).toEqual([2900, 2900, -50, 1999]);
    expect([toCents("1e3"), toCents("abc"), toCents(""), toCents(null), toCents("29,00")]).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
  });
});

describe("paymentAmountProblem", () => {
  const payment = { gross: "29.00", tax: null, shipping: null, currency: "USD" };

  it("accepts the plan's price in the billing currency, tax and shipping on top", () => {
    expect(paymentAmountProblem(payment, growth, "USD")).toBeNull();
    expect(
      paymentAmountProblem({ ...payment, gross: "35.51", tax: "5.51", shipping: "1.00" }, growth, "USD"),
    ).toBeNull();
    expect(paymentAmountProblem({ ...payment, gross: "35.51", tax: "5.51" }, growth, "USD")).toBe(
      "30.00 USD is not the plan's price 29.00 USD",
    );
  });

  it("names what does not match", () => {
    expect(paymentAmountProblem({ ...payment, gross: "0.01" }, growth, "USD")).toBe(
      "0.01 USD is not the plan's price 29.00 USD",
    );
    expect(paymentAmountProblem({ ...payment, currency: "EUR" }, growth, "USD")).toBe(
      "EUR is not the billing currency USD",
    );
    expect(paymentAmountProblem(payment, { ...growth, priceCents: null }, "USD")).toBe("the plan Growth has no price");
  });
});
