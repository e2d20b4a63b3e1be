/**
 * @module Cloudflare Queues' batching as the bench's simulation models it, from the consumer's settings in
 * wrangler.toml: a batch opens when a message arrives at an empty queue and is delivered when it holds
 * `max_batch_size` messages or `max_batch_timeout` has passed since it opened, whichever comes first. So at a rate
 * of λ messages a second a batch holds about min(max_batch_size, 1 + λ × timeout) messages. Not modelled: the
 * consumer's own time (batches are delivered at once, however long the last one took), concurrent consumers and
 * the platform's internal sharding, none of which changes which messages share a batch at these rates.
 */
export interface QueueSettings {
  maxBatchSize: number;
  maxBatchTimeoutMs: number;
}

export interface Queued<M> {
  /** Virtual epoch ms the message was sent. */
  sentAt: number;
  body: M;
  /** Bytes of the body as sent (JSON). */
  bytes: number;
}

export interface Delivery<M> {
  /** Virtual epoch ms the batch is delivered. */
  at: number;
  messages: Queued<M>[];
}

export class QueueModel<M> {
  private open: Queued<M>[] = [];
  private openedAt = 0;

  constructor(private readonly settings: QueueSettings) {}

  /** When the open batch is delivered unless it fills first; Infinity while the queue is empty. */
  get deadline(): number {
    return this.open.length ? this.openedAt + this.settings.maxBatchTimeoutMs : Infinity;
  }

  /**
   * Adds a message (in the order sent, never before the deadline: deliver `due` batches first); answers the batch it
   * fills, if it does.
   */
  push(message: Queued<M>): Delivery<M> | null {
    if (message.sentAt >= this.deadline) throw new Error("deliver the batch that timed out before the next message");
    if (this.open.length === 0) this.openedAt = message.sentAt;
    this.open.push(message);
    return this.open.length >= this.settings.maxBatchSize ? this.take(message.sentAt) : null;
  }

  /** The open batch, delivered at its deadline. */
  timedOut(): Delivery<M> {
    return this.take(this.deadline);
  }

  private take(at: number): Delivery<M> {
    const messages = this.open;
    this.open = [];
    return { at, messages };
  }
}
