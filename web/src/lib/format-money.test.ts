import { describe, expect, it } from "vitest";
import { formatMonthlyPrice, formatMoney } from "./format-money";

// Intl separates the amount from the sign with a no-break space.
const NBSP = "\u00a0";

describe("formatMoney", () => {
  it("uses the German format with the item's currency, USD by default, 2 decimals", () => {
    expect(formatMoney(29, "USD")).toBe(`29,00${NBSP}$`);
    expect(formatMoney(1234.5, "EUR")).toBe(`1.234,50${NBSP}€`);
    expect(formatMoney(29, "")).toBe(`29,00${NBSP}$`);
    expect(formatMoney(19.999, undefined)).toBe(`20,00${NBSP}$`);
  });

  it("shows an unknown currency code after the number instead of failing", () => {
    expect(formatMoney(5, "not-a-code")).toBe("5,00 not-a-code");
  });

  it("in US format for the admin's transactions: a numeric string counts as its number, no amount is '-'", () => {
    expect(formatMoney("29", "USD", { locale: "en-US" })).toBe("$29.00");
    expect(formatMoney(12.5, "EUR", { locale: "en-US" })).toBe("€12.50");
    expect(formatMoney(null, "USD", { locale: "en-US" })).toBe("-");
    expect(formatMoney(" ", "USD", { locale: "en-US" })).toBe("-");
    expect(formatMoney(12.5, "not-a-code", { locale: "en-US" })).toBe("12.50 not-a-code");
  });

  it("shows an amount that is no number as '-', or as PayPal sent it when asked", () => {
    expect(formatMoney("n/a", "USD", { locale: "en-US" })).toBe("-");
    expect(formatMoney("n/a", "USD", { locale: "en-US", nonNumeric: "as-sent" })).toBe("n/a");
  });
});

describe("formatMonthlyPrice", () => {
  it("shows whole units, and cents only when there are some, in the billing currency (USD by default)", () => {
    expect(formatMonthlyPrice(29)).toBe("$29 / month");
    expect(formatMonthlyPrice(1500)).toBe("$1,500 / month");
    expect(formatMonthlyPrice(9.5)).toBe("$9.50 / month");
    expect(formatMonthlyPrice(29, "EUR")).toBe("€29 / month");
  });
});
