/**
 * @module An audience's fixed values (docs/audiences.md), without zod: the SPA's screens import them from here, so
 * that showing the audience editor or the URL tester loads no schema (contract/audiences.ts re-exports them).
 */

export const CONTINENTS = ["AF", "AN", "AS", "EU", "NA", "OC", "SA"] as const;
export const DEVICES = ["mobile", "tablet", "desktop"] as const;
export const VISITOR_KINDS = ["new", "returning"] as const;

export type Continent = (typeof CONTINENTS)[number];
export type Device = (typeof DEVICES)[number];
export type VisitorKind = (typeof VISITOR_KINDS)[number];

/** What a mapping's priority is when none is given. */
export const DEFAULT_PRIORITY = 100;

/** The largest share of its audience, in whole percent, a mapping may hold out (docs/audiences.md, "Holdout"). */
export const HOLDOUT_MAX = 50;
export const HOLDOUT_NEEDS_AUDIENCE =
  "holdout needs an audience: only a mapping for an audience can hold out a share of it";
export const HOLDOUT_WITH_EXPERIMENT =
  "holdout and an experiment cannot run on one mapping: set holdout to 0 or stop the experiment (variants: null)";
export const HOLDOUT_GOALS_NEEDED = "Name at least one goal the holdout measures (goals)";
