/** @module Experiments: visitors' exposures and goals, runs, conversions and the results' counts. */
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { userRef } from "./accounts";

/**
 * Who saw which variant of an experiment (docs/experiments.md): one row per experiment and visitor (their random
 * id), written once by the analytics fold, with the first time they saw it. WITHOUT ROWID (db/raw.ts).
 */
export const experimentExposures = sqliteTable(
  "experiment_exposures",
  {
    experiment: text("experiment").notNull(),
    visitor: text("visitor").notNull(),
    userId: userRef(),
    /** The mapping that ran it: a conversion counts while the mapping still runs this experiment with that goal. */
    mappingId: integer("mapping_id").notNull(),
    variant: text("variant").notNull(),
    firstSeen: integer("first_seen").notNull(),
    /**
     * The address that exposed them, as the day's analytics name it (a keyed daily hash, delivery/page-view.ts
     * `visitorId`): one address adds at most `ADDRESS_DAILY_EXPOSURES` visitors a day (null before issue 38).
     */
    address: text("address"),
    /**
     * The visitor's device, referrer type and country at their first view (contract/segments.ts `encodeSegment`),
     * which their conversions count under; null for views sent before segments were.
     */
    segment: text("segment"),
  },
  (t) => [
    primaryKey({ columns: [t.experiment, t.visitor] }),
    index("experiment_exposures_visitor_idx").on(t.userId, t.visitor),
    index("experiment_exposures_address_idx").on(t.experiment, t.address),
  ],
);

/**
 * One row per experiment run the fold has counted (analytics/experiment-fold.ts): its visitors (a customer's runs
 * together held to `experimentVisitorCap` of their plan) and the last time one was exposed, which the daily cron reads to purge the rows of a run
 * no mapping runs any more (analytics/retention.ts `purgeEndedExperiments`). `visitors_before` and `counted_seq`
 * keep the count from before the fold that wrote it, as the fold's other `_before` columns do.
 */
export const experimentRuns = sqliteTable(
  "experiment_runs",
  {
    experiment: text("experiment").primaryKey(),
    userId: userRef(),
    mappingId: integer("mapping_id").notNull(),
    visitors: integer("visitors").notNull().default(0),
    visitorsBefore: integer("visitors_before").notNull().default(0),
    countedSeq: integer("counted_seq").notNull().default(0),
    lastSeen: integer("last_seen").notNull(),
  },
  (t) => [index("experiment_runs_last_seen_idx").on(t.lastSeen), index("experiment_runs_user_idx").on(t.userId)],
);

/**
 * The goals a customer's visitors reached (`POST /api/goals`), one row per visitor and goal with the last time: a
 * goal reached before the visitor's exposure was counted still converts them. WITHOUT ROWID (db/raw.ts); the daily
 * cron drops rows not touched for `GOAL_RETENTION_DAYS`.
 */
export const visitorGoals = sqliteTable(
  "visitor_goals",
  {
    userId: userRef(),
    visitor: text("visitor").notNull(),
    goal: text("goal").notNull(),
    lastAt: integer("last_at").notNull(),
    /** The address that sent it first (as `experiment_exposures.address`): at most `ADDRESS_DAILY_GOALS` a day. */
    address: text("address"),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.visitor, t.goal] }),
    index("visitor_goals_last_at_idx").on(t.lastAt),
    index("visitor_goals_address_idx").on(t.userId, t.address),
  ],
);

/** Each visitor's conversion on each goal of an experiment, once. WITHOUT ROWID (db/raw.ts). */
export const experimentConversions = sqliteTable(
  "experiment_conversions",
  {
    experiment: text("experiment").notNull(),
    visitor: text("visitor").notNull(),
    goal: text("goal").notNull(),
    userId: userRef(),
    variant: text("variant").notNull(),
  },
  (t) => [primaryKey({ columns: [t.experiment, t.visitor, t.goal] })],
);

/** Visitors per experiment and variant, and conversions per goal (`goal` '' for the visitors' row). */
export const experimentStats = sqliteTable(
  "experiment_stats",
  {
    experiment: text("experiment").notNull(),
    variant: text("variant").notNull(),
    goal: text("goal").notNull(),
    userId: userRef(),
    count: integer("count").notNull().default(0),
    /** Of `count`, the most that one address brought in one day (the results' concentration warning). */
    topAddress: integer("top_address").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.experiment, t.variant, t.goal] })],
);

/**
 * An experiment's counts per segment (docs/experiments.md, "Results by segment"): per variant and dimension
 * (`device`, `country`, `referrer`) and value (contract/segments.ts codes), its visitors (`goal` '') and its
 * conversions per goal. Each dimension's values are a closed set, so an experiment has a bounded number of rows.
 */
export const experimentSegmentStats = sqliteTable(
  "experiment_segment_stats",
  {
    experiment: text("experiment").notNull(),
    variant: text("variant").notNull(),
    goal: text("goal").notNull(),
    dimension: text("dimension").notNull(),
    value: text("value").notNull(),
    userId: userRef(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.experiment, t.dimension, t.variant, t.goal, t.value] })],
);
