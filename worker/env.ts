/** @module The Worker's bindings and variables, declared once. */
import type { AnalyticsMessage } from "./analytics/message";

export interface Env {
  DB: D1Database;
  /** Per-customer delivery documents (see delivery/document.ts). */
  DELIVERY: KVNamespace;
  ANALYTICS_QUEUE: Queue<AnalyticsMessage>;
  ASSETS: Fetcher;
  /** Signs cookies and encrypts stored secrets. */
  APP_SECRET: string;
  /**
   * "development" (`npm start`, `npm run dev`, the Worker tests) or "production" (wrangler.toml [vars], what
   * `wrangler deploy` uses). Anything but "development", unset included, is production.
   */
  ENVIRONMENT?: string;
  /** The origin written into snippets; empty means the origin of the request. */
  PUBLIC_ORIGIN?: string;
  MAILCHANNELS_API_KEY?: string;
  /** MailChannels' endpoint; configurable so tests can point it at a local fake. */
  MAILCHANNELS_API_URL?: string;
  MAIL_FROM?: string;
  /**
   * "true": in production without SMTP or MailChannels, mails are not sent but their recipient and subject are
   * logged (never the body). Otherwise sending fails with 503 there.
   */
  MAIL_CONSOLE_IN_PRODUCTION?: string;
  /** PayPal REST credentials: with them, subscriptions are confirmed with PayPal before a plan is assigned. */
  PAYPAL_CLIENT_ID?: string;
  PAYPAL_CLIENT_SECRET?: string;
  /** PayPal's REST host (default: the sandbox). */
  PAYPAL_API_BASE?: string;
  /** Where IPN messages are posted back for verification (default: the sandbox). */
  PAYPAL_IPN_VERIFY_URL?: string;
  /** When set, notifications for another receiver are ignored. */
  PAYPAL_RECEIVER_EMAIL?: string;
  /** The PayPal JS SDK the plan dialog loads (default PayPal's); tests point it at a local stand-in. */
  PAYPAL_SDK_URL?: string;
}

export const isDevelopment = (env: Env) => env.ENVIRONMENT === "development";

export type AppEnv = { Bindings: Env; Variables: { user: import("./db/schema").User } };
