/**
 * @module What the simulated page views put on the analytics queue: the ONE place where the bench's volume run
 * turns views into queue messages, as the hot path does (worker/delivery/page-view.ts): each view built by
 * `pageViewMessage`, gathered by the isolate that served it into a `ViewBundle`, closed when full or
 * `bundleWindowMs` after its first view. A full bundle is a message of its own; a small one goes to the relay
 * (worker/delivery/page-view-relay.ts), one Durable Object request, which gathers the small bundles of all isolates
 * into shared messages by the same rules (closed when the next does not fit or its window has passed).
 *
 * Which isolate serves a view is the model's one assumption: views spread evenly over `isolates` warm isolates (by
 * default 300, one per Cloudflare location serving the traffic: BENCH_ISOLATES). Fewer isolates per view gather
 * more views per message; the output says which count it assumed. A relay shard is picked at random per bundle,
 * as the hot path does (PAGE_VIEW_RELAY_SHARDS).
 */
import type { Env } from "../../../worker/env";
import { pageViewMessage } from "../../../worker/delivery/page-view";
import { relayShards } from "../../../worker/delivery/page-view-relay";
import { bundleWindowMs, measure, relayWindowMs, ViewBundle } from "../../../worker/delivery/view-bundle";
import type { AnalyticsMessage } from "../../../worker/messages/analytics";
import { seededRandom, type SimulatedView } from "./traffic";

export interface QueueMessage {
  /** Virtual epoch ms the hot path (or the relay) sends it. */
  sentAt: number;
  body: AnalyticsMessage;
}

interface Open {
  bundle: ViewBundle;
  /** When its window ends. */
  closesAt: number;
}

/** A bundle an isolate closed, at the time it closed. */
interface Closed {
  at: number;
  bundle: ViewBundle;
}

/** The relay's shards: each gathers the small bundles it is handed into messages. */
class RelayModel {
  private readonly open = new Map<number, Open>();
  /** Durable Object requests: one per bundle handed over. */
  requests = 0;

  constructor(
    private readonly shards: number,
    private readonly windowMs: number,
    private readonly random: () => number,
  ) {}

  /** Hands a small bundle to a shard at `at`; answers the message it closed early, if the bundle did not fit. */
  take(at: number, bundle: ViewBundle): QueueMessage[] {
    this.requests++;
    const shard = Math.floor(this.random() * this.shards);
    const { items, bytes } = measure(bundle.message);
    const sent: QueueMessage[] = [];
    let open = this.open.get(shard);
    if (open && !open.bundle.fits(items, bytes)) {
      sent.push(this.close(shard, open, at));
      open = undefined;
    }
    if (!open) {
      open = { bundle: new ViewBundle(), closesAt: at + this.windowMs };
      this.open.set(shard, open);
    }
    open.bundle.addAll(bundle.message, bytes);
    return sent;
  }

  closedBy(time: number): QueueMessage[] {
    const closed: QueueMessage[] = [];
    for (const [shard, open] of this.open)
      if (open.closesAt <= time) closed.push(this.close(shard, open, open.closesAt));
    return closed;
  }

  private close(shard: number, open: Open, at: number): QueueMessage {
    this.open.delete(shard);
    return { sentAt: at, body: open.bundle.message };
  }
}

/** The isolates of a simulated stretch: their open bundles carry over from one call to the next. */
export class IsolateBundler {
  private readonly open = new Map<number, Open>();
  private readonly random: () => number;
  private readonly windowMs: number;
  private readonly relay: RelayModel;

  constructor(
    private readonly env: Pick<Env, "APP_SECRET" | "PAGE_VIEW_BUNDLE_MS" | "PAGE_VIEW_RELAY_SHARDS">,
    private readonly isolates: number,
    seed: number,
  ) {
    this.random = seededRandom(seed ^ 0x5eed);
    this.windowMs = bundleWindowMs(env);
    this.relay = new RelayModel(relayShards(env), relayWindowMs(env), seededRandom(seed ^ 0x7e1a));
  }

  /** Durable Object requests to the relay so far. */
  get relayRequests(): number {
    return this.relay.requests;
  }

  /**
   * The messages sent up to `until` (virtual epoch ms) with these views (in the order of their timestamps), in
   * the order sent; bundles still open at `until` wait for a later call.
   */
  async add(views: readonly SimulatedView[], until: number): Promise<QueueMessage[]> {
    const closed: Closed[] = [];
    for (const view of views) {
      closed.push(...this.closedBy(view.timestamp));
      const event = await pageViewMessage(
        this.env,
        {
          userId: view.userId,
          url: view.url,
          match: view.mappingId === null ? undefined : { mappingId: view.mappingId, html: "" },
          request: new Request(view.url, { headers: { "User-Agent": view.userAgent, Referer: view.referer } }),
          visitor: view.visitor,
        },
        view.timestamp,
      );
      const isolate = Math.floor(this.random() * this.isolates);
      let open = this.open.get(isolate);
      if (open && !open.bundle.fits(1, new TextEncoder().encode(JSON.stringify(event)).byteLength)) {
        closed.push({ at: view.timestamp, bundle: open.bundle });
        open = undefined;
      }
      if (!open) {
        open = { bundle: new ViewBundle(), closesAt: view.timestamp + this.windowMs };
        this.open.set(isolate, open);
      }
      open.bundle.addView(event);
    }
    closed.push(...this.closedBy(until));
    return this.route(closed, until);
  }

  /** Every bundle still open, sent at the end of its window, and the relay's after them. */
  flush(): QueueMessage[] {
    return this.route(this.closedBy(Infinity), Infinity);
  }

  /** Sends the closed bundles, in the order closed: small ones through the relay, the rest as messages. */
  private route(closed: Closed[], until: number): QueueMessage[] {
    const sent: QueueMessage[] = [];
    for (const { at, bundle } of closed.sort((a, b) => a.at - b.at)) {
      sent.push(...this.relay.closedBy(at));
      if (bundle.small && this.windowMs > 0) sent.push(...this.relay.take(at, bundle));
      else sent.push({ sentAt: at, body: bundle.message });
    }
    sent.push(...this.relay.closedBy(until));
    return sent.sort((a, b) => a.sentAt - b.sentAt);
  }

  private closedBy(time: number): Closed[] {
    const closed: Closed[] = [];
    for (const [isolate, open] of this.open) {
      if (open.closesAt > time) continue;
      closed.push({ at: open.closesAt, bundle: open.bundle });
      this.open.delete(isolate);
    }
    return closed;
  }
}
