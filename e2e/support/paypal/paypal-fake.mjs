// A local stand-in for PayPal (`npm run paypal:fake`), for trying payments by hand and for the end-to-end tests:
// - the IPN post-back (/cgi-bin/webscr): VERIFIED to every `cmd=_notify-validate` post, INVALID to anything else;
// - the REST calls billing makes: an OAuth token (any client id and secret), GET a subscription, GET a plan,
//   POST a subscription's cancel, and POST /v1/billing/plans to create a plan as one would at PayPal;
// - the browser SDK (/sdk/js, e2e/support/paypal/paypal-sdk-standin.js), whose subscribe button creates a subscription here
//   and approves it (ACTIVE, first payment made at the plan's price).
// Plans can also be given on the command line: `npm run paypal:fake -- P-GROWTH=29.00 P-PRO=99.00:EUR`.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { pathToFileURL } from "node:url";

const SDK_SCRIPT = readFileSync(new URL("./paypal-sdk-standin.js", import.meta.url), "utf8");
const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST",
  "Access-Control-Allow-Headers": "Content-Type",
};
/** The receiver the recorded notification (docs/paypal/recurring-payment.ipn) is for. */
export const FAKE_RECEIVER = "merchant@dynamic-content.example";

const addMonth = (date) => {
  const next = new Date(date);
  next.setUTCMonth(next.getUTCMonth() + 1);
  return next;
};

/** A plan as PayPal answers it: one monthly REGULAR cycle at `value` in `currency`. */
function planBody(id, value, currency) {
  return {
    id,
    status: "ACTIVE",
    billing_cycles: [
      {
        tenure_type: "REGULAR",
        sequence: 1,
        frequency: { interval_unit: "MONTH", interval_count: 1 },
        pricing_scheme: { fixed_price: { value, currency_code: currency } },
      },
    ],
  };
}

export function startPayPalFake({ port = 0, host = "127.0.0.1", plans = {} } = {}) {
  const received = [];
  const cancels = [];
  const planStore = new Map(
    Object.entries(plans).map(([id, { value, currency = "USD" }]) => [id, planBody(id, value, currency)]),
  );
  const subscriptions = new Map();
  const tokens = new Set();
  const counters = { plans: 0, subscriptions: 0 };

  const send = (res, status, body, type = "application/json") => {
    res.writeHead(status, { ...CORS, ...(body === undefined ? {} : { "Content-Type": type }) });
    res.end(body === undefined ? undefined : type === "application/json" ? JSON.stringify(body) : body);
  };
  const authorized = (req) => tokens.has((req.headers.authorization ?? "").replace(/^Bearer /, ""));

  function handle(req, res, body) {
    const path = new URL(req.url ?? "/", "http://fake").pathname;
    const json = () => {
      try {
        return JSON.parse(body.toString() || "{}");
      } catch {
        return {};
      }
    };
    if (req.method === "OPTIONS") return send(res, 204);
    if (req.method === "GET" && path === "/sdk/js") return send(res, 200, SDK_SCRIPT, "text/javascript");
    if (req.method === "POST" && path === "/cgi-bin/webscr") {
      received.push(body);
      const ok = body.subarray(0, 21).toString() === "cmd=_notify-validate&";
      return send(res, 200, ok ? "VERIFIED" : "INVALID", "text/plain");
    }
    if (req.method === "POST" && path === "/v1/oauth2/token") {
      if (!(req.headers.authorization ?? "").startsWith("Basic ")) return send(res, 401, { error: "invalid_client" });
      const token = randomBytes(16).toString("hex");
      tokens.add(token);
      return send(res, 200, { access_token: token, token_type: "Bearer", expires_in: 32400 });
    }
    // The browser SDK's side: the buyer creates and approves a subscription.
    if (req.method === "POST" && path === "/sdk/subscriptions") {
      const { plan_id, custom_id } = json();
      if (!planStore.has(plan_id)) return send(res, 422, { name: "UNPROCESSABLE_ENTITY", message: "unknown plan" });
      const id = `I-STANDIN-${++counters.subscriptions}`;
      subscriptions.set(id, {
        id,
        status: "APPROVAL_PENDING",
        plan_id,
        custom_id,
        plan_overridden: false,
        quantity: "1",
      });
      return send(res, 201, { id, status: "APPROVAL_PENDING" });
    }
    const approve = path.match(/^\/sdk\/subscriptions\/([^/]+)\/approve$/);
    if (req.method === "POST" && approve) {
      const sub = subscriptions.get(decodeURIComponent(approve[1]));
      if (!sub) return send(res, 404, { name: "RESOURCE_NOT_FOUND" });
      const now = new Date();
      const price = planStore.get(sub.plan_id).billing_cycles[0].pricing_scheme.fixed_price;
      Object.assign(sub, {
        status: "ACTIVE",
        start_time: now.toISOString(),
        billing_info: {
          next_billing_time: addMonth(now).toISOString(),
          last_payment: { amount: price, time: now.toISOString() },
        },
      });
      return send(res, 200, sub);
    }
    // PayPal's REST API, for the Worker.
    if (!path.startsWith("/v1/")) return send(res, 404, { name: "RESOURCE_NOT_FOUND" });
    if (!authorized(req)) return send(res, 401, { name: "AUTHENTICATION_FAILURE" });
    if (req.method === "POST" && path === "/v1/billing/plans") {
      const plan = json();
      const price = plan.billing_cycles?.find((c) => c.tenure_type === "REGULAR")?.pricing_scheme?.fixed_price;
      if (!price) return send(res, 400, { name: "INVALID_REQUEST", message: "a REGULAR cycle with a price" });
      const id = `P-STANDIN-${++counters.plans}`;
      planStore.set(id, { ...planBody(id, price.value, price.currency_code), name: plan.name });
      return send(res, 201, planStore.get(id));
    }
    const planPath = path.match(/^\/v1\/billing\/plans\/([^/]+)$/);
    if (req.method === "GET" && planPath) {
      const plan = planStore.get(decodeURIComponent(planPath[1]));
      return plan ? send(res, 200, plan) : send(res, 404, { name: "RESOURCE_NOT_FOUND" });
    }
    const cancel = path.match(/^\/v1\/billing\/subscriptions\/([^/]+)\/cancel$/);
    if (req.method === "POST" && cancel) {
      const sub = subscriptions.get(decodeURIComponent(cancel[1]));
      if (!sub) return send(res, 404, { name: "RESOURCE_NOT_FOUND" });
      if (sub.status !== "ACTIVE" && sub.status !== "SUSPENDED") {
        return send(res, 422, { name: "UNPROCESSABLE_ENTITY", details: [{ issue: "SUBSCRIPTION_STATUS_INVALID" }] });
      }
      sub.status = "CANCELLED";
      cancels.push(sub.id);
      return send(res, 204);
    }
    const subPath = path.match(/^\/v1\/billing\/subscriptions\/([^/]+)$/);
    if (req.method === "GET" && subPath) {
      const sub = subscriptions.get(decodeURIComponent(subPath[1]));
      return sub ? send(res, 200, sub) : send(res, 404, { name: "RESOURCE_NOT_FOUND" });
    }
    return send(res, 404, { name: "RESOURCE_NOT_FOUND" });
  }

  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => handle(req, res, Buffer.concat(chunks)));
  });
  return new Promise((resolve) => {
    server.listen(port, host, () => {
      const origin = `http://${host}:${server.address().port}`;
      resolve({
        apiBase: origin,
        url: `${origin}/cgi-bin/webscr`,
        sdkUrl: `${origin}/sdk/js`,
        received,
        cancels,
        subscriptions,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const plans = Object.fromEntries(
    process.argv.slice(2).map((arg) => {
      const [id, price = ""] = arg.split("=");
      const [value, currency] = price.split(":");
      return [id, { value, currency }];
    }),
  );
  const port = Number(process.env.PAYPAL_FAKE_PORT ?? 8790);
  const fake = await startPayPalFake({ port, plans });
  console.log(`PayPal stand-in at ${fake.apiBase} (plans: ${Object.keys(plans).join(", ") || "none"})`);
  console.log("Put into .dev.vars: PAYPAL_CLIENT_SECRET=stand-in (any value), then start the product with:");
  console.log(
    `PAYPAL_ENVIRONMENT=sandbox PAYPAL_CLIENT_ID=stand-in PAYPAL_API_BASE=${fake.apiBase} ` +
      `PAYPAL_IPN_VERIFY_URL=${fake.url} PAYPAL_SDK_URL=${fake.sdkUrl} PAYPAL_RECEIVER_EMAIL=${FAKE_RECEIVER} npm start`,
  );
}
