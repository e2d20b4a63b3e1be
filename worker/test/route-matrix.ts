/**
 * @module Every route of the app (Hono's own route table) with a request that exercises it, who may call it and
 * what each kind of caller gets: the authorization matrix (authorization-matrix.ts) checks it as written, and the
 * input fuzz suite (input-fuzz.ts) sends bad variations of each request. One row per route.
 */
import { reset } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { vi } from "vitest";
import { app } from "../app";
import { hashPassword } from "../auth/password";
import { paypalTransactions, productVersions, users } from "../db/schema";
import { syncCustomerState, syncUrl } from "../delivery/sync";
import { secretKeys } from "../lib/crypto";
import { ensureCustomerKey, issueAdminKey, issueImpersonationKey } from "../models/api-keys";
import { createMapping, deleteMapping } from "../models/mappings";
import { createWebhook } from "../models/webhooks";
import { claimWebsite } from "../models/websites";
import { ensureCustomer, findUserByEmail, markEmailVerified, upsertAdmin } from "../models/users";
import { createVerificationToken } from "../models/verification-tokens";
import { readTemplate } from "./database-template";
import { call, db, testEnv } from "./helpers";
import { mailStandins } from "./mail-standins";
import { copyKv } from "./kv-copy";

export const PRINCIPALS = [
  "anonymous",
  "customer",
  "otherCustomer",
  "inactiveCustomer",
  "impersonatedCustomer",
  "admin",
  "inactiveAdmin",
] as const;
export type Principal = (typeof PRINCIPALS)[number];
export type Expected = Record<Principal, number>;

export interface Fixture {
  keys: Record<Principal, string | undefined>;
  customerId: string;
  customerEmail: string;
  mappingId: number;
  /** A mapping of the customer's that runs an experiment (variants A and B, goal "signup"). */
  experimentMappingId: number;
  /** A mapping of the customer's for an audience that holds out 10 % of it (goal "signup"). */
  holdoutMappingId: number;
  /** A mapping of the customer's, deleted (restorable). */
  deletedMappingId: number;
  versionId: number;
  /** The customer's webhook (docs/webhooks.md), pointing at MATRIX_WEBHOOK_URL. */
  webhookId: string;
  transactionId: string;
  verificationToken: string;
}

export interface RouteRequest {
  method?: string;
  path: string;
  json?: unknown;
  body?: string;
}

const PAYPAL_VERIFY_URL = "https://paypal.test/cgi-bin/webscr";
/** Where the fixture's webhook sends the events of the customer's changes. */
const MATRIX_WEBHOOK_URL = "https://hooks.matrix.test/events";

/**
 * PayPal's post-back answers INVALID: the matrix's notification is a forged one, and no test leaves the machine.
 * The fixture's webhook receiver answers 204, the DNS resolver knows no record. For a test file's `beforeEach`;
 * `vi.restoreAllMocks()` in its `afterEach` undoes it.
 */
export function stubPayPalPostBack() {
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url.startsWith(MATRIX_WEBHOOK_URL)) return new Response(null, { status: 204 });
    if (url.startsWith(env.DNS_RESOLVER_URL!)) return Response.json({ Status: 3 });
    return url === PAYPAL_VERIFY_URL ? new Response("INVALID") : realFetch(input, init);
  });
}

const ADMIN_PASSWORD = "matrix admin password";
const PAGE = "<!doctype html><title>Dynamic Content</title>";
let adminPasswordHash: Promise<string> | undefined;

/** A customer (with a mapping), another, an inactive one, an admin acting as the first, an admin, an inactive admin. */
export async function createFixture(): Promise<Fixture> {
  const d = db();
  const keys = secretKeys(env);
  async function customer(email: string, active = true) {
    const user = await ensureCustomer(d, email);
    await markEmailVerified(d, user);
    const key = await ensureCustomerKey(d, keys, user.id);
    if (!active) await d.update(users).set({ isActive: false }).where(eq(users.id, user.id));
    return { user, key };
  }
  async function admin(email: string, active = true) {
    await upsertAdmin(d, email, await (adminPasswordHash ??= hashPassword(ADMIN_PASSWORD)));
    const user = (await findUserByEmail(d, email))!;
    const key = await issueAdminKey(d, keys, user.id);
    if (!active) await d.update(users).set({ isActive: false }).where(eq(users.id, user.id));
    return { user, key };
  }
  const a = await customer("a@example.com");
  const b = await customer("b@example.com");
  const c = await customer("inactive@example.com", false);
  const root = await admin("root@example.com");
  const off = await admin("off@example.com", false);
  const acting = await issueImpersonationKey(d, keys, root.user.id, a.user.id);
  const mapping = await createMapping(d, a.user.id, "https://a.test/page", "<p>A</p>");
  await syncUrl(env, a.user.id, "a.test/page");
  const webhook = await createWebhook(d, keys, a.user.id, MATRIX_WEBHOOK_URL);
  await claimWebsite(d, a.user.id, "a.test", { origin: "https://origin.a.test", mode: "edge" });
  const experiment = await createMapping(d, a.user.id, "https://a.test/test", "<p>A</p>", "a.test/test", {
    experiment: {
      id: "matrixexperiment",
      variants: [
        { key: "A", weight: 50 },
        { key: "B", weight: 50, htmlContent: "<p>B</p>" },
      ],
      goals: ["signup"],
      startedAt: Date.now(),
    },
  });
  await syncUrl(env, a.user.id, "a.test/test");
  const holdout = await createMapping(d, a.user.id, "https://a.test/audience", "<p>DE</p>", "a.test/audience", {
    audience: { name: "Germany", country: ["DE"] },
    holdout: { id: "matrixholdout", share: 10, goals: ["signup"], startedAt: Date.now() },
  });
  await syncUrl(env, a.user.id, "a.test/audience");
  await syncCustomerState(env, a.user.id);
  const deleted = await createMapping(d, a.user.id, "https://a.test/deleted", "<p>deleted</p>");
  await deleteMapping(d, a.user.id, deleted.id);
  const [version] = await d.insert(productVersions).values({ name: "Growth", eventsLimit: 100 }).returning();
  await d.insert(paypalTransactions).values({ transactionId: "TXN-1", userId: a.user.id, payerEmail: a.user.email });
  const pending = await ensureCustomer(d, "pending@example.com");
  return {
    keys: {
      anonymous: undefined,
      customer: a.key,
      otherCustomer: b.key,
      inactiveCustomer: c.key,
      impersonatedCustomer: acting.apiKey,
      admin: root.key,
      inactiveAdmin: off.key,
    },
    customerId: a.user.id,
    customerEmail: a.user.email,
    mappingId: mapping.id,
    experimentMappingId: experiment.id,
    holdoutMappingId: holdout.id,
    deletedMappingId: deleted.id,
    versionId: version!.id,
    webhookId: webhook!.id,
    transactionId: "TXN-1",
    verificationToken: await createVerificationToken(d, pending.id),
  };
}

interface FixtureCopy {
  fixture: Fixture;
  /** When it was made (Date.now()). */
  at: number;
  database: D1PreparedStatement[];
  kv: Awaited<ReturnType<typeof copyKv>>;
}
let made: FixtureCopy | undefined;

/** A copy older than this is made anew: the keys and links in it expire (an admin's acting as a customer in 1 hour). */
const FIXTURE_COPY_MAX_AGE_MS = 10 * 60 * 1000;

/**
 * `createFixture()` for a test that starts from the empty migrated database: made once a test file (and again after
 * FIXTURE_COPY_MAX_AGE_MS), then copied into each later test's emptied stores, the database from its template
 * (database-template.ts), the delivery store key by key: the same rows, ids and keys, at a fraction of the cost.
 */
export async function copiedFixture(): Promise<Fixture> {
  if (made && Date.now() - made.at < FIXTURE_COPY_MAX_AGE_MS) {
    await reset();
    await env.DB.batch(made.database);
    await made.kv.restore();
    return made.fixture;
  }
  const fixture = await createFixture();
  made = { fixture, at: Date.now(), database: await readTemplate(), kv: await copyKv() };
  return fixture;
}

/** Anyone: the key plays no part. */
const anyone = (status: number): Expected => Object.fromEntries(PRINCIPALS.map((p) => [p, status])) as Expected;

/** An active account's key; the account's own data only. */
const signedIn = (status: number, overrides: Partial<Expected> = {}): Expected => ({
  anonymous: 401,
  customer: status,
  otherCustomer: status,
  inactiveCustomer: 403,
  impersonatedCustomer: status,
  admin: status,
  inactiveAdmin: 403,
  ...overrides,
});

/** What only the holder of the account may do, not an admin acting as them. */
const holderOnly = (status: number) => signedIn(status, { impersonatedCustomer: 403 });

/** The customer's own resource (a mapping of theirs): anyone else's key finds nothing. */
const ownersOnly = (status: number) => signedIn(status, { otherCustomer: 404, admin: 404 });

/** Active admins only. */
const adminsOnly = (status: number): Expected => ({
  anonymous: 401,
  customer: 403,
  otherCustomer: 403,
  inactiveCustomer: 403,
  impersonatedCustomer: 403,
  admin: status,
  inactiveAdmin: 403,
});

const user = (f: Fixture) => `/api/admin/users/${f.customerId}`;
const VERSION_BODY = { name: "Pro", eventsLimit: 10, websitesLimit: 1, dynamicContentLimit: null };

/** Every route: `METHOD path` as Hono registers it, the request that exercises it, and who gets what. */
export const MATRIX: Record<string, { request: (f: Fixture) => RouteRequest; expect: Expected }> = {
  "OPTIONS /api/content": { request: () => ({ method: "OPTIONS", path: "/api/content" }), expect: anyone(204) },
  "GET /api/content": {
    request: (f) => ({ path: `/api/content?u=${f.customerId}&url=${encodeURIComponent("https://a.test/page")}` }),
    expect: anyone(200),
  },
  "OPTIONS /api/goals": { request: () => ({ method: "OPTIONS", path: "/api/goals" }), expect: anyone(204) },
  "POST /api/goals": {
    request: (f) => ({
      method: "POST",
      path: "/api/goals",
      json: { u: f.customerId, vid: "matrix-visitor", goal: "signup" },
    }),
    expect: anyone(202),
  },
  "POST /api/register": {
    request: () => ({ path: "/api/register", json: { email: "new@example.com" } }),
    expect: anyone(200),
  },
  "GET /api/verify-email": {
    request: (f) => ({ path: `/api/verify-email?token=${encodeURIComponent(f.verificationToken)}` }),
    expect: anyone(200),
  },
  "GET /api/auth": { request: () => ({ path: "/api/auth" }), expect: signedIn(200) },
  "POST /api/admin/login": {
    request: () => ({ path: "/api/admin/login", json: { email: "root@example.com", password: ADMIN_PASSWORD } }),
    expect: anyone(200),
  },
  "POST /api/login/request-otp": {
    request: (f) => ({ path: "/api/login/request-otp", json: { email: f.customerEmail } }),
    expect: anyone(200),
  },
  // Without the cookie of a pending login there is nothing to check, whoever asks.
  "POST /api/login/verify-otp": {
    request: () => ({ path: "/api/login/verify-otp", json: { code: "12345" } }),
    expect: anyone(400),
  },

  "GET /api/mappings": { request: () => ({ path: "/api/mappings" }), expect: signedIn(200) },
  "POST /api/mappings": {
    request: () => ({ path: "/api/mappings", json: { url: "https://a.test/new", htmlContent: "<p>new</p>" } }),
    expect: signedIn(201),
  },
  "PATCH /api/mappings/:id": {
    request: (f) => ({
      method: "PATCH",
      path: `/api/mappings/${f.mappingId}`,
      json: {
        htmlContent: "<p>changed</p>",
        placement: { position: "inside", selector: "#slot" },
        seo: { title: "T" },
      },
    }),
    expect: ownersOnly(200),
  },
  "GET /api/mappings/:id/versions": {
    request: (f) => ({ path: `/api/mappings/${f.mappingId}/versions` }),
    expect: ownersOnly(200),
  },
  "POST /api/mappings/:id/versions/:version/restore": {
    request: (f) => ({ method: "POST", path: `/api/mappings/${f.mappingId}/versions/1/restore` }),
    expect: ownersOnly(200),
  },
  "GET /api/mappings/:id/experiment": {
    request: (f) => ({ path: `/api/mappings/${f.experimentMappingId}/experiment` }),
    expect: ownersOnly(200),
  },
  "GET /api/mappings/:id/placement-health": {
    request: (f) => ({ path: `/api/mappings/${f.mappingId}/placement-health` }),
    expect: ownersOnly(200),
  },
  "GET /api/mappings/:id/audience-results": {
    request: (f) => ({ path: `/api/mappings/${f.holdoutMappingId}/audience-results` }),
    expect: ownersOnly(200),
  },
  "POST /api/mappings/:id/experiment/promote": {
    request: (f) => ({
      method: "POST",
      path: `/api/mappings/${f.experimentMappingId}/experiment/promote`,
      json: { variant: "B" },
    }),
    expect: ownersOnly(200),
  },
  "POST /api/mappings/:id/preview": {
    request: (f) => ({ method: "POST", path: `/api/mappings/${f.mappingId}/preview` }),
    expect: ownersOnly(201),
  },
  "DELETE /api/mappings/:id/preview": {
    request: (f) => ({ method: "DELETE", path: `/api/mappings/${f.mappingId}/preview` }),
    expect: ownersOnly(200),
  },
  "GET /api/mappings/deleted": { request: () => ({ path: "/api/mappings/deleted" }), expect: signedIn(200) },
  "POST /api/mappings/deleted/:id/restore": {
    request: (f) => ({ method: "POST", path: `/api/mappings/deleted/${f.deletedMappingId}/restore` }),
    expect: ownersOnly(200),
  },
  "PATCH /api/mappings/:id/status": {
    request: (f) => ({ method: "PATCH", path: `/api/mappings/${f.mappingId}/status`, json: { status: "unpublished" } }),
    expect: ownersOnly(200),
  },
  "DELETE /api/mappings/:id": {
    request: (f) => ({ method: "DELETE", path: `/api/mappings/${f.mappingId}` }),
    expect: ownersOnly(200),
  },
  "POST /api/user/api-key/rotate": {
    request: () => ({ path: "/api/user/api-key/rotate", method: "POST" }),
    expect: holderOnly(200),
  },
  // No principal of the fixture subscribed: there is nothing to cancel, but only the holder gets that far.
  "POST /api/user/subscription/cancel": {
    request: () => ({ path: "/api/user/subscription/cancel", method: "POST" }),
    expect: holderOnly(404),
  },
  "GET /api/user/payment-history": { request: () => ({ path: "/api/user/payment-history" }), expect: signedIn(200) },
  "GET /api/user/stats": { request: () => ({ path: "/api/user/stats" }), expect: signedIn(200) },
  "GET /api/user/dashboard": { request: () => ({ path: "/api/user/dashboard" }), expect: signedIn(200) },
  "GET /api/analytics": { request: () => ({ path: "/api/analytics" }), expect: signedIn(200) },
  "GET /api/analytics/timeseries": {
    request: () => ({ path: "/api/analytics/timeseries?interval=week" }),
    expect: signedIn(200),
  },
  "GET /api/product-versions": { request: () => ({ path: "/api/product-versions" }), expect: signedIn(200) },
  "GET /api/paypal/config": { request: () => ({ path: "/api/paypal/config" }), expect: anyone(200) },
  "GET /api/site-config": { request: () => ({ path: "/api/site-config" }), expect: anyone(200) },
  "GET /api/openapi.json": { request: () => ({ path: "/api/openapi.json" }), expect: anyone(200) },
  "POST /api/mappings/import": {
    request: () => ({
      path: "/api/mappings/import?dryRun=1",
      json: [{ url: "https://a.test/bulk", htmlContent: "<p>bulk</p>" }],
    }),
    expect: signedIn(200),
  },
  "GET /api/mappings/export": { request: () => ({ path: "/api/mappings/export?format=json" }), expect: signedIn(200) },
  "GET /api/mappings/match": {
    request: () => ({ path: `/api/mappings/match?url=${encodeURIComponent("https://a.test/page?utm_source=x")}` }),
    expect: signedIn(200),
  },
  "GET /api/url-rules": { request: () => ({ path: "/api/url-rules" }), expect: signedIn(200) },
  "PUT /api/url-rules": {
    request: () => ({ method: "PUT", path: "/api/url-rules", json: { ignoredParameters: ["ref", "aff_*"] } }),
    expect: signedIn(200),
  },
  "GET /api/websites": { request: () => ({ path: "/api/websites" }), expect: signedIn(200) },
  "GET /api/onboarding": { request: () => ({ path: "/api/onboarding" }), expect: signedIn(200) },
  // A local port nobody listens on (development allows loopback): the check answers at once that it is unreachable.
  "POST /api/install-check": {
    request: () => ({ method: "POST", path: "/api/install-check", json: { url: "http://127.0.0.1:9/page" } }),
    expect: signedIn(200),
  },
  // The tests' product has no delivery origin of its own and is not on loopback: no frame origin, 503.
  "POST /api/pick-on-page": {
    request: () => ({ method: "POST", path: "/api/pick-on-page", json: { url: "http://127.0.0.1:9/page" } }),
    expect: signedIn(503),
  },
  // A loopback prefix (development allows it) with no viewed pages under it: nothing to fetch, no pages.
  "POST /api/pick-on-page/check": {
    request: () => ({
      method: "POST",
      path: "/api/pick-on-page/check",
      json: { url: "http://127.0.0.1:9/offers/*", selector: "#hero" },
    }),
    expect: signedIn(200),
  },
  // Only on the frame's origin (the delivery host); on the dashboard's, nothing.
  "GET /pick-frame": { request: () => ({ path: "/pick-frame?t=x" }), expect: anyone(404) },
  // Every fixture has its own customers, so each caller claims a hostname nobody holds yet; in snippet mode, since
  // the customer's edge claim of a.test is all their plan's websites limit allows.
  "PUT /api/websites/:hostname": {
    request: (f) => ({
      method: "PUT",
      path: `/api/websites/shop-${f.customerId.replace(/[^a-z0-9]/gi, "x").toLowerCase()}.test`,
      json: { origin: "https://origin.shop.test", mode: "snippet" },
    }),
    expect: signedIn(201),
  },
  "GET /api/websites/:hostname": { request: () => ({ path: "/api/websites/a.test" }), expect: ownersOnly(200) },
  // The resolver knows no record: the claim stays pending, and the answer says so.
  "POST /api/websites/:hostname/verify": {
    request: () => ({ method: "POST", path: "/api/websites/a.test/verify" }),
    expect: ownersOnly(200),
  },
  // The resolver knows no address: DNS is still waiting.
  "GET /api/websites/:hostname/status": {
    request: () => ({ path: "/api/websites/a.test/status" }),
    expect: ownersOnly(200),
  },
  "DELETE /api/websites/:hostname": {
    request: () => ({ method: "DELETE", path: "/api/websites/a.test" }),
    expect: ownersOnly(200),
  },
  "GET /api/webhooks": { request: () => ({ path: "/api/webhooks" }), expect: signedIn(200) },
  "POST /api/webhooks": {
    request: () => ({ path: "/api/webhooks", json: { url: `${MATRIX_WEBHOOK_URL}/new` } }),
    expect: signedIn(201),
  },
  "DELETE /api/webhooks/:id": {
    request: (f) => ({ method: "DELETE", path: `/api/webhooks/${f.webhookId}` }),
    expect: ownersOnly(200),
  },
  "GET /api/webhooks/:id/deliveries": {
    request: (f) => ({ path: `/api/webhooks/${f.webhookId}/deliveries` }),
    expect: ownersOnly(200),
  },
  "POST /api/webhooks/:id/test": {
    request: (f) => ({ method: "POST", path: `/api/webhooks/${f.webhookId}/test` }),
    expect: ownersOnly(201),
  },
  // A forged notification (PayPal answers INVALID): refused for everyone, whoever sends it.
  "POST /api/paypal/ipn": {
    request: () => ({ path: "/api/paypal/ipn", body: "txn_type=recurring_payment&txn_id=X" }),
    expect: anyone(400),
  },
  "POST /api/store-subscription": {
    request: () => ({ path: "/api/store-subscription", json: { subscriptionId: "I-MATRIX" } }),
    expect: holderOnly(200),
  },
  "GET /api/smtp-config": { request: () => ({ path: "/api/smtp-config" }), expect: adminsOnly(200) },
  // The STARTTLS mail stand-in: a save is tried before it is stored.
  "POST /api/smtp-config": {
    request: () => ({
      path: "/api/smtp-config",
      json: {
        host: "localhost",
        port: String(mailStandins().smtp.starttls),
        user: mailStandins().credentials.user,
        password: mailStandins().credentials.pass,
        from: "noreply@example.com",
      },
    }),
    expect: adminsOnly(200),
  },
  "DELETE /api/smtp-config": {
    request: () => ({ path: "/api/smtp-config", method: "DELETE" }),
    expect: adminsOnly(200),
  },

  "GET /api/admin/overview": { request: () => ({ path: "/api/admin/overview" }), expect: adminsOnly(200) },
  "GET /api/admin/users": { request: () => ({ path: "/api/admin/users" }), expect: adminsOnly(200) },
  "GET /api/admin/users/emails": { request: () => ({ path: "/api/admin/users/emails" }), expect: adminsOnly(200) },
  "GET /api/admin/users/:userId": { request: (f) => ({ path: user(f) }), expect: adminsOnly(200) },
  "GET /api/admin/users/:userId/timeseries": {
    request: (f) => ({ path: `${user(f)}/timeseries?interval=week&url=a.test/page` }),
    expect: adminsOnly(200),
  },
  "GET /api/admin/users/:userId/transactions": {
    request: (f) => ({ path: `${user(f)}/transactions` }),
    expect: adminsOnly(200),
  },
  "GET /api/admin/users/:userIdOrEmail/api-key": {
    request: (f) => ({ path: `${user(f)}/api-key` }),
    expect: adminsOnly(200),
  },
  "POST /api/admin/users/:userId/revoke-api-key": {
    request: (f) => ({ method: "POST", path: `${user(f)}/revoke-api-key` }),
    expect: adminsOnly(200),
  },
  "PATCH /api/admin/users/:userId/status": {
    request: (f) => ({ method: "PATCH", path: `${user(f)}/status`, json: { isActive: false } }),
    expect: adminsOnly(200),
  },
  "PATCH /api/admin/users/:userId/limits": {
    request: (f) => ({ method: "PATCH", path: `${user(f)}/limits`, json: { requestLimit: 5 } }),
    expect: adminsOnly(200),
  },
  "PATCH /api/admin/users/:userId/limit": {
    request: (f) => ({ method: "PATCH", path: `${user(f)}/limit`, json: { limit: 5 } }),
    expect: adminsOnly(200),
  },
  "PATCH /api/admin/users/:userId/email": {
    request: (f) => ({ method: "PATCH", path: `${user(f)}/email`, json: { email: "renamed@example.com" } }),
    expect: adminsOnly(200),
  },
  "POST /api/admin/users/:userId/product-version": {
    request: (f) => ({ path: `${user(f)}/product-version`, json: { versionId: f.versionId } }),
    expect: adminsOnly(200),
  },
  "POST /api/admin/users/:userId/resend-api-key": {
    request: (f) => ({ method: "POST", path: `${user(f)}/resend-api-key` }),
    expect: adminsOnly(200),
  },
  "POST /api/admin/users/:userId/resend-verification": {
    request: (f) => ({ method: "POST", path: `${user(f)}/resend-verification` }),
    expect: adminsOnly(200),
  },
  "DELETE /api/admin/users/:userId": { request: (f) => ({ method: "DELETE", path: user(f) }), expect: adminsOnly(200) },
  "GET /api/admin/mappings": { request: () => ({ path: "/api/admin/mappings" }), expect: adminsOnly(200) },
  "GET /api/admin/mappings/:id": {
    request: (f) => ({ path: `/api/admin/mappings/${f.mappingId}` }),
    expect: adminsOnly(200),
  },
  "GET /api/admin/users/:userId/mappings": {
    request: (f) => ({ path: `${user(f)}/mappings` }),
    expect: adminsOnly(200),
  },
  "GET /api/admin/users/:userId/mapping-groups": {
    request: (f) => ({ path: `${user(f)}/mapping-groups` }),
    expect: adminsOnly(200),
  },
  "DELETE /api/admin/mappings/:id": {
    request: (f) => ({ method: "DELETE", path: `/api/admin/mappings/${f.mappingId}` }),
    expect: adminsOnly(200),
  },
  "GET /api/admin/product-versions": {
    request: () => ({ path: "/api/admin/product-versions" }),
    expect: adminsOnly(200),
  },
  "POST /api/admin/product-versions": {
    request: () => ({ path: "/api/admin/product-versions", json: VERSION_BODY }),
    expect: adminsOnly(201),
  },
  "PATCH /api/admin/product-versions/:id": {
    request: (f) => ({ method: "PATCH", path: `/api/admin/product-versions/${f.versionId}`, json: VERSION_BODY }),
    expect: adminsOnly(200),
  },
  "DELETE /api/admin/product-versions/:id": {
    request: (f) => ({ method: "DELETE", path: `/api/admin/product-versions/${f.versionId}` }),
    expect: adminsOnly(200),
  },
  "GET /api/admin/billing/transactions": {
    request: () => ({ path: "/api/admin/billing/transactions" }),
    expect: adminsOnly(200),
  },
  "GET /api/admin/billing/transaction/:id": {
    request: (f) => ({ path: `/api/admin/billing/transaction/${f.transactionId}` }),
    expect: adminsOnly(200),
  },
  "PATCH /api/admin/billing/transaction/:id/update-email": {
    request: (f) => ({
      method: "PATCH",
      path: `/api/admin/billing/transaction/${f.transactionId}/update-email`,
      json: { email: "payer@example.com" },
    }),
    expect: adminsOnly(200),
  },
  "GET /api/admin/billing/unclaimed-subscriptions": {
    request: () => ({ path: "/api/admin/billing/unclaimed-subscriptions" }),
    expect: adminsOnly(200),
  },
  // The fixture pays through no unclaimed subscription: an admin is told none has this id.
  "POST /api/admin/billing/unclaimed-subscriptions/:id/link": {
    request: () => ({ method: "POST", path: "/api/admin/billing/unclaimed-subscriptions/I-NONE/link" }),
    expect: adminsOnly(404),
  },
  "POST /api/admin/billing/unclaimed-subscriptions/:id/cancel": {
    request: () => ({ method: "POST", path: "/api/admin/billing/unclaimed-subscriptions/I-NONE/cancel" }),
    expect: adminsOnly(404),
  },
  "GET /api/admin/users/:userId/websites": {
    request: (f) => ({ path: `${user(f)}/websites` }),
    expect: adminsOnly(200),
  },
  "DELETE /api/admin/users/:userId/websites/:hostname": {
    request: (f) => ({ method: "DELETE", path: `${user(f)}/websites/a.test` }),
    expect: adminsOnly(200),
  },
  "GET /api/admin/audit-events": { request: () => ({ path: "/api/admin/audit-events" }), expect: adminsOnly(200) },
  // The customer has no analytics events set aside: 404 for the admin, the same refusals for everyone else.
  "POST /api/admin/analytics/quarantine/:userId/release": {
    request: (f) => ({ method: "POST", path: `/api/admin/analytics/quarantine/${f.customerId}/release` }),
    expect: adminsOnly(404),
  },

  "ALL /api/*": { request: () => ({ path: "/api/no-such-route" }), expect: anyone(404) },
  "GET /*": { request: () => ({ path: "/user-dashboard" }), expect: anyone(200) },
  "HEAD /*": { request: () => ({ method: "HEAD", path: "/admin" }), expect: anyone(200) },
};

/**
 * The app's endpoints as Hono registered them. `use()` middleware is registered as method ALL; the one endpoint
 * for every method is the API's 404.
 */
/** Every `parts`-th route of the matrix from the `part`-th on (1-based): parts of even size and mix, one a test file. */
export function matrixPart(part: number, parts: number): string[] {
  return Object.keys(MATRIX)
    .sort()
    .filter((_, index) => index % parts === part - 1);
}

export function appRoutes(): string[] {
  const routes = app.routes
    .map((r) => `${r.method} ${r.path}`)
    .filter((route) => !route.startsWith("ALL ") || route === "ALL /api/*");
  return [...new Set(routes)].sort();
}

/**
 * What a refusal must leave as it was: these tables, these columns (a key's `last_used_at` may move: the key was
 * presented).
 */
const WATCHED: Record<string, "*" | string[]> = {
  users: "*",
  api_keys: ["id", "key_hash", "user_id", "kind", "impersonator_id", "expires_at"],
  url_mappings: "*",
  product_versions: "*",
  smtp_config: "*",
  subscriptions: "*",
  paypal_transactions: "*",
  unclaimed_subscriptions: "*",
  audit_events: "*",
  verification_tokens: "*",
  websites: "*",
  webhooks: ["id", "user_id", "url", "created_at"],
  webhook_deliveries: "*",
};

/** The watched tables' rows: two snapshots are equal when nothing a refusal must leave changed in between. */
export async function snapshot() {
  const results = await env.DB.batch(
    Object.entries(WATCHED).map(([table, columns]) =>
      env.DB.prepare(`select ${columns === "*" ? "*" : columns.join(", ")} from ${table} order by 1`),
    ),
  );
  return results.map((r) => r.results);
}

/**
 * What `snapshot()` compares, recorded as it is written instead of read in full around each request: triggers on
 * the watched tables note each insert, delete and update that changes a watched column. `take()` answers the
 * writes since the last `take()` ("update of users", …) and forgets them. One query a request, not a read of every
 * watched table twice; for the fuzz suite's 10,000 requests. Stricter than two snapshots: a row written and
 * written back counts.
 */
export async function watchWrites() {
  const statements = [env.DB.prepare("create table matrix_writes (write text not null)")];
  for (const [table, watched] of Object.entries(WATCHED)) {
    const columns =
      watched === "*"
        ? (await env.DB.prepare(`select name from pragma_table_info('${table}')`).all<{ name: string }>()).results.map(
            (c) => c.name,
          )
        : watched;
    const changed = columns.map((c) => `old."${c}" is not new."${c}"`).join(" or ");
    const note = (write: string) => `begin insert into matrix_writes values ('${write} ${table}'); end`;
    statements.push(
      env.DB.prepare(`create trigger matrix_insert_${table} after insert on ${table} ${note("insert into")}`),
      env.DB.prepare(`create trigger matrix_delete_${table} after delete on ${table} ${note("delete from")}`),
      env.DB.prepare(
        `create trigger matrix_update_${table} after update on ${table} when ${changed} ${note("update of")}`,
      ),
    );
  }
  await env.DB.batch(statements);
  return {
    take: async () => {
      const [writes] = await env.DB.batch([
        env.DB.prepare("select write from matrix_writes"),
        env.DB.prepare("delete from matrix_writes"),
      ]);
      return (writes!.results as { write: string }[]).map((w) => w.write);
    },
  };
}

export function send(request: RouteRequest, apiKey: string | undefined, headers: HeadersInit = {}) {
  const method = request.method ?? (request.json !== undefined || request.body !== undefined ? "POST" : "GET");
  const init: RequestInit & { apiKey?: string; json?: unknown } = { method, apiKey, json: request.json };
  const sent = new Headers(headers);
  if (request.body !== undefined) {
    init.body = request.body;
    if (!sent.has("Content-Type")) sent.set("Content-Type", "application/x-www-form-urlencoded");
  }
  init.headers = sent;
  const pages = { fetch: async () => new Response(PAGE, { headers: { "Content-Type": "text/html" } }) } as never;
  return call(
    request.path,
    init,
    testEnv({ ASSETS: pages, PAYPAL_IPN_VERIFY_URL: PAYPAL_VERIFY_URL, PAYPAL_RECEIVER_EMAIL: "merchant@matrix.test" }),
  );
}
