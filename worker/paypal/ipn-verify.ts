/**
 * @module Verifying an IPN: its raw bytes posted back to PayPal, unchanged, which answers VERIFIED or INVALID
 * (`PAYPAL_IPN_VERIFY_URL`); anything else, or no answer within 15 s, is "unavailable" and PayPal retries.
 */
import type { Env } from "../env";
import { paypalConfig } from "./config";
import { validationBody } from "./ipn-message";

const VERIFY_TIMEOUT_MS = 15_000;

export async function verifyIpn(env: Env, raw: Uint8Array): Promise<"VERIFIED" | "INVALID" | "unavailable"> {
  try {
    const res = await fetch(paypalConfig(env).ipnVerifyUrl, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "User-Agent": "dynamic-content-ipn" },
      body: validationBody(raw),
      signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS),
    });
    const answer = (await res.text()).trim();
    if (res.ok && (answer === "VERIFIED" || answer === "INVALID")) return answer;
    console.error(`IPN verification answered ${res.status} ${JSON.stringify(answer.slice(0, 40))}`);
  } catch (err) {
    console.error("IPN verification failed:", err instanceof Error ? err.message : err);
  }
  return "unavailable";
}
