/** @module The Worker's bindings and variables, declared once. */
import type { AnalyticsMessage, HandoffPart, PageViewBundle } from "./messages/analytics";
import type { DeliverySyncMessage } from "./messages/delivery-sync";
import type { HeldPeek } from "./models/held-counts";

/**
 * The relay of isolates' small bundles (delivery/page-view-relay.ts), as the Worker calls it: `relay` answers true
 * once the bundle is on the queue in one message with others', and false when it is not (the caller then sends it).
 */
export interface PageViewRelayRpc extends Rpc.DurableObjectBranded {
  relay(bundle: PageViewBundle): Promise<boolean>;
}

/**
 * A reducer of page-view counts (analytics/reducer.ts), one per shard of customers: `hold` takes a part of the sums of
 * one handoff (ignored when it has it already), with what each customer with a limit may still spend (`headroom`),
 * and settles those who could reach it; `settle` adds the named customers' held sums (all, for null) to the counters
 * and answers how many views that was.
 */
export interface AnalyticsReducerRpc extends Rpc.DurableObjectBranded {
  hold(shard: number, handoff: number, part: number, held: HandoffPart): Promise<void>;
  settle(shard: number, userIds: string[] | null): Promise<number>;
  peek(shard: number, userId: string, urls?: readonly string[], recent?: number): Promise<HeldPeek>;
}

export interface Env {
  DB: D1Database;
  /** The delivery store: one small entry per customer and per published URL (see delivery/store.ts). */
  DELIVERY: KVNamespace;
  ANALYTICS_QUEUE: Queue<AnalyticsMessage>;
  /** Ranges of one customer's delivery entries to write, after a bulk import (delivery/repairs.ts `syncUrlsSoon`). */
  DELIVERY_QUEUE: Queue<DeliverySyncMessage>;
  /** The raw analytics archive: one gzipped NDJSON object per consumed batch (see analytics/archive.ts). */
  ANALYTICS_ARCHIVE: R2Bucket;
  /** Days the ledger of counted page views (`analytics_ledger`) is kept; default 7, at least 1. */
  ANALYTICS_RAW_RETENTION_DAYS?: string;
  /**
   * Milliseconds an isolate gathers page views into one analytics message (delivery/page-view.ts); default 5000,
   * at most 10000; 0 sends each view at once (the Worker tests).
   */
  PAGE_VIEW_BUNDLE_MS?: string;
  /**
   * Gathers isolates' small bundles of page views into shared messages (delivery/page-view-relay.ts): a quiet
   * isolate's bundle costs one Durable Object request instead of a message's three queue operations.
   */
  PAGE_VIEW_RELAY: DurableObjectNamespace<PageViewRelayRpc>;
  /** How many relays share the small bundles; default 1, at most 64 (docs/scaling.md). */
  PAGE_VIEW_RELAY_SHARDS?: string;
  /**
   * Hold the customers' page views, summed, and bill their visitors, until their counters are read, their limit could
   * be reached, their period ends or a day has passed (analytics/reducer.ts): most counter rows are then written once
   * a day, not once a minute.
   */
  ANALYTICS_REDUCER: DurableObjectNamespace<AnalyticsReducerRpc>;
  /** How many reducers share the customers; default 64, at most 256 (docs/scaling.md; a change: reducer-layout.ts). */
  ANALYTICS_REDUCER_SHARDS?: string;
  /**
   * Bounds what one visitor (IP) can make the hot path look up in D1 and fill into KV: customers whose state is
   * not in the store (unknown ids) and URLs of customers whose store is incomplete (wrangler.toml [[ratelimits]]).
   */
  HOT_PATH_FILL_LIMITER: RateLimit;
  /** Bounds what one visitor (IP) may request of one customer's content (wrangler.toml [[ratelimits]]). */
  CONTENT_VISITOR_LIMITER: RateLimit;
  /** The same at a customer without limits: a higher ceiling (wrangler.toml [[ratelimits]]). */
  UNMETERED_VISITOR_LIMITER: RateLimit;
  ASSETS: Fetcher;
  /**
   * Signs cookies and encrypts stored secrets; at least 32 bytes, or every route that needs it answers 503
   * (http/app-secret-check.ts).
   */
  APP_SECRET: string;
  /**
   * The secret before a rotation: stored secrets sealed under it still open, and are sealed again under
   * APP_SECRET as they are read and by `npm run secrets:reseal` (docs/deploy.md, "Rotating APP_SECRET").
   */
  APP_SECRET_PREVIOUS?: string;
  /**
   * "development" (`npm start`, `npm run dev`, the Worker tests) or "production" (wrangler.toml [vars], what
   * `wrangler deploy` uses). Anything but "development", unset included, is production.
   */
  ENVIRONMENT?: string;
  /**
   * The origin of the dashboard and the API (https in production), the base of every link the product hands out.
   * Required: without it only delivery works, and every other request answers 503 (http/origin.ts). Requests for
   * any other host but DELIVERY_ORIGIN's and proven edge websites answer 421 (delivery/host-routing.ts).
   */
  PUBLIC_ORIGIN?: string;
  /**
   * The cookieless origin customers' pages load the snippet and their content from (e.g. https://cdn.example.com,
   * routed to this Worker); empty means PUBLIC_ORIGIN. On that host the Worker answers nothing but delivery.
   */
  DELIVERY_ORIGIN?: string;
  /**
   * The DNS-over-HTTPS resolver (JSON form, `application/dns-json`) that website claims are proven with; default
   * https://cloudflare-dns.com/dns-query (websites/dns-proof.ts).
   */
  DNS_RESOLVER_URL?: string;
  /**
   * With both: every proven website is registered as a Cloudflare for SaaS custom hostname of this zone, which
   * routes it to the Worker and issues its certificate (websites/custom-hostnames.ts, docs/edge-delivery.md).
   */
  CLOUDFLARE_ZONE_ID?: string;
  CLOUDFLARE_API_TOKEN?: string;
  /** Cloudflare's API; default https://api.cloudflare.com/client/v4 (tests point it at a stand-in). */
  CLOUDFLARE_API_BASE?: string;
  MAILCHANNELS_API_KEY?: string;
  /** MailChannels' endpoint; configurable so tests can point it at a local fake. */
  MAILCHANNELS_API_URL?: string;
  MAIL_FROM?: string;
  /**
   * "true": in production without SMTP or MailChannels, mails are not sent but their recipient and subject are
   * logged (never the body). Otherwise sending fails with 503 there.
   */
  MAIL_CONSOLE_IN_PRODUCTION?: string;
  /**
   * The marketing site (e.g. https://www.example.com): the top bar, footer and register form link to it and its
   * /pricing, /faq, /privacy, /terms and /contact. Unset: the SPA shows no external links.
   */
  SITE_URL?: string;
  /** The 1x1 image loaded on the register and login pages. Unset: none. */
  TRACKING_PIXEL_URL?: string;
  /**
   * PayPal REST credentials. With both, a subscription is confirmed with PayPal (status, plan, price) before its
   * plan is granted, a replaced subscription is cancelled at PayPal, and the plan dialog shows subscribe buttons.
   */
  PAYPAL_CLIENT_ID?: string;
  PAYPAL_CLIENT_SECRET?: string;
  /** `sandbox` uses PayPal's sandbox (and accepts `test_ipn=1` notifications); anything else is production. */
  PAYPAL_ENVIRONMENT?: string;
  /** PayPal's REST host; default from PAYPAL_ENVIRONMENT (production: https://api-m.paypal.com). */
  PAYPAL_API_BASE?: string;
  /** Where IPN messages are posted back; default from PAYPAL_ENVIRONMENT (https://ipnpb.paypal.com/cgi-bin/webscr). */
  PAYPAL_IPN_VERIFY_URL?: string;
  /**
   * Our PayPal account's primary email and/or merchant id (PAYPAL_RECEIVER_ID). At least one is required: without
   * it notifications are answered 503 (PayPal retries them) and nothing is processed. Notifications for any other
   * receiver are ignored.
   */
  PAYPAL_RECEIVER_EMAIL?: string;
  PAYPAL_RECEIVER_ID?: string;
  /** The currency plans are priced, paid and counted in (ISO code, default USD). */
  BILLING_CURRENCY?: string;
  /** The PayPal JS SDK the plan dialog loads (default PayPal's); tests point it at a local stand-in. */
  PAYPAL_SDK_URL?: string;
}

export const isDevelopment = (env: Pick<Env, "ENVIRONMENT">) => env.ENVIRONMENT === "development";

/** The key a request was admitted with (see auth/middleware.ts). */
export interface Session {
  apiKey: string;
  keyId: number;
  kind: import("./db/schema").ApiKeyKind;
  /** The admin acting as the user, for an impersonation key. */
  impersonator: { id: string; email: string } | null;
}

export type AppEnv = {
  Bindings: Env;
  Variables: { user: import("./db/schema").User; session: Session; db: import("./db/client").Db };
};
