/**
 * @module The getting-started `snippet` step (docs/getting-started.md): the consumer records each customer's first
 * page view taken, with its page's host, once. The hot path pays nothing for it; a batch pays one statement for the
 * customers this isolate has not recorded yet (none once it has seen them all), and that statement writes a row only
 * for a customer who has none.
 */
import type { Db } from "../db/client";
import { recordSnippetSightings, type Sighting } from "../models/onboarding";
import { hostOf } from "#contract/normalize-url";
import type { ArchivedView } from "./record";

/** Customers this isolate knows to have a sighting; past this many it forgets them all and starts again. */
const KNOWN_MAX = 50_000;
const known = new Set<string>();

/** Each customer's earliest view of the batch, among the customers not known to have a sighting. */
function firstSightings(views: readonly ArchivedView[]): Sighting[] {
  const first = new Map<string, Sighting>();
  for (const view of views) {
    if (known.has(view.userId)) continue;
    const seen = first.get(view.userId);
    if (!seen || view.timestamp < seen.seenAt) {
      first.set(view.userId, { userId: view.userId, host: hostOf(view.normalizedUrl), seenAt: view.timestamp });
    }
  }
  return [...first.values()];
}

/** Records the first sightings among the views the consumer took (theirs: consumer.ts `theirViews`). */
export async function recordFirstSightings(db: Db, views: readonly ArchivedView[]): Promise<void> {
  const sightings = firstSightings(views);
  if (sightings.length === 0) return;
  await recordSnippetSightings(db, sightings);
  if (known.size + sightings.length > KNOWN_MAX) known.clear();
  for (const s of sightings) known.add(s.userId);
}
