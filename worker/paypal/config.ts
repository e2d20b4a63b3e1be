/** @module PayPal's endpoints and credentials from the environment, with the sandbox as the default. */
import type { Env } from "../env";

export const SANDBOX_API_BASE = "https://api-m.sandbox.paypal.com";
export const SANDBOX_IPN_VERIFY_URL = "https://ipnpb.sandbox.paypal.com/cgi-bin/webscr";
export const PAYPAL_SDK_URL = "https://www.paypal.com/sdk/js";

export function paypalConfig(env: Env) {
  return {
    clientId: env.PAYPAL_CLIENT_ID || null,
    clientSecret: env.PAYPAL_CLIENT_SECRET || null,
    apiBase: (env.PAYPAL_API_BASE || SANDBOX_API_BASE).replace(/\/+$/, ""),
    ipnVerifyUrl: env.PAYPAL_IPN_VERIFY_URL || SANDBOX_IPN_VERIFY_URL,
    receiverEmail: env.PAYPAL_RECEIVER_EMAIL?.toLowerCase() || null,
    sdkUrl: env.PAYPAL_SDK_URL || PAYPAL_SDK_URL,
  };
}
