/**
 * @module A mapping's history (docs/history.md): the versions its triggers wrote (migration 0016), newest first,
 * and one version to restore. Only the mapping's own customer sees them.
 */
import { and, count, desc, eq } from "drizzle-orm";
import { DEFAULT_PLACEMENT, type Placement } from "#contract/placement";
import type { Seo } from "#contract/seo";
import type { Audience, StoredHoldout } from "#contract/audiences";
import type { StoredExperiment } from "#contract/experiments";
import type { MappingVersion } from "#contract/versions";
import type { Db } from "../db/client";
import { mappingVersions, urlMappings } from "../db/schema";
import type { Page, PageParams } from "#contract/page";
import { experimentAnswer } from "./experiments";
import { holdoutAnswer } from "./holdouts";
import { pageOf } from "./page";

const versionColumns = {
  version: mappingVersions.version,
  changedBy: mappingVersions.changedBy,
  createdAt: mappingVersions.createdAt,
  url: mappingVersions.url,
  htmlContent: mappingVersions.htmlContent,
  placement: mappingVersions.placement,
  seo: mappingVersions.seo,
  experiment: mappingVersions.experiment,
  audience: mappingVersions.audience,
  priority: mappingVersions.priority,
  holdout: mappingVersions.holdout,
  publishedAt: mappingVersions.publishedAt,
  publishAt: mappingVersions.publishAt,
  unpublishAt: mappingVersions.unpublishAt,
};

/** A version as D1 has it: dates as dates, the defaults as null. */
type VersionRow = Omit<
  MappingVersion,
  | "createdAt"
  | "placement"
  | "seo"
  | "publishedAt"
  | "publishAt"
  | "unpublishAt"
  | "variants"
  | "goals"
  | "audience"
  | "priority"
  | "holdout"
> & {
  holdout: StoredHoldout | null;
  experiment: StoredExperiment | null;
  audience: Audience | null;
  priority: number;
  createdAt: Date;
  placement: Placement | null;
  seo: Seo | null;
  publishedAt: Date | null;
  publishAt: Date | null;
  unpublishAt: Date | null;
};

const iso = (date: Date | null) => (date ? date.toISOString() : null);

function toVersion({ experiment, audience, priority, holdout, ...row }: VersionRow): MappingVersion {
  return {
    ...row,
    ...(audience ? { audience, priority } : {}),
    createdAt: row.createdAt.toISOString(),
    placement: row.placement ?? DEFAULT_PLACEMENT,
    seo: row.seo ?? {},
    publishedAt: iso(row.publishedAt),
    publishAt: iso(row.publishAt),
    unpublishAt: iso(row.unpublishAt),
    ...experimentAnswer(experiment, row.htmlContent),
    ...holdoutAnswer(holdout),
  };
}

/** The customer's own mapping's versions only: the join names its owner. */
const ownedBy = (userId: string, mappingId: number) =>
  and(eq(mappingVersions.mappingId, mappingId), eq(urlMappings.userId, userId));

/** A page of one of the customer's mappings' versions, newest first. */
export async function listVersions(
  db: Db,
  userId: string,
  mappingId: number,
  { limit, offset }: PageParams,
): Promise<Page<MappingVersion>> {
  return pageOf(
    db,
    db
      .select(versionColumns)
      .from(mappingVersions)
      .innerJoin(urlMappings, eq(urlMappings.id, mappingVersions.mappingId))
      .where(ownedBy(userId, mappingId))
      .orderBy(desc(mappingVersions.version))
      .limit(limit)
      .offset(offset),
    db
      .select({ n: count() })
      .from(mappingVersions)
      .innerJoin(urlMappings, eq(urlMappings.id, mappingVersions.mappingId))
      .where(ownedBy(userId, mappingId)),
    toVersion,
  );
}

/** One version of one of the customer's mappings, or null. */
export async function getVersion(db: Db, userId: string, mappingId: number, version: number) {
  const [row] = await db
    .select(versionColumns)
    .from(mappingVersions)
    .innerJoin(urlMappings, eq(urlMappings.id, mappingVersions.mappingId))
    .where(and(ownedBy(userId, mappingId), eq(mappingVersions.version, version)));
  return row ? toVersion(row) : null;
}
