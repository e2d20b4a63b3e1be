/**
 * @module The relay: a Durable Object that gathers isolates' small bundles of page views (view-bundle.ts `small`)
 * into shared queue messages. At 100 million views a month an isolate sees a view every few seconds, so its 5 s
 * bundle holds one or two views, and each message costs three queue operations ($1.20 per million messages); through
 * the relay it costs one Durable Object request ($0.15 per million) and a share of a full message.
 *
 * Nothing is kept: a bundle stays in memory only while its caller waits. `relay` answers true once the message
 * holding it is on the queue (group commit), so a caller that hears false or sees an error, the relay's restart
 * included, sends its bundle itself. A bundle the relay sent but whose answer was lost then travels twice; each
 * view keeps its id, and the consumer's ledger counts it once (analytics/record.ts).
 */
import { DurableObject } from "cloudflare:workers";
import type { Env, PageViewRelayRpc } from "../env";
import type { PageViewBundle } from "../messages/analytics";
import { BUNDLE_MAX_BYTES, BUNDLE_MAX_VIEWS, measure, relayWindowMs, ViewBundle } from "./view-bundle";

/** The most relays PAGE_VIEW_RELAY_SHARDS may ask for. */
export const RELAY_MAX_SHARDS = 64;

export function relayShards(env: Pick<Env, "PAGE_VIEW_RELAY_SHARDS">): number {
  const shards = Math.floor(Number(env.PAGE_VIEW_RELAY_SHARDS ?? 1));
  return Number.isFinite(shards) && shards >= 1 ? Math.min(shards, RELAY_MAX_SHARDS) : 1;
}

/** One of the relays, picked at random so that each takes an even share. */
export function pickRelay(env: Pick<Env, "PAGE_VIEW_RELAY" | "PAGE_VIEW_RELAY_SHARDS">, random = Math.random) {
  const shard = Math.floor(random() * relayShards(env));
  return env.PAGE_VIEW_RELAY.getByName(`page-view-relay-${shard}`);
}

interface Gathering {
  bundle: ViewBundle;
  /** Settles when the message is sent (or failed). */
  sent: Promise<void>;
  /** Ends the window early: the message is full. */
  close: () => void;
}

/** The relay's work, apart from the Durable Object that hosts it: bundles in, shared messages out. */
export class MessageGatherer {
  private open: Gathering | null = null;

  constructor(
    private readonly windowMs: number,
    private readonly sendMessage: (message: PageViewBundle) => Promise<unknown>,
  ) {}

  /** Resolves once `bundle` is sent in a message with the others of the window; rejects when that send failed. */
  relay(bundle: PageViewBundle): Promise<void> {
    const { items, bytes } = measure(bundle);
    if (items === 0) return Promise.resolve();
    if (items > BUNDLE_MAX_VIEWS || bytes > BUNDLE_MAX_BYTES) {
      return Promise.reject(new RangeError(`A bundle of ${items} items and ${bytes} bytes is more than a message`));
    }
    if (this.open && !this.open.bundle.fits(items, bytes)) this.open.close();
    const gathering = this.open ?? this.gather();
    gathering.bundle.addAll(bundle, bytes);
    return gathering.sent;
  }

  private gather(): Gathering {
    let close!: () => void;
    const closed = new Promise<void>((resolve) => {
      close = resolve;
      setTimeout(resolve, this.windowMs);
    });
    const gathering: Gathering = {
      bundle: new ViewBundle(),
      close: () => {
        if (this.open === gathering) this.open = null;
        close();
      },
      sent: closed.then(async () => {
        if (this.open === gathering) this.open = null;
        await this.sendMessage(gathering.bundle.message);
      }),
    };
    this.open = gathering;
    return gathering;
  }
}

export class PageViewRelay extends DurableObject<Env> implements PageViewRelayRpc {
  private readonly gatherer = new MessageGatherer(relayWindowMs(this.env), (message) =>
    this.env.ANALYTICS_QUEUE.send(message),
  );

  /** Answers rather than throws: a refusal is the caller's cue to send the bundle itself, not an error here. */
  async relay(bundle: PageViewBundle): Promise<boolean> {
    try {
      await this.gatherer.relay(bundle);
      return true;
    } catch (err) {
      console.warn("The page view relay could not send a bundle", err);
      return false;
    }
  }
}
