/**
 * @module Which variant of a mapping's experiment a page view gets (docs/experiments.md). A visitor with an id (the
 * snippet's `vid`, the edge's first-party cookie) gets the variant their id and the experiment hash to, the same on
 * every view and through snippet and edge alike, whatever their user agent: Google's guidance on testing forbids
 * choosing content by user agent (serving Googlebot the original is its example of cloaking). The user agent only
 * keeps known crawlers out of the counts: their views record no exposure. A request without a visitor id gets the
 * control and records nothing: a visitor who cannot be recognised again cannot be counted in an experiment.
 */
import { AUDIENCE_ARM, HOLDOUT_ARM, type AudienceAttributes } from "#contract/audiences";
import { encodeSegment } from "#contract/segments";
import { assignVariant, heldOut } from "../lib/experiment-assignment";
import type { DeliveredHoldout, DeliveredMapping, DeliveredVariant } from "./store";

/** A view that saw an experiment's variant: what the analytics fold counts as the visitor's exposure. */
export interface Exposure {
  experiment: string;
  variant: string;
  vid: string;
  /** A holdout's exposure of a held-out view: the audience mapping whose holdout it is (the view served the fallback). */
  mappingId?: number;
  /** The visitor's device, referrer type and country (contract/segments.ts `encodeSegment`). */
  segment?: string;
}

/** Which arm of an audience mapping's holdout a visitor is in (docs/audiences.md, "Holdout"). */
export interface HoldoutArm {
  /** The holdout's run, counted as an experiment's. */
  experiment: string;
  variant: typeof HOLDOUT_ARM | typeof AUDIENCE_ARM;
  /** The audience mapping. */
  mappingId: number;
}

/**
 * The arm of the holdout `holdout` of mapping `mappingId` the visitor `vid` is in: a hash of the run and the id, as
 * an experiment's variant is chosen (lib/experiment-assignment.ts), `share` percent of ids in the holdout.
 */
export function holdoutArm(mappingId: number, holdout: DeliveredHoldout, vid: string): HoldoutArm {
  const variant = heldOut(vid, holdout.id, holdout.share) ? HOLDOUT_ARM : AUDIENCE_ARM;
  return { experiment: holdout.id, variant, mappingId };
}

/**
 * What a view counts for: its holdout arm when it has one (an audience mapping with a holdout never runs an
 * experiment, so a held-out visitor counts in the holdout, not in an experiment of the fallback), else the
 * experiment's exposure. A known crawler's view counts for neither.
 */
export function exposureOf(
  served: Served | undefined,
  arm: HoldoutArm | undefined,
  vid: string | undefined,
  crawler: boolean,
  attributes: () => AudienceAttributes,
): Exposure | undefined {
  const exposure = arm ? holdoutExposure(arm, vid, crawler) : served?.exposure;
  // Read only for a view that exposes someone: the segment its visitor counts under (docs/experiments.md).
  return exposure && { ...exposure, segment: encodeSegment(attributes()) };
}

function holdoutExposure({ experiment, variant, mappingId }: HoldoutArm, vid: string | undefined, crawler: boolean) {
  if (!vid || crawler) return undefined;
  return { experiment, variant, vid, ...(variant === HOLDOUT_ARM ? { mappingId } : {}) };
}

export interface Served {
  /** What to deliver: the variant's content, placement and SEO fields. */
  content: DeliveredMapping;
  /** The variant's key, when the mapping runs an experiment. */
  variant?: string;
  exposure?: Exposure;
}

const asDelivered = (mappingId: number, { html, placement, seo }: DeliveredVariant): DeliveredMapping => ({
  mappingId,
  html,
  ...(placement ? { placement } : {}),
  ...(seo ? { seo } : {}),
});

/** The variant named `key` of the mapping's experiment, for a preview; undefined when it has none such. */
export function variantByKey(match: DeliveredMapping, key: string): DeliveredMapping | undefined {
  const variant = match.experiment?.variants.find((v) => v.key === key);
  return variant ? asDelivered(match.mappingId, variant) : undefined;
}

/**
 * What `match` serves this visitor (`vid` already checked against VISITOR_ID, or undefined); `crawler` (a known
 * crawler's user agent) decides only whether the view is counted, never what it shows.
 */
export function servedTo(match: DeliveredMapping, vid: string | undefined, crawler: boolean): Served {
  const experiment = match.experiment;
  if (!experiment) return { content: match };
  if (!vid) {
    return { content: asDelivered(match.mappingId, experiment.variants[0]!), variant: experiment.variants[0]!.key };
  }
  const variant =
    experiment.variants[
      assignVariant(
        vid,
        experiment.id,
        experiment.variants.map((v) => v.weight),
      )
    ]!;
  return {
    content: asDelivered(match.mappingId, variant),
    variant: variant.key,
    ...(crawler ? {} : { exposure: { experiment: experiment.id, variant: variant.key, vid } }),
  };
}
