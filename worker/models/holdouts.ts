/**
 * @module A mapping's holdout (docs/audiences.md, "Holdout"): what a create or change makes of the `holdout` and
 * `goals` sent, how a mapping's answer shows it, and its results. A holdout is counted as a two-arm experiment
 * (the holdout the control, the audience's content the other arm): the same assignment, fold and statistics.
 */
import {
  AUDIENCE_ARM,
  HOLDOUT_ARM,
  HOLDOUT_GOALS_NEEDED,
  HOLDOUT_NEEDS_AUDIENCE,
  HOLDOUT_WITH_EXPERIMENT,
  type StoredHoldout,
} from "#contract/audiences";
import type { ExperimentResults, SegmentDimension, StoredExperiment } from "#contract/experiments";
import type { Db } from "../db/client";
import { Refusal } from "../lib/refusal";
import {
  experimentChange,
  experimentResultsOf,
  newExperimentId,
  type ExperimentChange,
  type ExperimentInput,
} from "./experiments";

/** What a create or change sends of a holdout; `goals` are the holdout's or the experiment's (see below). */
export interface HoldoutInput {
  holdout?: number;
  goals?: string[];
}

/**
 * What a create or change does to the mapping's experiment and holdout. `goals` measure the experiment the mapping
 * runs after the change, else its holdout: one mapping never runs both (docs/audiences.md, "Holdout").
 */
export function experimentAndHoldoutChange(
  input: ExperimentInput & { holdout?: number },
  current: { experiment: StoredExperiment | null; holdout: StoredHoldout | null },
  hasAudience: boolean,
  htmlContent: string | undefined,
  now: Date,
): { experiment: ExperimentChange | undefined; holdout: StoredHoldout | null | undefined } {
  const { variants, goals, holdout: share } = input;
  const runsExperimentAfter = variants === undefined ? current.experiment !== null : variants !== null;
  const holdoutGoals = (share ?? current.holdout?.share ?? 0) > 0 && !runsExperimentAfter;
  const experiment = experimentChange(
    { variants, goals: holdoutGoals ? undefined : goals },
    current.experiment,
    htmlContent,
    now,
  );
  const holdout = holdoutChange(
    { holdout: share, goals: holdoutGoals ? goals : undefined },
    current.holdout,
    hasAudience,
    runsExperimentAfter,
    now,
  );
  return { experiment, holdout };
}

/**
 * The mapping's holdout after `input`, or undefined when the change does not touch it. A share of 0, or a mapping
 * no longer for an audience, ends it; a change of the share, the goals or the audience keeps the run (its id,
 * visitors and counts); a share set after none starts a new run. A share needs an audience and no experiment.
 */
export function holdoutChange(
  input: HoldoutInput,
  current: StoredHoldout | null,
  hasAudience: boolean,
  runsExperiment: boolean,
  now: Date,
): StoredHoldout | null | undefined {
  const share = input.holdout ?? current?.share ?? 0;
  if (share === 0 || (input.holdout === undefined && !hasAudience)) return current ? null : undefined;
  if (!hasAudience) throw new Refusal(400, HOLDOUT_NEEDS_AUDIENCE);
  if (runsExperiment) throw new Refusal(400, HOLDOUT_WITH_EXPERIMENT);
  if (input.holdout === undefined && input.goals === undefined) return undefined;
  const goals = input.goals ?? current?.goals ?? [];
  if (goals.length === 0) throw new Refusal(400, HOLDOUT_GOALS_NEEDED);
  return {
    id: current?.id ?? newExperimentId(),
    share,
    goals,
    startedAt: current?.startedAt ?? now.getTime(),
  };
}

/** The fields a mapping's answer carries for its holdout: none without one. */
export const holdoutAnswer = (holdout: StoredHoldout | null) =>
  holdout ? { holdout: holdout.share, goals: holdout.goals } : {};

/** The holdout as the two-arm experiment it is counted as: the holdout first, as the control. */
export const holdoutExperiment = (holdout: StoredHoldout): StoredExperiment => ({
  id: holdout.id,
  variants: [
    { key: HOLDOUT_ARM, weight: holdout.share },
    { key: AUDIENCE_ARM, weight: 100 - holdout.share },
  ],
  goals: holdout.goals,
  startedAt: holdout.startedAt,
});

/** `GET /api/mappings/{id}/audience-results`: the audience's content against the holdout, as experiments' results. */
export const holdoutResultsOf = (
  db: Db,
  userId: string,
  holdout: StoredHoldout,
  segment?: SegmentDimension,
): Promise<ExperimentResults> => experimentResultsOf(db, userId, holdoutExperiment(holdout), segment);
