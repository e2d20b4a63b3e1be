/**
 * @module A mapping's publication (docs/publishing.md): published at once (SPEC.md's default), saved as a draft,
 * or scheduled to publish and to unpublish at given times. The times are ISO 8601 with a time zone (the
 * dashboard sends the customer's own); the Worker's minute cron carries them out (worker/delivery/schedule.ts).
 */
import { z } from "zod";

export const MAPPING_STATUSES = ["draft", "published"] as const;
export type MappingStatus = (typeof MAPPING_STATUSES)[number];

/** How far ahead a schedule may reach: two years. */
export const SCHEDULE_MAX_AHEAD_MS = 2 * 366 * 24 * 60 * 60 * 1000;

export const SCHEDULE_TIME_INVALID =
  "must be an ISO 8601 date and time with a time zone, such as 2026-12-01T09:00:00+01:00";
export const UNPUBLISH_NOT_AFTER_PUBLISH = "Unpublish at must be after publish at";
export const UNPUBLISH_IN_PAST = "Unpublish at must be in the future";
export const PUBLISHED_BUT_SCHEDULED =
  'A mapping that publishes later stays a draft until then: leave out status or send "draft"';
export const SCHEDULE_TOO_FAR = "A schedule can reach at most two years ahead";

/** A time to publish or unpublish at, or null to clear it. */
const scheduleTime = (field: string) =>
  z
    .union([z.iso.datetime({ offset: true, error: `${field} ${SCHEDULE_TIME_INVALID}` }), z.null()], {
      error: `${field} ${SCHEDULE_TIME_INVALID}`,
    })
    .transform((value) => (value === null ? null : new Date(value)))
    .optional();

export const publicationFields = {
  status: z.enum(MAPPING_STATUSES, { error: 'Status must be "draft" or "published"' }).optional(),
  publishAt: scheduleTime("Publish at"),
  unpublishAt: scheduleTime("Unpublish at"),
};

export interface PublicationInput {
  status?: MappingStatus;
  publishAt?: Date | null;
  unpublishAt?: Date | null;
}

/** What a mapping's publication columns become. */
export interface Publication {
  publishedAt: Date | null;
  publishAt: Date | null;
  unpublishAt: Date | null;
}

/**
 * The publication the customer asked for, from what the mapping has now (`current`; a new mapping: published at
 * once, as SPEC.md says); or the problem with it. A status given without a time ends a pending publish time (and
 * a draft's end time too); a publish time that has come publishes at once.
 */
export function resolvePublication(input: PublicationInput, current: Publication, now: Date): Publication | string {
  const publishAt = input.publishAt !== undefined ? input.publishAt : input.status ? null : current.publishAt;
  const unpublishAt =
    input.unpublishAt !== undefined ? input.unpublishAt : input.status === "draft" ? null : current.unpublishAt;
  for (const at of [publishAt, unpublishAt]) {
    if (at && at.getTime() - now.getTime() > SCHEDULE_MAX_AHEAD_MS) return SCHEDULE_TOO_FAR;
  }
  const publishesLater = publishAt !== null && publishAt > now;
  if (publishesLater && input.status === "published") return PUBLISHED_BUT_SCHEDULED;
  if (input.unpublishAt && input.unpublishAt <= now) return UNPUBLISH_IN_PAST;
  if (unpublishAt && publishAt && unpublishAt <= publishAt) return UNPUBLISH_NOT_AFTER_PUBLISH;

  let publishedAt = current.publishedAt;
  if (input.status === "draft" || publishesLater) publishedAt = null;
  // A publish time that has come (given now, or due and not yet carried out by the cron) publishes.
  else if (input.status === "published" || publishAt) publishedAt = current.publishedAt ?? now;
  return { publishedAt, publishAt: publishesLater ? publishAt : null, unpublishAt };
}
