/**
 * @module What the simulated page views put on the analytics queue: the ONE place where the bench's volume run
 * turns views into queue messages, as the hot path does (worker/delivery/page-view.ts): each view built by
 * `pageViewMessage`, gathered by the isolate that served it into one message, sent when the message is full
 * (`BUNDLE_MAX_VIEWS` views or `BUNDLE_MAX_BYTES`) or `BUNDLE_WINDOW_MS` after its first view.
 *
 * Which isolate serves a view is the model's one assumption: views spread evenly over `isolates` warm isolates (by
 * default 300, one per Cloudflare location serving the traffic: BENCH_ISOLATES). Fewer isolates per view gather
 * more views per message; the output says which count it assumed.
 */
import type { Env } from "../../../worker/env";
import {
  BUNDLE_MAX_BYTES,
  BUNDLE_MAX_VIEWS,
  BUNDLE_WINDOW_MS,
  pageViewMessage,
} from "../../../worker/delivery/page-view";
import type { AnalyticsMessage, PageViewEvent } from "../../../worker/messages/analytics";
import { seededRandom, type SimulatedView } from "./traffic";

export interface QueueMessage {
  /** Virtual epoch ms the hot path sends it. */
  sentAt: number;
  body: AnalyticsMessage;
}

interface Open {
  views: PageViewEvent[];
  bytes: number;
  /** When the window of its first view ends. */
  closesAt: number;
}

/** The isolates of a simulated stretch: their open messages carry over from one call to the next. */
export class IsolateBundler {
  private readonly open = new Map<number, Open>();
  private readonly random: () => number;
  private readonly windowMs: number;

  constructor(
    private readonly env: Pick<Env, "APP_SECRET" | "PAGE_VIEW_BUNDLE_MS">,
    private readonly isolates: number,
    seed: number,
  ) {
    this.random = seededRandom(seed ^ 0x5eed);
    const configured = Number(env.PAGE_VIEW_BUNDLE_MS ?? BUNDLE_WINDOW_MS);
    this.windowMs = Number.isFinite(configured) && configured >= 0 ? configured : BUNDLE_WINDOW_MS;
  }

  /**
   * The messages sent up to `until` (virtual epoch ms) with these views (in the order of their timestamps), in
   * the order sent; messages still open at `until` wait for a later call.
   */
  async add(views: readonly SimulatedView[], until: number): Promise<QueueMessage[]> {
    const sent: QueueMessage[] = [];
    for (const view of views) {
      sent.push(...this.closedBy(view.timestamp));
      const event = await pageViewMessage(
        this.env,
        {
          userId: view.userId,
          url: view.url,
          match: { mappingId: view.mappingId, html: "" },
          request: new Request(view.url, { headers: { "User-Agent": view.userAgent, Referer: view.referer } }),
          visitor: view.visitor,
        },
        view.timestamp,
      );
      const bytes = new TextEncoder().encode(JSON.stringify(event)).byteLength;
      const isolate = Math.floor(this.random() * this.isolates);
      let open = this.open.get(isolate);
      if (open && (open.views.length >= BUNDLE_MAX_VIEWS || open.bytes + bytes > BUNDLE_MAX_BYTES)) {
        sent.push({ sentAt: view.timestamp, body: { views: open.views } });
        open = undefined;
      }
      if (open) {
        open.views.push(event);
        open.bytes += bytes;
      } else {
        this.open.set(isolate, { views: [event], bytes, closesAt: view.timestamp + this.windowMs });
      }
    }
    sent.push(...this.closedBy(until));
    return sent.sort((a, b) => a.sentAt - b.sentAt);
  }

  /** Every message still open, sent at the end of its window. */
  flush(): QueueMessage[] {
    return this.closedBy(Infinity);
  }

  private closedBy(time: number): QueueMessage[] {
    const closed: QueueMessage[] = [];
    for (const [isolate, open] of this.open) {
      if (open.closesAt > time) continue;
      closed.push({ sentAt: open.closesAt, body: { views: open.views } });
      this.open.delete(isolate);
    }
    return closed.sort((a, b) => a.sentAt - b.sentAt);
  }
}
