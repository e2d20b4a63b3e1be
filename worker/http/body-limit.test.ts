import { afterEach, describe, expect, it, vi } from "vitest";
import { paypalTransactions, users } from "../db/schema";
import { call, db } from "../test/helpers";

afterEach(() => vi.restoreAllMocks());

/** A register request of exactly `bytes` bytes, its email far over the email's cap. */
const registerBodyOf = (bytes: number) => {
  const frame = JSON.stringify({ email: "@example.com" }).length;
  return JSON.stringify({ email: `${"a".repeat(bytes - frame)}@example.com` });
};

const streamOf = (text: string) => new Blob([text]).stream();

describe("request body caps", () => {
  it("reads a body of 16 KB on every /api route without its own cap, and answers 413 to a byte more", async () => {
    expect(registerBodyOf(16_384)).toHaveLength(16_384);
    const fits = await call("/api/register", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: registerBodyOf(16_384),
    });
    // The body passed its cap and was read: the field's own cap answers.
    expect(await fits.json()).toEqual({ error: "Email must be at most 254 characters" });

    const over = await call("/api/register", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: registerBodyOf(16_385),
    });
    expect(over.status).toBe(413);
    expect(await over.json()).toEqual({ error: "Request body too large: at most 16 KB (16,384 bytes) is accepted" });
    expect(await db().$count(users)).toBe(0);
  });

  it("counts a body sent without a length (streamed) as it arrives", async () => {
    const over = await call("/api/register", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: streamOf(registerBodyOf(16_385)),
    });
    expect(over.status).toBe(413);
    expect(await db().$count(users)).toBe(0);
  });

  it("caps PayPal's IPN at 8 KB, logs a refusal, and stores nothing", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const body = `txn_id=T1&payment_status=Completed&item_name=${"x".repeat(8_192)}`;
    const res = await call("/api/paypal/ipn", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body,
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: "Request body too large: at most 8 KB (8,192 bytes) is accepted" });
    expect(warn).toHaveBeenCalledWith("POST /api/paypal/ipn: request body over 8,192 bytes refused");
    expect(await db().$count(paypalTransactions)).toBe(0);
  });
});
