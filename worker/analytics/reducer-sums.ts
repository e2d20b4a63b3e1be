/**
 * @module What a reducer (reducer.ts) holds: page views summed per customer, URL, day, mapping and crawler flag,
 * as the fold counts them (fold.ts reads a `HeldSum` as `n` views), and per customer the views of those that spent
 * no quota (reducer-visitors.ts). Plain data and arithmetic, no bindings.
 */
import type { HeldSum } from "../messages/analytics";

/** What a sum is held as: its key (URL, day, mapping, crawler flag: a URL has no line break) and three numbers. */
type Held = [n: number, delivered: number, timestamp: number];

const keyOf = (sum: HeldSum) => `${sum.url}\n${sum.day}\n${sum.mappingId ?? ""}\n${sum.crawler}`;

function sumOf(userId: string, key: string, [n, delivered, timestamp]: Held): HeldSum {
  const [url, day, mappingId, crawler] = key.split("\n") as [string, string, string, string];
  return {
    userId,
    url,
    day,
    mappingId: mappingId === "" ? null : Number(mappingId),
    crawler: crawler === "1" ? 1 : 0,
    n,
    delivered,
    timestamp,
  };
}

/**
 * What a held sum takes in memory, in bytes, by the length of its key: measured in Node with forced garbage
 * collection (reducer-memory.node.test.ts): about 500 bytes for a 60-character URL, 2,500 for one of 2,048.
 */
export const heldSumBytes = (keyLength: number) => HELD_SUM_OVERHEAD_BYTES + keyLength;
const HELD_SUM_OVERHEAD_BYTES = 420;

/**
 * A reducer holding more sums than this, or more bytes of them (`HeldSums.bytes`), settles everything it holds: with
 * its visitors at their cap it then stays under half a Durable Object's 128 MB (reducer-memory.node.test.ts).
 */
export const MAX_HELD_SUMS = 100_000;
export const MAX_HELD_BYTES = 12 * 1024 * 1024;

/**
 * Sums by customer; adding a sum of a key already held adds to it. `bytes` estimates the memory they take
 * (`heldSumBytes`), so that a reducer settles by memory, whatever the length of the URLs strangers send.
 */
export class HeldSums {
  private readonly byCustomer = new Map<string, Map<string, Held>>();
  private heldBytes = 0;
  /** Per customer: views and deliveries not by a crawler, and of those the ones that spent no quota. */
  private readonly billing = new Map<
    string,
    [views: number, deliveries: number, unbilled: number, unbilledDeliveries: number]
  >();
  private count = 0;

  /** How many sums are held, all customers together (what memory they take). */
  get size(): number {
    return this.count;
  }

  /** About how many bytes of memory the sums take (`heldSumBytes`). */
  get bytes(): number {
    return this.heldBytes;
  }

  customers(): string[] {
    return [...this.byCustomer.keys()];
  }

  has(userId: string): boolean {
    return this.byCustomer.has(userId);
  }

  add(sums: Iterable<HeldSum>): void {
    for (const sum of sums) {
      if (!sum.crawler) {
        const billing = this.billingOf(sum.userId);
        billing[0] += sum.n;
        billing[1] += sum.delivered;
      }
      let held = this.byCustomer.get(sum.userId);
      if (!held) this.byCustomer.set(sum.userId, (held = new Map()));
      const key = keyOf(sum);
      const same = held.get(key);
      if (same) {
        same[0] += sum.n;
        same[1] += sum.delivered;
        same[2] = Math.max(same[2], sum.timestamp);
      } else {
        held.set(key, [sum.n, sum.delivered, sum.timestamp]);
        this.count += 1;
        this.heldBytes += heldSumBytes(key.length);
      }
    }
  }

  /** Adds views of the customer's held sums that spent no quota (a handoff's, billed by reducer-visitors.ts). */
  addUnbilled(userId: string, views: number, deliveries: number): void {
    const billing = this.billingOf(userId);
    billing[2] += views;
    billing[3] += deliveries;
  }

  /** What the customer's held views spend of their quota: billed views and deliveries. */
  billed(userId: string): { requests: number; deliveries: number } {
    const [views, deliveries, unbilled, unbilledDeliveries] = this.billing.get(userId) ?? [0, 0, 0, 0];
    return { requests: views - unbilled, deliveries: deliveries - unbilledDeliveries };
  }

  /** Every sum held, still held. */
  list(): HeldSum[] {
    return [...this.byCustomer].flatMap(([userId, held]) => [...held].map(([key, h]) => sumOf(userId, key, h)));
  }

  /** Every customer's views held that spent no quota, still held (`addUnbilled` takes them back). */
  listUnbilled(): [userId: string, views: number, deliveries: number][] {
    return [...this.billing]
      .filter(([, [, , views, deliveries]]) => views > 0 || deliveries > 0)
      .map(([userId, [, , views, deliveries]]) => [userId, views, deliveries]);
  }

  /**
   * The customer's sums, no longer held, with their views that spent no quota on one of them (only the customer's
   * totals read those: fold.ts). A customer without sums keeps them until sums come: a handoff's tallies and sums
   * may travel in different parts.
   */
  take(userId: string): HeldSum[] {
    const held = this.byCustomer.get(userId);
    if (!held) return [];
    const sums = [...held].map(([key, h]) => sumOf(userId, key, h));
    for (const key of held.keys()) this.heldBytes -= heldSumBytes(key.length);
    const [, , unbilled, unbilledDelivered] = this.billing.get(userId) ?? [0, 0, 0, 0];
    if (unbilled > 0 || unbilledDelivered > 0) {
      const carrier = sums.find((sum) => !sum.crawler) ?? sums[0]!;
      carrier.unbilled = unbilled;
      carrier.unbilledDelivered = unbilledDelivered;
    }
    this.byCustomer.delete(userId);
    this.billing.delete(userId);
    this.count -= held.size;
    return sums;
  }

  private billingOf(userId: string) {
    let billing = this.billing.get(userId);
    if (!billing) this.billing.set(userId, (billing = [0, 0, 0, 0]));
    return billing;
  }
}
