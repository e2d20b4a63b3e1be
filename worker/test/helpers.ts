/** Test helpers: call the app with a recording queue, capture console mails, seed users. */
import { createExecutionContext, createMessageBatch, getQueueResult, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { vi } from "vitest";
import {
  ANALYTICS_QUEUE_NAME,
  viewsOf,
  type AnalyticsMessage,
  type PageViewBundle,
  type PageViewEvent,
} from "../messages/analytics";
import { foldPendingAnalytics } from "../analytics/fold";
import { settleCounters } from "../analytics/reducer-shards";
import type { DeliverySyncMessage } from "../messages/delivery-sync";
import { app } from "../app";
import worker from "../index";
import { hashPassword } from "../auth/password";
import { createDb } from "../db/client";
import { productVersions, users } from "../db/schema";
import { MessageGatherer } from "../delivery/page-view-relay";
import { syncCustomerState } from "../delivery/sync";
import { relayWindowMs } from "../delivery/view-bundle";
import type { Env } from "../env";
import { productOrigins } from "../http/origin";
import { secretKeys } from "../lib/crypto";
import { ensureCustomerKey, issueAdminKey } from "../models/api-keys";
import { ensureCustomer, findUserByEmail, markEmailVerified, upsertAdmin } from "../models/users";

export const db = () => createDb(env.DB);

/** A page view as the consumer receives it: of no mapping, delivered, now; `extra` sets any other field. */
export const pageViewEvent = (userId: string, url: string, extra: Partial<PageViewEvent> = {}): PageViewEvent => ({
  id: crypto.randomUUID(),
  userId,
  url,
  mappingId: null,
  delivered: true,
  timestamp: Date.now(),
  userAgent: "ua",
  referer: null,
  ...extra,
});

export interface TestEnv extends Env {
  /** The page views sent to the analytics queue, in the order sent, whatever messages carried them. */
  sent: PageViewEvent[];
  /** The analytics messages themselves. */
  analyticsMessages: AnalyticsMessage[];
  /** What was sent to the delivery queue (after a bulk import). */
  deliverySyncs: DeliverySyncMessage[];
  /** The bundles isolates handed to the relay (one stand-in relay, the real MessageGatherer, sending to the queue). */
  relayed: PageViewBundle[];
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
  const analyticsMessages: AnalyticsMessage[] = [];
  const sent: PageViewEvent[] = [];
  const deliverySyncs: DeliverySyncMessage[] = [];
  const relayed: PageViewBundle[] = [];
  const analyticsQueue = recordingQueue(analyticsMessages);
  const send = async (m: AnalyticsMessage) => {
    await analyticsQueue.send(m);
    sent.push(...viewsOf(m));
  };
  const gatherer = new MessageGatherer(relayWindowMs({ ...env, ...overrides }), send);
  const relay = {
    relay: (bundle: PageViewBundle) => (relayed.push(bundle), gatherer.relay(bundle).then(() => true)),
  };
  return {
    ...env,
    ANALYTICS_QUEUE: { ...analyticsQueue, send } as unknown as Queue<AnalyticsMessage>,
    PAGE_VIEW_RELAY: { getByName: () => relay } as unknown as Env["PAGE_VIEW_RELAY"],
    DELIVERY_QUEUE: recordingQueue(deliverySyncs),
    ...(overrides.ENVIRONMENT === "production" ? { PUBLIC_ORIGIN: PRODUCTION_ORIGIN } : {}),
    ...overrides,
    sent,
    analyticsMessages,
    deliverySyncs,
    relayed,
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

/** Creates a mapping at `url` that runs an A/B test (B with its own HTML) measuring `goals`; answers the response. */
export const postAbTest = (apiKey: string, url: string, goals: string[] = ["signup"]) =>
  call("/api/mappings", {
    method: "POST",
    apiKey,
    json: {
      url,
      htmlContent: "<p>A</p>",
      variants: [
        { key: "A", weight: 50 },
        { key: "B", weight: 50, htmlContent: "<p>B</p>" },
      ],
      goals,
    },
  });

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

/** Delivers analytics messages to the real queue consumer as one batch, as the `attempts`-th delivery. */
export async function deliverAnalytics(
  messages: AnalyticsMessage[],
  e: Env = env,
  { attempts = 1, queue = ANALYTICS_QUEUE_NAME }: { attempts?: number; queue?: string } = {},
) {
  const batch = createMessageBatch<AnalyticsMessage>(
    queue,
    messages.map((body, i) => ({ id: `q-${i}-${viewsOf(body)[0]?.id}`, timestamp: new Date(), attempts, body })),
  );
  const ctx = createExecutionContext();
  await worker.queue(batch, e);
  return getQueueResult(batch, ctx);
}

/**
 * The pending page views folded into the counters (the minute cron's first step), and what the reducers then hold
 * settled, as a reader of the counters would have them (analytics/reducer.ts).
 */
export async function foldAnalytics(e: Env = env, now = new Date()): Promise<number> {
  const folded = await foldPendingAnalytics(e, now);
  await settleCounters(e, "all");
  return folded;
}

/** Page views as the dashboards show them a minute later: consumed in batches of 100, then folded. */
export async function countViews(messages: AnalyticsMessage[], e: Env = env) {
  for (let i = 0; i < messages.length; i += 100) await deliverAnalytics(messages.slice(i, i + 100), e);
  await foldAnalytics(e);
}

/** A page view: the content request, then its analytics message through the real queue consumer and the fold. */
export async function visit(userId: string, url: string): Promise<number> {
  const e = testEnv();
  const res = await call(`/api/content?u=${encodeURIComponent(userId)}&url=${encodeURIComponent(url)}`, {}, e);
  if (e.analyticsMessages.length) await countViews(e.analyticsMessages);
  return res.status;
}

/**
 * `e` with its reducers, but `shard`'s fails every part of a handoff `fails` says (its message "reducer reset"), and
 * `held` keeps the positions it took.
 */
export function withFailingReducer(e: Env, shard: number, fails: (part: number) => boolean) {
  const held: string[] = [];
  const reducers = {
    getByName: (name: string) => {
      const real = e.ANALYTICS_REDUCER.getByName(name);
      if (name !== `analytics-reducer-${shard}`) return real;
      return {
        hold: async (...args: Parameters<typeof real.hold>) => {
          if (fails(args[2])) throw new Error("reducer reset");
          held.push(`${args[1]}:${args[2]}`);
          return real.hold(...args);
        },
        settle: (...args: Parameters<typeof real.settle>) => real.settle(...args),
        peek: (...args: Parameters<typeof real.peek>) => real.peek(...args),
      };
    },
  } as unknown as Env["ANALYTICS_REDUCER"];
  return { broken: { ...e, ANALYTICS_REDUCER: reducers } as Env, held };
}

/** Runs `run` while every `write` (insert, by default) into the table fails as if D1's disk were full. */
export async function whileWritesFail<T>(
  table: string,
  run: () => Promise<T>,
  write: "insert" | "delete" = "insert",
): Promise<T> {
  await env.DB.prepare(
    `create trigger fail_${table} before ${write} on ${table} begin select raise(abort, 'disk full'); end`,
  ).run();
  try {
    return await run();
  } finally {
    await env.DB.prepare(`drop trigger fail_${table}`).run();
  }
}
