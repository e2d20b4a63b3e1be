/**
 * @module What the operations of `npm run bench` share: per-view arithmetic on the counts of billed binding calls
 * (protocol.ts COUNT_KEYS), the daily cron's time from wrangler.toml, a month's usage priced at Cloudflare's list
 * prices (prices.ts), and the CPU measure's lines. The platform model that uses them is platform.ts.
 */
import { fmt } from "./harness";
import { PRICES, type PricedItem } from "./prices";
import { COUNT_KEYS, type Counts, type CpuReport } from "./protocol";
import { MONTH_SECONDS } from "./traffic";

const DAY_MS = 86_400_000;

/** Per view: each count divided by `views`. */
export const per = (counts: Counts, views: number): Counts =>
  Object.fromEntries(COUNT_KEYS.map((k) => [k, views ? counts[k] / views : 0])) as Counts;
export const scaled = (counts: Counts, by: number): Counts =>
  Object.fromEntries(COUNT_KEYS.map((k) => [k, counts[k] * by])) as Counts;
/**
 * The hot path's counts without its queue sends and relay requests: the modelled queue books every message's
 * operations and every bundle handed to the relay.
 */
export const withoutQueue = (counts: Counts): Counts => ({
  ...counts,
  queueMessages: 0,
  queueBytes: 0,
  queueOps: 0,
  doRequests: 0,
});

/** A figure per view: more digits the smaller it is. */
export function perView(n: number): string {
  if (n === 0) return "0";
  if (Math.abs(n) >= 100) return fmt(n, 0);
  if (Math.abs(n) >= 0.1) return n.toFixed(2);
  return n.toPrecision(2);
}
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
export const dollars = (n: number) => `$${n >= 1000 ? fmt(n, 0) : n.toFixed(n > 0 && n < 0.1 ? 3 : 2)}`;

/** The daily cron's time (minutes after 00:00 UTC): the one cron of wrangler.toml of the form "M H * * *". */
export function dailyCronMinute(crons: string[]): number {
  const daily = crons.map((c) => /^(\d+) (\d+) \* \* \*$/.exec(c.trim())).filter((m) => m !== null);
  if (daily.length !== 1) throw new Error(`expected one daily cron ("M H * * *") in wrangler.toml, found ${crons}`);
  return Number(daily[0]![2]) * 60 + Number(daily[0]![1]);
}

export const utcMidnight = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;

/**
 * GB-s a Durable Object is billed for a second active (128 MB). The relays are booked as active all month (an upper
 * bound: each holds a bundle only while its callers wait, behind a timer that keeps it from hibernating); the
 * reducers for the time their calls took (`doActiveMs`, wall-clock in Miniflare): between calls they hold no timer
 * or connection, so they may hibernate, which the platform does not bill.
 */
const DO_GB_PER_SECOND = 0.125;

export function usageOf(month: Counts, cpuMs: number, relays: number): Partial<Record<PricedItem, number>> {
  return {
    workerRequests: month.fetch + month.queue + month.scheduled,
    workerCpuMs: cpuMs,
    kvReads: month.kvReads,
    kvWrites: month.kvWrites,
    kvDeletes: month.kvDeletes,
    kvLists: month.kvLists,
    queueOps: month.queueOps,
    d1RowsRead: month.d1RowsRead,
    d1RowsWritten: month.d1RowsWritten,
    doRequests: month.doRequests,
    doGbSeconds:
      (month.doRequests > 0 ? relays * MONTH_SECONDS * DO_GB_PER_SECOND : 0) +
      (month.doActiveMs / 1000) * DO_GB_PER_SECOND,
    doRowsRead: month.doRowsRead,
    doRowsWritten: month.doRowsWritten,
    aePoints: month.aePoints,
    r2ClassA: month.r2ClassA,
    r2ClassB: month.r2ClassB,
  };
}

export function printCpu(cpu: CpuReport) {
  const us = (values: number[]) =>
    `${median(values).toFixed(1)} µs (rounds: ${values.map((x) => x.toFixed(1)).join(", ")})`;
  console.log(
    `\n  CPU per request in the isolate, median of ${cpu.rounds} x ${fmt(cpu.calls)} calls (performance.now(); KV, Rate ` +
      `Limiting, the queue and D1 as in-memory stand-ins, the change feed read between calls; local only: production ` +
      `freezes the clock):`,
  );
  console.log(`    constant 1 KB Response           ${us(cpu.constant)}`);
  console.log(`    /api/content, memo warm          ${us(cpu.contentMemoHit)}`);
  console.log(`    /api/content, memo cold          ${us(cpu.contentMemoMiss)}`);
  console.log(`    /api/content, memo cold, 20 audiences on the URL ${us(cpu.contentAudiencesMemoMiss)}`);
  const cpuMs = median(cpu.contentMemoMiss) * 1000;
  console.log(
    `    per million views (memo cold): ${fmt(cpuMs / 1000, 0)} CPU-seconds, ${dollars((cpuMs / 1e6) * PRICES.workerCpuMs.perMillion)} ` +
      `at $${PRICES.workerCpuMs.perMillion} per million CPU-ms; per call the stand-ins saw ${perView(cpu.perCall.kvReads)} KV reads, ` +
      `${perView(cpu.perCall.rateLimitCalls)} Rate Limiting calls, ${perView(cpu.perCall.messages)} messages`,
  );
}
