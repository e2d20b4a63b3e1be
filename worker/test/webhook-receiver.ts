/**
 * @module A stand-in for customers' webhook receivers: every outbound `fetch` to a `https://hooks.` host is
 * recorded and answered by `answer` (204 unless told otherwise); everything else goes out as usual. For a test's
 * `beforeEach`; `vi.restoreAllMocks()` in its `afterEach` undoes it.
 */
import { env } from "cloudflare:workers";
import { vi } from "vitest";
import { call } from "./helpers";
import type { MappingEventFacts } from "../db/schema";
import { renderPayload } from "../models/webhook-payload";

export interface ReceivedWebhook {
  url: string;
  headers: Headers;
  body: string;
  redirect: RequestInit["redirect"];
}

export type Answer = (request: ReceivedWebhook) => Response | Promise<Response>;

export const RECEIVER_URL = "https://hooks.shop.test/dc";

export function receiveWebhooks(answer: Answer = () => new Response(null, { status: 204 })) {
  const received: ReceivedWebhook[] = [];
  const realFetch = globalThis.fetch;
  const holder = { answer };
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (!url.startsWith("https://hooks.")) return realFetch(input, init);
    const request: ReceivedWebhook = {
      url,
      headers: new Headers(init?.headers),
      body: String(init?.body ?? ""),
      redirect: init?.redirect,
    };
    received.push(request);
    return holder.answer(request);
  });
  return {
    received,
    /** Answers from now on with `next`. */
    answerWith: (next: Answer) => void (holder.answer = next),
  };
}

/** Registers a webhook through the API; answers its id and secret. */
export async function addWebhook(apiKey: string, url = RECEIVER_URL) {
  const res = await call("/api/webhooks", { method: "POST", apiKey, json: { url } });
  if (res.status !== 201) throw new Error(`POST /api/webhooks: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: string; secret: string; url: string };
}

export interface DeliveryRow {
  id: number;
  webhook_id: string;
  event_id: string;
  event: string;
  /** The body as sent: rendered from the row's facts, or stored whole (models/webhook-payload.ts). */
  payload: string;
  status: string;
  attempts: number;
  next_attempt_at: number | null;
  response_status: number | null;
  error: string | null;
  last_attempt_at: number | null;
}

type StoredRow = Omit<DeliveryRow, "payload"> & { payload: string | null; facts: string | null; created_at: number };

/** Every delivery row, in the order they were written. */
export async function deliveryRows(): Promise<DeliveryRow[]> {
  const { results } = await env.DB.prepare("select * from webhook_deliveries order by id").all<StoredRow>();
  return results.map(({ facts, created_at, ...row }) => ({
    ...row,
    payload: renderPayload({
      eventId: row.event_id,
      event: row.event,
      createdAt: new Date(created_at),
      facts: facts === null ? null : (JSON.parse(facts) as MappingEventFacts),
      payload: row.payload,
    }),
  }));
}
