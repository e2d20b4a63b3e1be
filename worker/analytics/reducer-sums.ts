/**
 * @module What a reducer (reducer.ts) holds: page views summed per customer, URL, day, mapping and crawler flag,
 * as the fold counts them (fold.ts reads a `HeldSum` as `n` views). Plain data and arithmetic, no bindings.
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
 * Sums by customer; adding a sum of a key already held adds to it. About 350 bytes a sum (measured in Node: 35 MB
 * for 100,000 sums of 60-character URLs), most of it the key.
 */
export class HeldSums {
  private readonly byCustomer = new Map<string, Map<string, Held>>();
  private count = 0;

  /** How many sums are held, all customers together (what memory they take). */
  get size(): number {
    return this.count;
  }

  customers(): string[] {
    return [...this.byCustomer.keys()];
  }

  has(userId: string): boolean {
    return this.byCustomer.has(userId);
  }

  add(sums: Iterable<HeldSum>): void {
    for (const sum of sums) {
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
      }
    }
  }

  /** Every sum held, still held. */
  list(): HeldSum[] {
    return [...this.byCustomer].flatMap(([userId, held]) => [...held].map(([key, h]) => sumOf(userId, key, h)));
  }

  /** The customer's sums, no longer held (`add` them back if they could not be settled). */
  take(userId: string): HeldSum[] {
    const held = this.byCustomer.get(userId);
    if (!held) return [];
    this.byCustomer.delete(userId);
    this.count -= held.size;
    return [...held].map(([key, h]) => sumOf(userId, key, h));
  }
}
