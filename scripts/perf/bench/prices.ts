/**
 * @module Cloudflare's list prices on the Workers Paid plan, as `npm run bench` prices what it counts (and
 * docs/scaling.md shows them): per million units above what a month includes, checked on PRICES_CHECKED against
 * developers.cloudflare.com (the Workers, KV, Queues, D1, Durable Objects, Analytics Engine and R2 pricing pages).
 * The Rate Limiting binding has no separate list price that we know of: its calls are counted, not priced.
 */
export const PRICES_CHECKED = "2026-11-26";

/** The Workers Paid plan's monthly minimum, which includes the amounts below. */
export const PAID_PLAN_PER_MONTH = 5;

export interface Price {
  label: string;
  /** USD per million units. */
  perMillion: number;
  /** Units a month includes. */
  includedPerMonth: number;
}

export const PRICES = {
  workerRequests: { label: "Workers requests", perMillion: 0.3, includedPerMonth: 10e6 },
  workerCpuMs: { label: "Workers CPU time (ms)", perMillion: 0.02, includedPerMonth: 30e6 },
  kvReads: { label: "KV reads", perMillion: 0.5, includedPerMonth: 10e6 },
  kvWrites: { label: "KV writes", perMillion: 5, includedPerMonth: 1e6 },
  kvDeletes: { label: "KV deletes", perMillion: 5, includedPerMonth: 1e6 },
  kvLists: { label: "KV lists", perMillion: 5, includedPerMonth: 1e6 },
  queueOps: { label: "Queues operations", perMillion: 0.4, includedPerMonth: 1e6 },
  d1RowsRead: { label: "D1 rows read", perMillion: 0.001, includedPerMonth: 25e9 },
  d1RowsWritten: { label: "D1 rows written", perMillion: 1, includedPerMonth: 50e6 },
  doRequests: { label: "Durable Objects requests", perMillion: 0.15, includedPerMonth: 1e6 },
  doGbSeconds: { label: "Durable Objects duration (GB-s)", perMillion: 12.5, includedPerMonth: 400_000 },
  doRowsRead: { label: "Durable Objects SQLite rows read", perMillion: 0.001, includedPerMonth: 25e9 },
  doRowsWritten: { label: "Durable Objects SQLite rows written", perMillion: 1, includedPerMonth: 50e6 },
  aePoints: { label: "Analytics Engine data points", perMillion: 0.25, includedPerMonth: 10e6 },
  r2ClassA: { label: "R2 class A operations", perMillion: 4.5, includedPerMonth: 1e6 },
  r2ClassB: { label: "R2 class B operations", perMillion: 0.36, includedPerMonth: 10e6 },
} satisfies Record<string, Price>;

export type PricedItem = keyof typeof PRICES;

/** What a month's usage costs, item by item (above the included amounts), and in all with the plan's minimum. */
export function monthlyCost(usage: Partial<Record<PricedItem, number>>): {
  items: { item: PricedItem; label: string; units: number; dollars: number }[];
  total: number;
} {
  const items = (Object.keys(PRICES) as PricedItem[]).map((item) => {
    const { label, perMillion, includedPerMonth } = PRICES[item];
    const units = usage[item] ?? 0;
    return { item, label, units, dollars: (Math.max(0, units - includedPerMonth) / 1e6) * perMillion };
  });
  return { items, total: PAID_PLAN_PER_MONTH + items.reduce((sum, i) => sum + i.dollars, 0) };
}
