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
  /** The origin written into snippets; empty means the origin of the request. */
  PUBLIC_ORIGIN?: string;
  MAILCHANNELS_API_KEY?: string;
  /** MailChannels' endpoint; configurable so tests can point it at a local fake. */
  MAILCHANNELS_API_URL?: string;
  MAIL_FROM?: string;
}

export type AppEnv = { Bindings: Env; Variables: { user: import("./db/schema").User } };
