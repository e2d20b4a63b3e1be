/**
 * @module The raw analytics archive in R2: one gzipped NDJSON object per consumed batch, one event per line,
 * written before the batch is counted, so nothing counted is missing from it. Queues deliver at least once, so
 * an event may appear in two objects (a batch retried after its archive was written): readers keep the first
 * line of each `id`.
 */
import type { Env } from "../env";
import { sha256Hex } from "../lib/crypto";
import { gzip } from "../lib/gzip";

export const ARCHIVE_CONTENT_TYPE = "application/x-ndjson";

/** A batch's id: from its message ids, so a batch retried as it was overwrites its own object. */
export async function batchIdOf(ids: readonly string[]): Promise<string> {
  return (await sha256Hex([...ids].sort().join("\n"))).slice(0, 32);
}

/** Where a batch's events are archived: by the UTC hour of its first event, then its id. */
export function archiveKey(batchId: string, firstTimestamp: number): string {
  const hour = new Date(firstTimestamp).toISOString().slice(0, 13).replace(/[-T]/g, "/");
  return `raw/${hour}/${batchId}.ndjson.gz`;
}

/** Writes events to the archive as one object; fails (and the caller retries) when R2 does. */
export async function archiveEvents(env: Env, key: string, events: readonly object[]): Promise<void> {
  const ndjson = events.map((e) => JSON.stringify(e)).join("\n") + "\n";
  await env.ANALYTICS_ARCHIVE.put(key, await gzip(ndjson), {
    httpMetadata: { contentType: ARCHIVE_CONTENT_TYPE, contentEncoding: "gzip" },
    customMetadata: { events: String(events.length) },
  });
}
