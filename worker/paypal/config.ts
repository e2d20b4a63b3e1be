/**
 * @module PayPal's settings from the environment. Production PayPal is the default; the sandbox only when
 * `PAYPAL_ENVIRONMENT=sandbox`. Explicit URLs (`PAYPAL_API_BASE`, `PAYPAL_IPN_VERIFY_URL`) win over both, so the
 * tests and `npm run paypal:fake` can point them at a local stand-in.
 */
import type { Env } from "../env";

export const PAYPAL_HOSTS = {
  production: { apiBase: "https://api-m.paypal.com", ipnVerifyUrl: "https://ipnpb.paypal.com/cgi-bin/webscr" },
  sandbox: {
    apiBase: "https://api-m.sandbox.paypal.com",
    ipnVerifyUrl: "https://ipnpb.sandbox.paypal.com/cgi-bin/webscr",
  },
} as const;
export const PAYPAL_SDK_URL = "https://www.paypal.com/sdk/js";
/** SPEC.md §9: the default currency is USD. */
export const DEFAULT_BILLING_CURRENCY = "USD";

export type PayPalConfig = ReturnType<typeof paypalConfig>;

export function paypalConfig(env: Env) {
  const sandbox = env.PAYPAL_ENVIRONMENT?.trim().toLowerCase() === "sandbox";
  const hosts = sandbox ? PAYPAL_HOSTS.sandbox : PAYPAL_HOSTS.production;
  const clientId = env.PAYPAL_CLIENT_ID || null;
  const clientSecret = env.PAYPAL_CLIENT_SECRET || null;
  return {
    sandbox,
    clientId,
    clientSecret,
    /** Both REST credentials: only then can subscriptions be confirmed and cancelled with PayPal. */
    hasRestCredentials: clientId !== null && clientSecret !== null,
    apiBase: (env.PAYPAL_API_BASE || hosts.apiBase).replace(/\/+$/, ""),
    ipnVerifyUrl: env.PAYPAL_IPN_VERIFY_URL || hosts.ipnVerifyUrl,
    /** Our PayPal account: its email and/or merchant id. Notifications are processed only when one is set. */
    receiverEmail: env.PAYPAL_RECEIVER_EMAIL?.trim().toLowerCase() || null,
    receiverId: env.PAYPAL_RECEIVER_ID?.trim() || null,
    /** The currency every plan is priced and paid in, and revenue is counted in. */
    currency: env.BILLING_CURRENCY?.trim().toUpperCase() || DEFAULT_BILLING_CURRENCY,
    sdkUrl: env.PAYPAL_SDK_URL || PAYPAL_SDK_URL,
  };
}
