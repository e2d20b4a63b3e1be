/**
 * PayPal for the Worker tests, faked at `fetch`: the IPN post-back (production or sandbox address) answers
 * `verdict`, and the REST API knows `subscriptions` and `plans`, hands out tokens and records cancels. Also the
 * IPN messages PayPal would send, with dates relative to the real clock.
 */
import { addMonths } from "date-fns";
import { afterEach, beforeEach, vi } from "vitest";
import type { Env } from "../env";
import { PAYPAL_HOSTS } from "../paypal/config";
import { call, testEnv } from "./helpers";

export const PAYPAL_API = "https://paypal.test";
export const RECEIVER = "merchant@dc.test";

export interface FakeSubscription {
  status: string;
  plan_id: string;
  custom_id: string;
  plan_overridden?: boolean;
  quantity?: string;
  billing_info?: {
    next_billing_time?: string;
    last_payment?: { amount: { value: string; currency_code: string }; time: string };
  };
}

export interface FakePayPal {
  /** What the IPN post-back answers: a word, an HTTP status, or a network failure. */
  verdict: "VERIFIED" | "INVALID" | number | Error;
  /** Each post-back: the address and the body. */
  postedBack: { url: string; body: Uint8Array }[];
  subscriptions: Record<string, FakeSubscription>;
  plans: Record<string, unknown>;
  /** True: the REST API answers 503 to everything. */
  restDown: boolean;
  /** The status the cancel call answers (204 cancels the subscription). */
  cancelAnswer: number;
  cancels: string[];
  tokenRequests: RequestInit[];
}

/** A monthly plan with one REGULAR cycle at `value`. */
export function monthlyPlan(value: string, currency = "USD", intervalUnit = "MONTH") {
  return {
    billing_cycles: [
      {
        tenure_type: "REGULAR",
        frequency: { interval_unit: intervalUnit, interval_count: 1 },
        pricing_scheme: { fixed_price: { value, currency_code: currency } },
      },
    ],
  };
}

/** An ACTIVE subscription paid now, next billed in a month. */
export function activeSubscription(userId: string, planId: string, price = "29.00"): FakeSubscription {
  const now = new Date();
  return {
    status: "ACTIVE",
    plan_id: planId,
    custom_id: userId,
    billing_info: {
      next_billing_time: addMonths(now, 1).toISOString(),
      last_payment: { amount: { value: price, currency_code: "USD" }, time: now.toISOString() },
    },
  };
}

/** Installs the fake for every test of the file; read the returned object's fields inside the tests. */
export function usePayPalFake(): FakePayPal {
  const fake = {} as FakePayPal;
  beforeEach(() => {
    Object.assign(fake, {
      verdict: "VERIFIED",
      postedBack: [],
      subscriptions: {},
      plans: {},
      restDown: false,
      cancelAnswer: 204,
      cancels: [],
      tokenRequests: [],
    } satisfies FakePayPal);
    const realFetch = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url === PAYPAL_HOSTS.production.ipnVerifyUrl || url === PAYPAL_HOSTS.sandbox.ipnVerifyUrl) {
        fake.postedBack.push({ url, body: new Uint8Array(await new Response(init!.body).arrayBuffer()) });
        if (fake.verdict instanceof Error) throw fake.verdict;
        return typeof fake.verdict === "number"
          ? new Response("busy", { status: fake.verdict })
          : new Response(fake.verdict);
      }
      if (!url.startsWith(PAYPAL_API)) return realFetch(input, init);
      if (fake.restDown) return new Response("unavailable", { status: 503 });
      const path = url.slice(PAYPAL_API.length);
      if (path === "/v1/oauth2/token") {
        fake.tokenRequests.push(init!);
        return Response.json({ access_token: "token-1" });
      }
      if (new Headers(init?.headers).get("Authorization") !== "Bearer token-1")
        return new Response(null, { status: 401 });
      const cancel = path.match(/^\/v1\/billing\/subscriptions\/([^/]+)\/cancel$/);
      if (cancel && init?.method === "POST") {
        const id = decodeURIComponent(cancel[1]!);
        fake.cancels.push(id);
        const sub = fake.subscriptions[id];
        if (fake.cancelAnswer === 204 && sub) sub.status = "CANCELLED";
        return new Response(null, { status: sub ? fake.cancelAnswer : 404 });
      }
      const sub = path.match(/^\/v1\/billing\/subscriptions\/([^/]+)$/);
      if (sub) {
        const id = decodeURIComponent(sub[1]!);
        const found = fake.subscriptions[id];
        return found ? Response.json({ id, ...found }) : new Response("not found", { status: 404 });
      }
      const plan = path.match(/^\/v1\/billing\/plans\/([^/]+)$/);
      if (plan) {
        const id = decodeURIComponent(plan[1]!);
        const found = fake.plans[id];
        return found ? Response.json({ id, ...(found as object) }) : new Response("not found", { status: 404 });
      }
      return new Response("unknown", { status: 404 });
    });
  });
  afterEach(() => vi.restoreAllMocks());
  return fake;
}

/** REST credentials, the REST fake, and our receiver: PayPal fully configured (production endpoints). */
export function paypalEnv(overrides: Partial<Env> = {}) {
  return testEnv({
    PAYPAL_CLIENT_ID: "client",
    PAYPAL_CLIENT_SECRET: "secret",
    PAYPAL_API_BASE: PAYPAL_API,
    PAYPAL_RECEIVER_EMAIL: RECEIVER,
    ...overrides,
  });
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const pad = (n: number) => String(n).padStart(2, "0");

/** A date as IPN messages write it, e.g. `03:00:00 Nov 22, 2026 PST` (PST is UTC-8). */
export function payPalDate(date: Date): string {
  const pst = new Date(date.getTime() - 8 * 3_600_000);
  return `${pad(pst.getUTCHours())}:${pad(pst.getUTCMinutes())}:${pad(pst.getUTCSeconds())} ${
    MONTHS[pst.getUTCMonth()]
  } ${pst.getUTCDate()}, ${pst.getUTCFullYear()} PST`;
}

/** Whole seconds, as IPN dates carry them. */
export const toSecond = (date: Date) => new Date(Math.floor(date.getTime() / 1000) * 1000);

/** A recurring payment of 29.00 USD for subscription I-SUB1 paid an hour ago, next due in a month. */
export function ipnBody(fields: Record<string, string | null> = {}): string {
  const paid = toSecond(new Date(Date.now() - 3_600_000));
  const all: Record<string, string | null> = {
    mc_gross: "29.00",
    outstanding_balance: "0.00",
    period_type: " Regular",
    next_payment_date: payPalDate(addMonths(paid, 1)),
    protection_eligibility: "Eligible",
    payment_cycle: "Monthly",
    address_status: "confirmed",
    tax: "0.00",
    payer_id: "PAYER123",
    address_street: "1 Main St",
    payment_date: payPalDate(paid),
    payment_status: "Completed",
    product_name: "Growth",
    charset: "UTF-8",
    recurring_payment_id: "I-SUB1",
    address_zip: "10115",
    first_name: "Jane",
    mc_fee: "1.14",
    address_country_code: "DE",
    address_name: "Jane Doe",
    notify_version: "3.9",
    amount_per_cycle: "29.00",
    payer_status: "verified",
    currency_code: "USD",
    business: RECEIVER,
    address_country: "Germany",
    address_city: "Berlin",
    verify_sign: "AbC123",
    payer_email: "Jane@Shop.test",
    initial_payment_amount: "0.00",
    profile_status: "Active",
    amount: "29.00",
    txn_id: "TXN-1",
    payment_type: "instant",
    last_name: "Doe",
    address_state: "Berlin",
    receiver_email: RECEIVER,
    payment_fee: "",
    receiver_id: "RECV1",
    txn_type: "recurring_payment",
    mc_currency: "USD",
    residence_country: "DE",
    transaction_subject: "Growth plan",
    payment_gross: "29.00",
    product_type: "1",
    time_created: "02:59:00 Oct 22, 2026 PST",
    ipn_track_id: "track1",
    ...fields,
  };
  return Object.entries(all)
    .filter((entry): entry is [string, string] => entry[1] !== null)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v).replace(/%20/g, "+")}`)
    .join("&");
}

/** Posts an IPN message as PayPal would; answers the response. */
export function postIpn(body: string | Uint8Array, e: Env = paypalEnv()) {
  return call(
    "/api/paypal/ipn",
    { method: "POST", body, headers: { "Content-Type": "application/x-www-form-urlencoded" } },
    e,
  );
}
