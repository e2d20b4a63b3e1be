/**
 * @module The getting-started steps (docs/getting-started.md): what `GET /api/onboarding` answers, in one round trip
 * of reads by primary key or an index's first row, so that it costs the same for a customer of 100,000 mappings as
 * for one; and the snippet's first sighting, which the analytics consumer records once per customer.
 */
import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { OnboardingStep } from "#contract/responses";
import type { Db } from "../db/client";
import { snippetSightings, urlMappings, usageCounters, websites, type User } from "../db/schema";
import { heldRequests, unsettledCounts, unsettledReads, type Held } from "./held-counts";

const step = (key: OnboardingStep["key"], done: boolean, at?: Date | null, host?: string): OnboardingStep => ({
  key,
  done,
  ...(at ? { at: at.toISOString() } : {}),
  ...(host ? { host } : {}),
});

/** The steps; a first page view a reducer holds (`held`, held-counts.ts) counts as seen. */
export async function onboardingSteps(
  db: Db,
  user: Pick<User, "id" | "emailVerified">,
  held: Held | null,
): Promise<OnboardingStep[]> {
  const [mapping, sighting, counted, website, ...unsettled] = await db.batch([
    db
      .select({ createdAt: urlMappings.createdAt })
      .from(urlMappings)
      .where(eq(urlMappings.userId, user.id))
      .orderBy(asc(urlMappings.createdAt))
      .limit(1),
    db.select().from(snippetSightings).where(eq(snippetSightings.userId, user.id)),
    db
      .select({ one: sql<number>`1` })
      .from(usageCounters)
      .where(and(eq(usageCounters.userId, user.id), gt(usageCounters.totalRequests, 0))),
    db
      .select({ verifiedAt: websites.verifiedAt })
      .from(websites)
      .where(and(eq(websites.userId, user.id), eq(websites.mode, "edge"), eq(websites.status, "active")))
      .limit(1),
    ...unsettledReads(db, user.id, held),
  ]);
  const seen = sighting[0];
  return [
    step("verified", user.emailVerified),
    step("mapping", mapping.length > 0, mapping[0]?.createdAt),
    step("snippet", seen !== undefined, seen?.seenAt, seen?.host),
    step("firstView", counted.length > 0 || heldRequests(unsettledCounts(held, unsettled)) > 0),
    step("website", website.length > 0, website[0]?.verifiedAt),
  ];
}

/** A customer's first page view in a batch: who, on which host, when. */
export interface Sighting {
  userId: string;
  host: string;
  seenAt: number;
}

/**
 * Records each customer's first sighting, once: a customer who has one keeps it (one statement for the whole batch,
 * which writes nothing for them). A customer deleted meanwhile gets none.
 */
export async function recordSnippetSightings(db: Db, sightings: readonly Sighting[]): Promise<void> {
  if (sightings.length === 0) return;
  await db.run(sql`
    INSERT INTO ${snippetSightings} (user_id, host, seen_at)
    SELECT s.value ->> 'userId', s.value ->> 'host', s.value ->> 'seenAt' FROM json_each(${JSON.stringify(sightings)}) s
    WHERE EXISTS (SELECT 1 FROM users WHERE users.id = s.value ->> 'userId')
    ON CONFLICT (user_id) DO NOTHING`);
}
