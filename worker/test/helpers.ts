/** Test helpers: call the app with a recording queue, capture console mails, seed users. */
import { createExecutionContext, createMessageBatch, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { vi } from "vitest";
import type { AnalyticsMessage } from "../messages/analytics";
import type { DeliverySyncMessage } from "../messages/delivery-sync";
import { app } from "../app";
import worker from "../index";
import { hashPassword } from "../auth/password";
import { createDb } from "../db/client";
import { productVersions, users } from "../db/schema";
import { syncCustomerState } from "../delivery/sync";
import type { Env } from "../env";
import { productOrigins } from "../http/origin";
import { secretKeys } from "../lib/crypto";
import { ensureCustomerKey, issueAdminKey } from "../models/api-keys";
import { ensureCustomer, findUserByEmail, markEmailVerified, upsertAdmin } from "../models/users";

export const db = () => createDb(env.DB);

export interface TestEnv extends Env {
  sent: AnalyticsMessage[];
  /** What was sent to the delivery queue (after a bulk import). */
  deliverySyncs: DeliverySyncMessage[];
}

/** A queue that records what is sent to it instead of delivering it. */
export function recordingQueue<T>(sent: T[]): Queue<T> {
  return {
    send: async (m: T) => void sent.push(m),
    sendBatch: async (ms: Iterable<MessageSendRequest<T>>) => {
      for (const m of ms) sent.push(m.body);
    },
  } as unknown as Queue<T>;
}

/** The product's own origin in production tests (production takes https only). */
export const PRODUCTION_ORIGIN = "https://dc.test";

/**
 * The real bindings, with queues that record what is sent instead of delivering it. In production
 * (`ENVIRONMENT: "production"`) the product is at PRODUCTION_ORIGIN unless the test says otherwise.
 */
export function testEnv(overrides: Partial<Env> = {}): TestEnv {
  const sent: AnalyticsMessage[] = [];
  const deliverySyncs: DeliverySyncMessage[] = [];
  return {
    ...env,
    ANALYTICS_QUEUE: recordingQueue(sent),
    DELIVERY_QUEUE: recordingQueue(deliverySyncs),
    ...(overrides.ENVIRONMENT === "production" ? { PUBLIC_ORIGIN: PRODUCTION_ORIGIN } : {}),
    ...overrides,
    sent,
    deliverySyncs,
  };
}

/** Calls the app like a client would and waits for its background work. */
export async function call(
  path: string,
  init: RequestInit & { apiKey?: string; json?: unknown } = {},
  e: Env = testEnv(),
) {
  const headers = new Headers(init.headers);
  if (init.apiKey) headers.set("X-API-Key", init.apiKey);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(init.json);
  }
  const ctx = createExecutionContext();
  // A path asks the product's own origin (PUBLIC_ORIGIN, http://dc.test unless the env says otherwise); a full URL
  // asks that host.
  const url = /^https?:\/\//.test(path) ? path : `${productOrigins(e).origins?.public ?? "http://dc.test"}${path}`;
  const response = await app.request(url, { ...init, headers, body }, e, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

/** Collects what the console mail transport prints. */
export function captureMails() {
  const spy = vi.spyOn(console, "log").mockImplementation(() => undefined);
  return {
    texts: () => spy.mock.calls.map((args) => args.join(" ")).filter((s) => s.startsWith("[mail]")),
    lastLink: () => {
      const links = spy.mock.calls.flatMap(
        (args) => args.join(" ").match(/https?:\/\/\S+(?:verify-email|register-form)\?token=\S+/g) ?? [],
      );
      return links.at(-1);
    },
    restore: () => spy.mockRestore(),
  };
}

/** A customer as the verification link leaves them: verified, with a key and their delivery state written. */
export async function createVerifiedCustomer(email: string) {
  const d = db();
  const user = await ensureCustomer(d, email);
  await markEmailVerified(d, user);
  const apiKey = await ensureCustomerKey(d, secretKeys(env), user.id);
  await syncCustomerState(env, user.id);
  return { user: (await findUserByEmail(d, email))!, apiKey };
}

/**
 * `count` verified customers in one statement, for tests that need many (far cheaper than
 * `createVerifiedCustomer`): customer n has the id `bulk` + n in 12 digits and the email `bulk<n>@example.com`,
 * and customers are created in that order. Answers their ids.
 */
export async function insertCustomers(count: number): Promise<string[]> {
  await env.DB.prepare(
    `with recursive n(i) as (select 1 union all select i + 1 from n where i < ?1)
     insert into users (id, email, email_verified, created_at)
     select printf('bulk%012d', i), 'bulk' || i || '@example.com', 1, i from n`,
  )
    .bind(count)
    .run();
  return Array.from({ length: count }, (_, i) => `bulk${String(i + 1).padStart(12, "0")}`);
}

/** A verified customer on a plan of its own with these limits. */
export async function createCustomerOnPlan(plan: {
  eventsLimit?: number | null;
  websitesLimit?: number | null;
  dynamicContentLimit?: number | null;
}) {
  const [version] = await db()
    .insert(productVersions)
    .values({ name: `Plan ${crypto.randomUUID()}`, ...plan })
    .returning();
  const customer = await createVerifiedCustomer(`c${crypto.randomUUID()}@example.com`);
  await db().update(users).set({ productVersionId: version!.id }).where(eq(users.id, customer.user.id));
  await syncCustomerState(env, customer.user.id);
  return customer;
}

export async function createAdmin(email = "admin@example.com", password = "correct horse battery") {
  await upsertAdmin(db(), email, await hashPassword(password));
  const user = (await findUserByEmail(db(), email))!;
  return { user, password, apiKey: await issueAdminKey(db(), secretKeys(env), user.id) };
}

/** A page view: the content request, then its analytics message through the real queue consumer. */
export async function visit(userId: string, url: string): Promise<number> {
  const e = testEnv();
  const res = await call(`/api/content?u=${encodeURIComponent(userId)}&url=${encodeURIComponent(url)}`, {}, e);
  if (e.sent.length) {
    const batch = createMessageBatch<AnalyticsMessage>(
      "dynamic-content-analytics",
      e.sent.map((body) => ({ id: body.id, timestamp: new Date(), attempts: 1, body })),
    );
    await worker.queue(batch, env);
  }
  return res.status;
}
