/** @module A mapping's history (docs/history.md): who made each version, and what the API answers of one. */
import type { Variant } from "./experiments";
import type { Placement } from "./placement";
import type { Seo } from "./seo";

/** Who changed a mapping: its customer, an admin, or the minute cron carrying out a schedule. */
export const VERSION_AUTHORS = ["customer", "admin", "schedule"] as const;
export type VersionAuthor = (typeof VERSION_AUTHORS)[number];

/** How many versions of one mapping are kept, newest first. */
export const VERSIONS_KEPT = 50;

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
}
