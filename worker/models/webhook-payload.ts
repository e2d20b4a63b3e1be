/**
 * @module The body of a webhook delivery, rendered from what its row keeps: the facts a mapping event's trigger
 * recorded (db/raw.ts), or the payload stored whole (a `ping`, and events written before facts were kept). The same
 * row always renders the same bytes, so every attempt sends, and signs, one body.
 */
import { DEFAULT_PRIORITY } from "#contract/audiences";
import type { WebhookEvent, WebhookPayload } from "#contract/webhooks";
import type { MappingEventFacts } from "../db/schema";

export interface StoredEvent {
  eventId: string;
  event: string;
  createdAt: Date;
  facts: MappingEventFacts | null;
  payload: string | null;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The JSON body of the event, as it is sent and as the delivery log shows it. */
export function renderPayload(row: StoredEvent): string {
  if (row.payload !== null) return row.payload;
  const facts = row.facts!;
  const payload: WebhookPayload = {
    id: row.eventId,
    type: row.event as WebhookEvent,
    createdAt: row.createdAt.toISOString(),
    data: {
      mapping: {
        id: facts.id,
        url: facts.url,
        status: facts.publishedAt === null ? "draft" : "published",
        publishAt: iso(facts.publishAt),
        unpublishAt: iso(facts.unpublishAt),
        changedBy: facts.changedBy,
        // Only a mapping for an audience has them (docs/audiences.md): other payloads stay as they were.
        ...(facts.audience ? { audience: facts.audience, priority: facts.priority ?? DEFAULT_PRIORITY } : {}),
      },
    },
  };
  return JSON.stringify(payload);
}
