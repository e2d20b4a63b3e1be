/**
 * @module The volume run of `npm run bench`'s operations part: a stretch of simulated traffic on a virtual clock,
 * driving the real code directly, the way the Worker's handlers (worker/index.ts) would be driven in production.
 *
 * - Page views come from platform-model.ts at the stated rate; `IsolateBundler` (queue-messages.mts) makes them the
 *   messages the hot path and the page view relay send (the relay's Durable Object requests are booked to the
 *   modelled queue's counts).
 * - The messages are batched as Cloudflare Queues would batch them under wrangler.toml's `max_batch_size` and
 *   `max_batch_timeout` (queue-model.ts), and each batch is handed to the real consumer (analytics/consumer.ts
 *   `consumeAnalytics`) when it is due, as a MessageBatch whose acknowledgements are watched: a retried batch is
 *   delivered again (at most three times; then its messages count as lost).
 * - The minute cron (`runEveryMinute(env, now)`) runs at every simulated minute boundary, between the batches due
 *   before and after it; the daily cron (`runDaily(env, now)`) at its time of day (wrangler.toml's crons) if the
 *   stretch reaches it, else once at the end, at the next such time. After that, the raw-window purge that the
 *   daily cron carries out once the retention has passed is run for this stretch's rows (`laterPurge`).
 *
 * Every binding call is counted (meter.mts), booked to who made it: the consumer, the minute cron, the daily cron,
 * the later purge. The modelled queue books its own operations: one write per 64 KB of each message sent, one read
 * per delivery, one delete per acknowledgement, and the relay's requests. A batch counts as one Worker invocation (`queue`), a cron run as one
 * (`scheduled`). The consumer itself reads `new Date()` (billing and its purge budget): it runs at the real time,
 * which only matters to them, and nothing in this stretch is near a billing period's end or the retention.
 */
import { consumeAnalytics } from "../../../worker/analytics/consumer";
import { PURGE_ROWS_PER_CRON, purgeRawWindow, rawRetentionDays } from "../../../worker/analytics/retention";
import { settleCounters } from "../../../worker/analytics/reducer-shards";
import { relayShards } from "../../../worker/delivery/page-view-relay";
import type { Env } from "../../../worker/env";
import { ANALYTICS_QUEUE_NAME, type AnalyticsMessage } from "../../../worker/messages/analytics";
import { runDaily, runEveryMinute } from "../../../worker/scheduled";
import { counted, durableObjectSpend } from "./meter.mjs";
import {
  COUNT_KEYS,
  noCounts,
  queueChunks,
  type Counts,
  type SimulationProgress,
  type SimulationReport,
  type SimulationSpec,
} from "./protocol";
import { QueueModel, type Delivery, type Queued } from "./queue-model";
import { IsolateBundler, type QueueMessage } from "./queue-messages.mjs";
import { PlatformTraffic } from "./platform-model";

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** Deliveries of a batch before its unacknowledged messages count as lost. */
const ATTEMPTS = 3;

const jsonBytes = (body: unknown) => new TextEncoder().encode(JSON.stringify(body)).length;

/** The first time after `ms` that is `minuteOfDay` minutes past midnight UTC. */
function nextTimeOfDay(ms: number, minuteOfDay: number): number {
  const candidate = Math.floor(ms / DAY_MS) * DAY_MS + minuteOfDay * MINUTE_MS;
  return candidate > ms ? candidate : candidate + DAY_MS;
}

export class Simulation {
  private readonly traffic: PlatformTraffic;
  private readonly queue: QueueModel<AnalyticsMessage>;
  private readonly bundler: IsolateBundler;
  private readonly counts: SimulationReport["counts"] = {
    consumer: noCounts(),
    minuteCron: noCounts(),
    dailyCron: noCounts(),
    laterPurge: noCounts(),
    settle: noCounts(),
    queue: noCounts(),
  };
  private now: number;
  private nextMinute: number;
  private nextDaily: number;
  private views = 0;
  private readonly pages = new Set<string>();
  private messages = 0;
  private batches = 0;
  private retriedBatches = 0;
  private lostMessages = 0;
  private minuteCrons = 0;
  private dailyCrons = 0;
  private dailyCronAt: number | null = null;
  private lastSentAt = 0;
  private consumerMs = 0;
  private nextMessageId = 0;

  constructor(
    private readonly env: Env,
    private readonly spec: SimulationSpec,
  ) {
    this.traffic = new PlatformTraffic(spec.platformFirstMappingId, spec.viewsPerMonth, spec.startMs, spec.seed);
    this.bundler = new IsolateBundler(env, spec.isolates, spec.seed);
    this.queue = new QueueModel({ maxBatchSize: spec.maxBatchSize, maxBatchTimeoutMs: spec.maxBatchTimeoutMs });
    this.now = spec.startMs;
    this.nextMinute = Math.floor(spec.startMs / MINUTE_MS) * MINUTE_MS + MINUTE_MS;
    this.nextDaily = nextTimeOfDay(spec.startMs, spec.dailyCronMinute);
  }

  /** Runs the simulation up to the virtual time `until`. */
  async advance(until: number): Promise<SimulationProgress> {
    const views = this.traffic.until(until);
    this.views += views.length;
    for (const view of views) this.pages.add(`${view.userId} ${view.normalizedUrl}`);
    await this.send(await this.bundler.add(views, until));
    await this.runDue(until);
    this.now = Math.max(this.now, until);
    return this.progress();
  }

  /** Puts messages on the modelled queue, in the order sent, delivering and running what is due before each. */
  private async send(messages: QueueMessage[]) {
    this.counts.queue.doRequests = this.bundler.relayRequests;
    for (const message of messages) {
      await this.runDue(message.sentAt);
      const bytes = jsonBytes(message.body);
      this.messages++;
      this.lastSentAt = Math.max(this.lastSentAt, message.sentAt);
      this.counts.queue.queueMessages++;
      this.counts.queue.queueBytes += bytes;
      this.counts.queue.queueOps += queueChunks(bytes);
      const full = this.queue.push({ sentAt: message.sentAt, body: message.body, bytes });
      if (full) await this.deliver(full);
    }
  }

  /** Runs the simulation on, a virtual second at a time, until the consumer has had `batches` batches. */
  async advanceBatches(batches: number): Promise<SimulationProgress> {
    while (this.batches < batches) await this.advance(this.now + 1000);
    return this.progress();
  }

  /** Delivers what is still queued; with a day boundary, runs the daily cron (if not yet) and the later purge. */
  async finish(): Promise<SimulationReport> {
    await this.send(this.bundler.flush());
    if (Number.isFinite(this.queue.deadline)) await this.runDue(this.queue.deadline);
    // The minute cron after the last batch folds what it took.
    await this.runDue(this.nextMinute);
    // What the reducers hold of the stretch, settled as they do once a day at the latest: booked to the stretch's
    // own views, though a day's settle would spread its rows over a day's (more sums per row).
    await this.booked(this.counts.settle, () => settleCounters(counted(this.env, this.counts.settle), "all"));
    if (this.spec.dayBoundary) {
      // The minute crons between the stretch's end and the daily cron would run on no traffic: not simulated.
      if (this.dailyCrons === 0) await this.runDaily(this.nextDaily);
      // The first daily cron whose purge reaches this stretch's last raw rows, all of them deleted at once.
      const purgeAt = new Date(
        nextTimeOfDay(this.lastSentAt + rawRetentionDays(this.env) * DAY_MS, this.spec.dailyCronMinute),
      );
      const env = counted(this.env, this.counts.laterPurge);
      await this.booked(this.counts.laterPurge, async () => {
        while ((await purgeRawWindow(env, purgeAt)) === PURGE_ROWS_PER_CRON);
      });
    }
    return {
      ...this.progress(),
      counts: this.counts,
      minuteCrons: this.minuteCrons,
      dailyCrons: this.dailyCrons,
      dailyCronAt: this.dailyCronAt,
      retriedBatches: this.retriedBatches,
      lostMessages: this.lostMessages,
      consumerMsPerBatch: this.batches ? this.consumerMs / this.batches : 0,
      relayShards: relayShards(this.env),
      pagesSeen: this.pages.size,
    };
  }

  private progress(): SimulationProgress {
    return { views: this.views, messages: this.messages, batches: this.batches, now: this.now };
  }

  /** Delivers the batches and runs the crons due by `time`, in the order of their times. */
  private async runDue(time: number) {
    for (;;) {
      const batchAt = this.queue.deadline;
      const cronAt = Math.min(this.nextMinute, this.nextDaily);
      if (batchAt <= time && batchAt <= cronAt) await this.deliver(this.queue.timedOut());
      else if (cronAt > time) return;
      else if (this.nextMinute <= this.nextDaily) await this.runMinute(this.nextMinute);
      else await this.runDaily(this.nextDaily);
    }
  }

  private async runMinute(at: number) {
    this.nextMinute = at + MINUTE_MS;
    this.minuteCrons++;
    this.counts.minuteCron.scheduled++;
    await this.booked(this.counts.minuteCron, () =>
      runEveryMinute(counted(this.env, this.counts.minuteCron), new Date(at)),
    );
  }

  private async runDaily(at: number) {
    this.nextDaily = at + DAY_MS;
    this.dailyCrons++;
    this.dailyCronAt = at;
    this.counts.dailyCron.scheduled++;
    await this.booked(this.counts.dailyCron, () => runDaily(counted(this.env, this.counts.dailyCron), new Date(at)));
  }

  /** Hands a batch to the real consumer, as the queue handler of worker/index.ts does, and books what it cost. */
  private async deliver(delivery: Delivery<AnalyticsMessage>, attempt = 1): Promise<void> {
    const counts = this.counts.consumer;
    counts.queue++;
    this.batches++;
    for (const m of delivery.messages) this.counts.queue.queueOps += queueChunks(m.bytes);
    const { batch, retried } = this.messageBatch(delivery, attempt);
    const started = performance.now();
    try {
      await this.booked(counts, () => consumeAnalytics(batch, counted(this.env, counts)));
    } catch (err) {
      // The platform retries a batch whose handler threw.
      console.error("Simulated analytics batch threw", err);
      batch.retryAll();
    }
    this.consumerMs += performance.now() - started;
    const again = delivery.messages.filter((m) => retried.has(m));
    for (const m of delivery.messages) if (!retried.has(m)) this.counts.queue.queueOps += queueChunks(m.bytes);
    if (again.length === 0) return;
    this.retriedBatches++;
    if (attempt < ATTEMPTS) await this.deliver({ at: delivery.at, messages: again }, attempt + 1);
    else this.lostMessages += again.length;
  }

  /** The batch as the consumer gets it; `retried` fills with the messages it asks to have again. */
  private messageBatch(delivery: Delivery<AnalyticsMessage>, attempt: number) {
    const retried = new Set<Queued<AnalyticsMessage>>();
    const acked = new Set<Queued<AnalyticsMessage>>();
    const messages: Message<AnalyticsMessage>[] = delivery.messages.map((queued) => ({
      id: `sim-${this.nextMessageId++}`,
      timestamp: new Date(queued.sentAt),
      body: queued.body,
      attempts: attempt,
      ack: () => void (acked.add(queued), retried.delete(queued)),
      retry: () => void (acked.has(queued) || retried.add(queued)),
    }));
    const batch: MessageBatch<AnalyticsMessage> = {
      queue: ANALYTICS_QUEUE_NAME,
      // The model delivers each batch when it is due: no backlog behind it.
      metadata: { metrics: { backlogCount: 0, backlogBytes: 0 } },
      messages,
      ackAll: () => delivery.messages.forEach((m) => (acked.add(m), retried.delete(m))),
      retryAll: () => delivery.messages.forEach((m) => acked.has(m) || retried.add(m)),
    };
    return { batch, retried };
  }

  /** Runs `work`, booking what Durable Objects spend meanwhile (their storage rows, their D1 calls) to `counts`. */
  private async booked(counts: Counts, work: () => Promise<unknown>) {
    const before = { ...durableObjectSpend };
    try {
      await work();
    } finally {
      for (const key of COUNT_KEYS) counts[key] += durableObjectSpend[key] - before[key];
    }
  }
}
