/** The PayPal stand-in's REST API (e2e/support/paypal/paypal-fake.mjs), called as the product owner would call PayPal's. */
import { paypalApi } from "./product";

async function paypal<T>(path: string, init: RequestInit = {}): Promise<T> {
  const token = await fetch(`${paypalApi}/v1/oauth2/token`, {
    method: "POST",
    headers: { Authorization: `Basic ${btoa("e2e-client:e2e-secret")}` },
    body: "grant_type=client_credentials",
  });
  const { access_token } = (await token.json()) as { access_token: string };
  const headers = new Headers(init.headers);
  headers.set("Authorization", `Bearer ${access_token}`);
  headers.set("Content-Type", "application/json");
  const res = await fetch(`${paypalApi}${path}`, { ...init, headers });
  if (!res.ok) throw new Error(`PayPal stand-in ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Creates a monthly plan at `price` USD at PayPal; answers its plan id. */
export async function createPayPalPlan(name: string, price: string): Promise<string> {
  const plan = await paypal<{ id: string }>("/v1/billing/plans", {
    method: "POST",
    body: JSON.stringify({
      name,
      billing_cycles: [
        {
          tenure_type: "REGULAR",
          frequency: { interval_unit: "MONTH", interval_count: 1 },
          pricing_scheme: { fixed_price: { value: price, currency_code: "USD" } },
        },
      ],
    }),
  });
  return plan.id;
}

/** The subscription's status as PayPal has it. */
export async function payPalSubscriptionStatus(subscriptionId: string): Promise<string> {
  return (await paypal<{ status: string }>(`/v1/billing/subscriptions/${encodeURIComponent(subscriptionId)}`)).status;
}

/**
 * What the buyer's browser does in the plan dialog (the SDK's create and approve) without the dialog storing the
 * subscription afterwards: an ACTIVE subscription of `customId` at PayPal that the product never heard of.
 */
export async function approveWithoutStoring(planId: string, customId: string): Promise<string> {
  const post = async (path: string, body?: unknown) => {
    const res = await fetch(`${paypalApi}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`PayPal stand-in ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { id: string };
  };
  const { id } = await post("/sdk/subscriptions", { plan_id: planId, custom_id: customId });
  await post(`/sdk/subscriptions/${encodeURIComponent(id)}/approve`);
  return id;
}
