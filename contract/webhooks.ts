/**
 * @module Webhooks (docs/webhooks.md): what a customer sends to register one, and what the API answers of webhooks
 * and their deliveries. The Worker validates with the schemas; the SPA imports the types only (no zod in its
 * initial bundle).
 */
import { z } from "zod";
import { tooLong, URL_MAX_LENGTH, URL_NOT_HTTP } from "./input-caps";
import type { Audience } from "./audiences";
import { paged } from "./schemas";

/** Webhooks per customer. */
export const WEBHOOKS_PER_CUSTOMER = 10;
export const TOO_MANY_WEBHOOKS = `An account can have at most ${WEBHOOKS_PER_CUSTOMER} webhooks`;
/** Delivered and failed deliveries a webhook's log keeps, the newest (also at most 30 days); pending ones all stay. */
export const FINISHED_DELIVERIES_KEPT = 1_000;

/** The events of mappings, written by the triggers of worker/db/raw.ts, and `ping` (POST /api/webhooks/{id}/test). */
export const WEBHOOK_EVENTS = [
  "mapping.published",
  "mapping.unpublished",
  "mapping.changed",
  "mapping.deleted",
  "experiment.started",
  "experiment.stopped",
  "experiment.promoted",
  "ping",
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export type DeliveryStatus = "pending" | "delivered" | "failed";

/** `POST /api/webhooks`: where events go. Which hosts are allowed depends on the environment (webhooks/target.ts). */
export const webhookBody = z.object({
  url: z
    .string()
    .trim()
    .max(URL_MAX_LENGTH, tooLong("URL", URL_MAX_LENGTH))
    .url("Please enter a valid URL")
    .refine((url) => /^https?:\/\//i.test(url), URL_NOT_HTTP),
});

export type WebhookBody = z.infer<typeof webhookBody>;

/** A customer has at most 10 webhooks: one page holds them all. */
export const webhooksQuery = paged(z.object({}), {
  defaultLimit: WEBHOOKS_PER_CUSTOMER,
  maxLimit: WEBHOOKS_PER_CUSTOMER,
});

/** A webhook's delivery log, newest first; deliveries are kept 30 days. */
export const deliveriesQuery = paged(z.object({}), { defaultLimit: 50, maxLimit: 100 });

/** The newest delivery of a webhook, for the list. */
export interface WebhookDeliverySummary {
  event: WebhookEvent;
  status: DeliveryStatus;
  responseStatus: number | null;
  createdAt: string;
}

/** A webhook as every answer but its creation shows it: never its secret. */
export interface Webhook {
  id: string;
  url: string;
  createdAt: string;
  lastDelivery: WebhookDeliverySummary | null;
}

/** `POST /api/webhooks` (201): the webhook with its signing secret, shown this once. */
export interface CreatedWebhook extends Webhook {
  secret: string;
}

/** One event sent to one webhook, and what became of it (the delivery log). */
export interface WebhookDelivery {
  /** Sent as `X-DC-Delivery`. */
  id: number;
  /** The event's id (the payload's `id`), the same for every webhook it went to. */
  eventId: string;
  event: WebhookEvent;
  status: DeliveryStatus;
  /** Attempts made so far, at most 6. */
  attempts: number;
  /** The HTTP status of the last attempt, when an answer came. */
  responseStatus: number | null;
  /** Why the last attempt failed, short. */
  error: string | null;
  createdAt: string;
  lastAttemptAt: string | null;
  /** When the next attempt is due; null once delivered or given up. */
  nextAttemptAt: string | null;
  /** The body sent. */
  payload: WebhookPayload;
}

/** The JSON body of an event. No HTML: receivers fetch a mapping's content through the API. */
export interface WebhookPayload {
  id: string;
  type: WebhookEvent;
  createdAt: string;
  data: {
    mapping?: {
      id: number;
      url: string;
      status: "published" | "draft";
      publishAt: string | null;
      unpublishAt: string | null;
      /** Who made the change (contract/versions.ts); null for a delete. */
      changedBy: string | null;
      /** A mapping for an audience's (docs/audiences.md); absent for others. */
      audience?: Audience;
      priority?: number;
    };
    webhook?: { id: string; url: string };
  };
}
