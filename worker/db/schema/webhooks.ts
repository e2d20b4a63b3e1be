/** @module Webhooks: the endpoints and the outbox and log of their events. */
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { Audience } from "#contract/audiences";
import { createdAt } from "./columns";
import { userRef } from "./accounts";

/**
 * A customer's webhook (docs/webhooks.md): a URL that receives an HMAC-SHA256-signed event when one of their
 * mappings is published, unpublished, changed or deleted. The signing secret is sealed under APP_SECRET
 * (lib/crypto.ts): it is needed again for every signature.
 */
export const webhooks = sqliteTable(
  "webhooks",
  {
    id: text("id").primaryKey(),
    userId: userRef(),
    url: text("url").notNull(),
    secretEncrypted: text("secret_encrypted").notNull(),
    /** Attempts that failed since the last delivered one: past FAILING_TARGET_ATTEMPTS, a failure is not retried. */
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    /**
     * Its delivered and failed deliveries in the log, kept by triggers (db/raw.ts), which remove the oldest past
     * `FINISHED_DELIVERIES_KEPT` (docs/webhooks.md).
     */
    finishedDeliveries: integer("finished_deliveries").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index("webhooks_user_idx").on(t.userId, t.createdAt)],
);

/** What a mapping's webhook event records of the mapping (epoch milliseconds for times). */
export interface MappingEventFacts {
  id: number;
  url: string;
  publishedAt: number | null;
  publishAt: number | null;
  unpublishAt: number | null;
  changedBy: string | null;
  /** Absent in facts kept before audiences; null for a mapping without one (docs/audiences.md). */
  audience?: Audience | null;
  priority?: number;
}

/**
 * The outbox and delivery log of webhook events: one row per event and webhook, written by triggers on
 * url_mappings (db/raw.ts) in the same transaction as the change, sent and retried until delivered or given up.
 */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    /** The event's id, the same for every webhook it goes to: receivers drop a repeat by it. */
    eventId: text("event_id").notNull(),
    /** A `WebhookEvent` (contract/webhooks.ts) of a mapping or its experiment. */
    event: text("event").notNull(),
    /**
     * What a mapping event says, as its trigger recorded it (db/raw.ts): the mapping's id, URL, publication times
     * and author at the change. webhooks/payload.ts renders the body from it.
     */
    facts: text("facts", { mode: "json" }).$type<MappingEventFacts>(),
    /** The JSON body sent, as stored: a `ping`'s, and mapping events written before their facts were kept. */
    payload: text("payload"),
    status: text("status", { enum: ["pending", "delivered", "failed"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    /** When the next attempt is due; null once delivered or given up. */
    nextAttemptAt: integer("next_attempt_at", { mode: "timestamp_ms" }),
    /** The HTTP status of the last attempt, if an answer came. */
    responseStatus: integer("response_status"),
    /** Why the last attempt failed, short. */
    error: text("error"),
    createdAt: createdAt(),
    lastAttemptAt: integer("last_attempt_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    index("webhook_deliveries_webhook_idx").on(t.webhookId, t.id),
    index("webhook_deliveries_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.nextAttemptAt} is not null`),
    index("webhook_deliveries_created_idx").on(t.createdAt),
    // A webhook's oldest finished deliveries, which its log bound removes, without walking its pending ones.
    index("webhook_deliveries_finished_idx")
      .on(t.webhookId, t.id)
      .where(sql`${t.status} <> 'pending'`),
  ],
);
