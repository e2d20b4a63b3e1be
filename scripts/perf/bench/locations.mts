/**
 * @module Where a request of the bench Worker runs: production has about 300 locations, each with its own Cache API
 * (`caches.default` is per data center), and in each several isolates, each with its own memo (delivery/memo.ts).
 * A request that names its location and isolate (`inPlace`) gets that location's caches (`caches.default` and
 * `caches.open(name)` become `loc-<n>:<name>` of the one local cache storage) and that isolate's memo lane
 * (memo-lanes.mts); both follow the request into its `waitUntil` work. Every Cache API call is counted into the
 * request's counts (free on the platform; printed for information). Without a place, the one default location and
 * isolate, as before.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Counts } from "./protocol";

export interface Place {
  location: number;
  isolate: number;
  counts: Counts;
  /** The location's `caches.default`, opened before the request runs (the property is synchronous). */
  defaultCache: Cache;
}

const place = new AsyncLocalStorage<Place>();
const realCaches = caches;

/** The memo lane of the current request: its location's isolate, or "default". */
export function laneKey(): string {
  const p = place.getStore();
  return p ? `${p.location}:${p.isolate}` : "default";
}

function countedCache(cache: Cache, counts: Counts | undefined): Cache {
  if (!counts) return cache;
  return {
    match: async (...args: Parameters<Cache["match"]>) => {
      counts.cacheMatches++;
      const found = await cache.match(...args);
      if (found) counts.cacheHits++;
      return found;
    },
    put: (...args: Parameters<Cache["put"]>) => (counts.cachePuts++, cache.put(...args)),
    delete: (...args: Parameters<Cache["delete"]>) => (counts.cacheDeletes++, cache.delete(...args)),
  } as Cache;
}

const perLocation = {
  get default(): Cache {
    const p = place.getStore();
    return p ? countedCache(p.defaultCache, p.counts) : realCaches.default;
  },
  async open(name: string): Promise<Cache> {
    const p = place.getStore();
    return p ? countedCache(await realCaches.open(`loc-${p.location}:${name}`), p.counts) : realCaches.open(name);
  },
};
Object.defineProperty(globalThis, "caches", { value: perLocation, configurable: true, writable: true });

/** Runs `work` at a location and isolate, counting its Cache API calls into `counts`. */
export async function inPlace<T>(location: number, isolate: number, counts: Counts, work: () => Promise<T>) {
  const defaultCache = await realCaches.open(`loc-${location}:default`);
  return place.run({ location, isolate, counts, defaultCache }, work);
}
