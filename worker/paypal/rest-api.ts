/**
 * @module PayPal's REST API, the calls billing needs: an OAuth2 client-credentials token (kept per isolate until
 * shortly before it expires), a subscription, a plan, and cancelling a subscription. Answers are checked with
 * zod; anything PayPal cannot answer properly is a `PayPalUnavailableError` (the caller retries later).
 */
import { z } from "zod";
import type { Env } from "../env";
import { paypalConfig } from "./config";

const TIMEOUT_MS = 10_000;
const TOKEN_MARGIN_MS = 60_000;

export class PayPalUnavailableError extends Error {}

const money = z.object({ value: z.string(), currency_code: z.string() });

const subscriptionAnswer = z.object({
  id: z.string(),
  status: z.string(),
  plan_id: z.string().optional(),
  custom_id: z.string().optional(),
  plan_overridden: z.boolean().optional(),
  quantity: z.string().optional(),
  start_time: z.string().optional(),
  billing_info: z
    .object({
      next_billing_time: z.string().optional(),
      last_payment: z.object({ amount: money, time: z.string() }).optional(),
    })
    .optional(),
});

const planAnswer = z.object({
  id: z.string(),
  billing_cycles: z
    .array(
      z.object({
        tenure_type: z.string(),
        frequency: z.object({ interval_unit: z.string(), interval_count: z.number().optional() }).optional(),
        pricing_scheme: z.object({ fixed_price: money.optional() }).optional(),
      }),
    )
    .default([]),
});

export interface PayPalSubscription {
  id: string;
  /** APPROVAL_PENDING, APPROVED, ACTIVE, SUSPENDED, CANCELLED or EXPIRED. */
  status: string;
  planId: string | null;
  customId: string | null;
  planOverridden: boolean;
  quantity: string | null;
  nextBillingTime: Date | null;
  lastPayment: { value: string; currency: string; time: Date } | null;
}

export interface PayPalPlan {
  id: string;
  /** The REGULAR billing cycle: what every period after any trial costs. */
  regular: { value: string; currency: string; intervalUnit: string; intervalCount: number } | null;
}

const dateOrNull = (iso: string | undefined) => {
  const ms = iso ? Date.parse(iso) : NaN;
  return Number.isNaN(ms) ? null : new Date(ms);
};

const tokens = new Map<string, { token: string; until: number }>();

async function request(url: string, init: RequestInit, what: string): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (err) {
    throw new PayPalUnavailableError(`PayPal ${what} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}

async function accessToken(env: Env): Promise<string> {
  const { apiBase, clientId, clientSecret } = paypalConfig(env);
  if (!clientId || !clientSecret) throw new PayPalUnavailableError("PayPal REST credentials are not configured");
  const cacheKey = `${apiBase} ${clientId}`;
  const cached = tokens.get(cacheKey);
  if (cached && cached.until > Date.now()) return cached.token;
  const res = await request(
    `${apiBase}/v1/oauth2/token`,
    {
      method: "POST",
      headers: {
        Authorization: `Basic ${btoa(`${clientId}:${clientSecret}`)}`,
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: "grant_type=client_credentials",
    },
    "token request",
  );
  if (!res.ok) throw new PayPalUnavailableError(`PayPal token request answered ${res.status}`);
  const body = z
    .object({ access_token: z.string().min(1), expires_in: z.number().optional() })
    .safeParse(await res.json().catch(() => null));
  if (!body.success) throw new PayPalUnavailableError("PayPal answered no access token");
  const lifetimeMs = (body.data.expires_in ?? 0) * 1000 - TOKEN_MARGIN_MS;
  if (lifetimeMs > 0) tokens.set(cacheKey, { token: body.data.access_token, until: Date.now() + lifetimeMs });
  return body.data.access_token;
}

/** A GET of PayPal's REST API: the parsed answer, or null for 404. */
async function getResource<T>(env: Env, path: string, schema: z.ZodType<T>, what: string): Promise<T | null> {
  const token = await accessToken(env);
  const res = await request(
    `${paypalConfig(env).apiBase}${path}`,
    { headers: { Authorization: `Bearer ${token}`, Accept: "application/json" } },
    what,
  );
  if (res.status === 404) return null;
  if (!res.ok) throw new PayPalUnavailableError(`PayPal ${what} answered ${res.status}`);
  const parsed = schema.safeParse(await res.json().catch(() => null));
  if (!parsed.success) throw new PayPalUnavailableError(`PayPal ${what} answered an unexpected body`);
  return parsed.data;
}

/** The subscription as PayPal has it, or null when PayPal does not know it. */
export async function getSubscription(env: Env, subscriptionId: string): Promise<PayPalSubscription | null> {
  const body = await getResource(
    env,
    `/v1/billing/subscriptions/${encodeURIComponent(subscriptionId)}`,
    subscriptionAnswer,
    "subscription request",
  );
  if (!body) return null;
  const last = body.billing_info?.last_payment;
  const lastTime = dateOrNull(last?.time);
  return {
    id: body.id,
    status: body.status.toUpperCase(),
    planId: body.plan_id ?? null,
    customId: body.custom_id ?? null,
    planOverridden: body.plan_overridden === true,
    quantity: body.quantity ?? null,
    nextBillingTime: dateOrNull(body.billing_info?.next_billing_time),
    lastPayment:
      last && lastTime ? { value: last.amount.value, currency: last.amount.currency_code, time: lastTime } : null,
  };
}

/** The plan as PayPal has it, or null when PayPal does not know it. */
export async function getPlan(env: Env, planId: string): Promise<PayPalPlan | null> {
  const body = await getResource(env, `/v1/billing/plans/${encodeURIComponent(planId)}`, planAnswer, "plan request");
  if (!body) return null;
  const regular = body.billing_cycles.find((cycle) => cycle.tenure_type.toUpperCase() === "REGULAR");
  const price = regular?.pricing_scheme?.fixed_price;
  return {
    id: body.id,
    regular:
      regular && price
        ? {
            value: price.value,
            currency: price.currency_code,
            intervalUnit: regular.frequency?.interval_unit.toUpperCase() ?? "",
            intervalCount: regular.frequency?.interval_count ?? 1,
          }
        : null,
  };
}

/**
 * Asks PayPal to cancel the subscription: "cancelled" when PayPal did, "refused" when PayPal will not (it does not
 * know the subscription, or its status allows no cancelling, e.g. already cancelled).
 */
export async function cancelSubscription(
  env: Env,
  subscriptionId: string,
  reason: string,
): Promise<"cancelled" | "refused"> {
  const token = await accessToken(env);
  const res = await request(
    `${paypalConfig(env).apiBase}/v1/billing/subscriptions/${encodeURIComponent(subscriptionId)}/cancel`,
    {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ reason: reason.slice(0, 127) }),
    },
    "cancel request",
  );
  if (res.ok) return "cancelled";
  if (res.status === 404 || res.status === 422) return "refused";
  throw new PayPalUnavailableError(`PayPal cancel request answered ${res.status}`);
}
