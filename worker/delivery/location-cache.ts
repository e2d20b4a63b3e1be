/**
 * @module The location's cache: the Cache API between the isolate's memo (memo.ts, 5 seconds) and KV, shared by
 * every isolate of one Cloudflare location. The delivery store keeps there what the hot path read from KV, under the
 * KV key it read. Each value says until when it is fresh (`until`, epoch ms), judged against the caller's `now`:
 * Cache-Control only lets the cache evict it. The cache is opened at each call (never held across requests), and any
 * failure of it is logged and answered as a miss, so that a view falls back to KV and never fails for it. Misses
 * cost nothing but time: the Cache API is not billed.
 */
import type { Env } from "../env";
import { productOrigins } from "../http/origin";

/** A named cache: only this module reads it (a request to the Worker's hosts never does). */
const CACHE_NAME = "delivery";
/** Under a path no route serves. */
const KEY_PATH = "/_delivery-cache/";
/** Where no origin is configured (tests, local development): a reserved name (RFC 6761). */
const UNCONFIGURED_ORIGIN = "https://delivery.invalid";

type Origins = Pick<Env, "PUBLIC_ORIGIN" | "DELIVERY_ORIGIN" | "ENVIRONMENT">;

/** A kept value and until when it is fresh. */
export interface Held<T> {
  until: number;
  value: T;
}

/**
 * The URL a key is kept under: on the delivery origin, since Cloudflare advises cache keys on one's own hostname
 * (another costs a DNS lookup on every call).
 */
const request = (env: Origins, key: string) =>
  new Request((productOrigins(env).origins?.delivery ?? UNCONFIGURED_ORIGIN) + KEY_PATH + encodeURIComponent(key));

/** What the location holds under `key`, while fresh at `now`; undefined when absent, stale or unreadable. */
export async function readCached<T>(env: Origins, key: string, now: number): Promise<Held<T> | undefined> {
  try {
    const res = await (await caches.open(CACHE_NAME)).match(request(env, key));
    if (!res) return undefined;
    const held = (await res.json()) as Held<T>;
    return now < held.until ? held : undefined;
  } catch (err) {
    console.error("Delivery cache read failed; reading KV", err);
    return undefined;
  }
}

/** Keeps `value` under `key` at this location until `until` (epoch ms). */
export async function writeCached<T>(env: Origins, key: string, value: T, now: number, until: number): Promise<void> {
  if (until <= now) return;
  const held: Held<T> = { until, value };
  try {
    await (
      await caches.open(CACHE_NAME)
    ).put(
      request(env, key),
      new Response(JSON.stringify(held), {
        headers: {
          "Content-Type": "application/json",
          "Cache-Control": `max-age=${Math.ceil((until - now) / 1000)}`,
        },
      }),
    );
  } catch (err) {
    console.error("Delivery cache write failed", err);
  }
}

/** Forgets `key` at this location (the Cache API purges one location only: its own). */
export async function dropCached(env: Origins, key: string): Promise<void> {
  try {
    await (await caches.open(CACHE_NAME)).delete(request(env, key));
  } catch (err) {
    console.error("Delivery cache delete failed", err);
  }
}
