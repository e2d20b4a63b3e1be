/**
 * Test helpers for the location's cache (delivery/location-cache.ts): Cloudflare locations stood in for by a
 * `caches` of their own each, in memory, so that a test can view a page "at another location". `at(location)` makes
 * the code that runs next see that location's `caches`, until `restore()`.
 */
import { vi } from "vitest";

/** One Cache of a stand-in location: bodies by URL, without any eviction of its own (freshness is the caller's). */
class MemoryCache {
  private readonly held = new Map<string, { body: string; headers: [string, string][] }>();

  async match(key: Request | string): Promise<Response | undefined> {
    const found = this.held.get(typeof key === "string" ? key : key.url);
    return found && new Response(found.body, { headers: found.headers });
  }

  async put(key: Request | string, res: Response): Promise<void> {
    this.held.set(typeof key === "string" ? key : key.url, { body: await res.text(), headers: [...res.headers] });
  }

  async delete(key: Request | string): Promise<boolean> {
    return this.held.delete(typeof key === "string" ? key : key.url);
  }

  /** How many entries it holds. */
  get size(): number {
    return this.held.size;
  }
}

/** A location's `caches`: the default cache and named ones. */
export class Location {
  private readonly named = new Map<string, MemoryCache>();
  readonly default = new MemoryCache();

  async open(name: string): Promise<MemoryCache> {
    let cache = this.named.get(name);
    if (!cache) this.named.set(name, (cache = new MemoryCache()));
    return cache;
  }

  /** Entries held in all its caches. */
  get entries(): number {
    return [...this.named.values()].reduce((n, c) => n + c.size, this.default.size);
  }
}

/** From now on the code under test uses `location`'s caches (a `caches` that throws stands for a failing Cache API). */
export function at(location: Location | CacheStorage): void {
  vi.stubGlobal("caches", location);
}

export const restore = () => vi.unstubAllGlobals();

/** A Cache API that fails on every call. */
export const failingCaches = {
  open: async () => {
    throw new Error("Cache API unavailable");
  },
  default: {},
} as unknown as CacheStorage;
