/** @module PayPal's REST API: an OAuth2 client-credentials token, then the subscription as PayPal has it. */
import type { Env } from "../env";
import { paypalConfig } from "./config";

export interface PayPalSubscription {
  id: string;
  status: string;
  planId: string | null;
  customId: string | null;
}

export class PayPalUnavailableError extends Error {}

async function accessToken(env: Env): Promise<string> {
  const { apiBase, clientId, clientSecret } = paypalConfig(env);
  const res = await fetch(`${apiBase}/v1/oauth2/token`, {
    method: "POST",
    headers: {
      Authorization: `Basic ${btoa(`${clientId}:${clientSecret}`)}`,
      "Content-Type": "application/x-www-form-urlencoded",
    },
    body: "grant_type=client_credentials",
  });
  if (!res.ok) throw new PayPalUnavailableError(`PayPal token request answered ${res.status}`);
  const body = (await res.json()) as { access_token?: string };
  if (!body.access_token) throw new PayPalUnavailableError("PayPal answered no access token");
  return body.access_token;
}

/** The subscription as PayPal has it, or null when PayPal does not know it. */
export async function fetchSubscription(env: Env, subscriptionId: string): Promise<PayPalSubscription | null> {
  const token = await accessToken(env);
  const res = await fetch(
    `${paypalConfig(env).apiBase}/v1/billing/subscriptions/${encodeURIComponent(subscriptionId)}`,
    {
      headers: { Authorization: `Bearer ${token}`, Accept: "application/json" },
    },
  );
  if (res.status === 404) return null;
  if (!res.ok) throw new PayPalUnavailableError(`PayPal subscription request answered ${res.status}`);
  const body = (await res.json()) as { id?: string; status?: string; plan_id?: string; custom_id?: string };
  return {
    id: body.id ?? subscriptionId,
    status: body.status ?? "",
    planId: body.plan_id ?? null,
    customId: body.custom_id ?? null,
  };
}
