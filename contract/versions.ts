/** @module A mapping's history (docs/history.md): who made each version, and what the API answers of one. */
import type { Variant } from "./experiments";
import type { Placement } from "./placement";
import type { Seo } from "./seo";
import type { Audience } from "./audiences";

/** Who changed a mapping: its customer, an admin, or the minute cron carrying out a schedule. */
export const VERSION_AUTHORS = ["customer", "admin", "schedule"] as const;
export type VersionAuthor = (typeof VERSION_AUTHORS)[number];

/** How many versions of one mapping are kept, newest first. */
export const VERSIONS_KEPT = 50;

/**
 * Bytes of history one account keeps, on every plan: its mappings' versions and its deleted mappings. Past it the
 * account's oldest versions are pruned; the newest version of each mapping, and deleted mappings (restorable for
 * 30 days), always stay (docs/history.md).
 */
export const HISTORY_BYTES_LIMIT = 10 * 1024 * 1024;

/** What the History dialog says when versions of a mapping were pruned (by count or by the account's budget). */
export const HISTORY_PRUNED_NOTE =
  `Older versions were removed: history keeps the newest ${VERSIONS_KEPT} versions of each mapping and ` +
  `${HISTORY_BYTES_LIMIT / 1024 / 1024} MB per account; the newest version of each mapping is always kept.`;

export interface MappingVersion {
  version: number;
  /** Null for versions made before the history recorded it. */
  changedBy: VersionAuthor | null;
  createdAt: string;
  url: string;
  htmlContent: string;
  placement: Placement;
  seo: Seo;
  publishedAt: string | null;
  publishAt: string | null;
  unpublishAt: string | null;
  /** Only on a version with an experiment (docs/experiments.md). */
  variants?: Variant[];
  goals?: string[];
  /** Only on a version for an audience (docs/audiences.md). */
  audience?: Audience;
  priority?: number;
  /** Only on a version of an audience mapping with a holdout (docs/audiences.md, "Holdout"): its share in percent. */
  holdout?: number;
}
