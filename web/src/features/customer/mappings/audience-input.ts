/**
 * @module The audience editor's state (docs/audiences.md) and the body fields it makes: `audience`, `priority` and
 * `holdout` with its `goals` on add, and on edit only what changed (`audience: null` makes the mapping its URL's
 * fallback again). The contract's schema checks the body and names the field of each message; `holdoutErrors` checks
 * beforehand what the API would refuse of a holdout, with the API's message.
 */
import type { Audience } from "#contract/audiences";
import {
  DEFAULT_PRIORITY,
  HOLDOUT_GOALS_NEEDED,
  HOLDOUT_WITH_EXPERIMENT,
  type Continent,
  type Device,
  type VisitorKind,
} from "#contract/audience-values";
import type { ReferrerType } from "#contract/referrers";
import type { Mapping } from "#contract/responses";

export interface AudienceInput {
  name: string;
  country: string[];
  continent: Continent[];
  /** "": either; "in" or "out" of the European Union. */
  eu: "" | "in" | "out";
  device: Device[];
  referrer: ReferrerType[];
  /** "": either. */
  visitor: "" | VisitorKind;
  language: string[];
  utmSource: string[];
  utmMedium: string[];
  utmCampaign: string[];
  /** `param=value` tags, or `param` alone for "present, with any value". */
  query: string[];
  priority: string;
  /** The share held out, in percent as typed: "" or "0" holds out nobody. */
  holdout: string;
  /** The goals the holdout measures (the mapping's `goals` when it has a holdout). */
  goals: string[];
}

export const NO_AUDIENCE: AudienceInput = {
  name: "",
  country: [],
  continent: [],
  eu: "",
  device: [],
  referrer: [],
  visitor: "",
  language: [],
  utmSource: [],
  utmMedium: [],
  utmCampaign: [],
  query: [],
  priority: String(DEFAULT_PRIORITY),
  holdout: "",
  goals: [],
};

/** Whether the customer set anything of an audience (the priority or a holdout alone is not an audience). */
export function hasAudience({ priority: _p, holdout: _h, goals: _g, ...input }: AudienceInput): boolean {
  return Object.values(input).some((value) => value.length > 0);
}

const listed = <K extends string, V>(key: K, values: V[]) => (values.length > 0 ? { [key]: values } : {});

/** The `query` tags as the schema's record: `plan=pro` and `plan=team` make `{plan: ["pro", "team"]}`. */
function queryOf(tags: string[]): Record<string, string[]> {
  const query: Record<string, string[]> = {};
  for (const tag of tags) {
    const at = tag.indexOf("=");
    const param = at < 0 ? tag : tag.slice(0, at);
    query[param] ??= [];
    if (at >= 0) query[param].push(tag.slice(at + 1));
  }
  return query;
}

/** The audience the input describes, in the body's shape (for the schema to check), or null when none is set. */
function audienceOfInput(input: AudienceInput): Audience | null {
  if (!hasAudience(input)) return null;
  const utm = {
    ...listed("source", input.utmSource),
    ...listed("medium", input.utmMedium),
    ...listed("campaign", input.utmCampaign),
  };
  return {
    name: input.name,
    ...listed("country", input.country),
    ...listed("continent", input.continent),
    ...(input.eu === "" ? {} : { eu: input.eu === "in" }),
    ...listed("device", input.device),
    ...listed("referrer", input.referrer),
    ...(Object.keys(utm).length > 0 ? { utm } : {}),
    ...(input.visitor === "" ? {} : { visitor: input.visitor }),
    ...listed("language", input.language),
    ...(input.query.length > 0 ? { query: queryOf(input.query) } : {}),
  };
}

/** A typed number as a number, or as typed when it is none (for the schema's message). */
function numberOf(text: string): number | string {
  const typed = text.trim();
  return typed !== "" && Number.isFinite(Number(typed)) ? Number(typed) : typed;
}

const priorityOf = (input: AudienceInput) => numberOf(input.priority);

/** The typed holdout, "" and "0" alike being none (0). */
const holdoutOf = (input: AudienceInput) => (input.holdout.trim() === "" ? 0 : numberOf(input.holdout));

/** Whether the input holds out a share: with an audience, and a holdout typed other than 0. */
const holdsOut = (input: AudienceInput) => hasAudience(input) && holdoutOf(input) !== 0;

/** `holdout` and its `goals`, for a body that sets a holdout. */
const holdoutFields = (input: AudienceInput) =>
  ({ holdout: holdoutOf(input), goals: input.goals }) as { holdout: number; goals: string[] };

/**
 * The API's message for a holdout it would refuse (docs/audiences.md, "Holdout"), by the field to show it under,
 * before anything is sent: one beside an experiment (`experimentRunning`: the form's experiment after the change),
 * or one without goals. `{}` when there is none.
 */
export function holdoutErrors(input: AudienceInput, experimentRunning: boolean): Partial<Record<string, string>> {
  if (!holdsOut(input)) return {};
  if (experimentRunning) return { holdout: HOLDOUT_WITH_EXPERIMENT };
  if (input.goals.length === 0) return { goals: HOLDOUT_GOALS_NEEDED };
  return {};
}

/**
 * `POST /api/mappings`'s `audience` and `priority`, only when an audience is set: a form left alone sends SPEC.md's
 * body. Typed as the body is, the schema then checks what was typed.
 */
export function audienceBody(input: AudienceInput): {
  audience?: Audience;
  priority?: number;
  holdout?: number;
  goals?: string[];
} {
  const audience = audienceOfInput(input);
  if (!audience) return {};
  return {
    ...({ audience, priority: priorityOf(input) } as { audience: Audience; priority: number }),
    ...(holdsOut(input) ? holdoutFields(input) : {}),
  };
}

/** A stored mapping's audience and priority as the editor shows them. */
export function audienceOf(mapping: Mapping): AudienceInput {
  const { audience, priority = DEFAULT_PRIORITY, holdout } = mapping;
  if (!audience) return NO_AUDIENCE;
  return {
    name: audience.name,
    country: audience.country ?? [],
    continent: audience.continent ?? [],
    eu: audience.eu === undefined ? "" : audience.eu ? "in" : "out",
    device: audience.device ?? [],
    referrer: audience.referrer ?? [],
    visitor: audience.visitor ?? "",
    language: audience.language ?? [],
    utmSource: audience.utm?.source ?? [],
    utmMedium: audience.utm?.medium ?? [],
    utmCampaign: audience.utm?.campaign ?? [],
    query: Object.entries(audience.query ?? {}).flatMap(([param, values]) =>
      values.length === 0 ? [param] : values.map((value) => `${param}=${value}`),
    ),
    priority: String(priority),
    holdout: holdout ? String(holdout) : "",
    goals: holdout ? (mapping.goals ?? []) : [],
  };
}

/**
 * `PATCH /api/mappings/{id}`'s `audience` and `priority` for what the customer changed (`before` is `audienceOf` the
 * mapping): the whole audience when any of it changed, `null` when it was emptied; the priority when it changed
 * or the mapping gets its first audience; the holdout when its share changed (0 ends it), and its goals when they
 * changed while it holds out. An emptied audience ends the holdout with it, so sends neither.
 */
export function audienceChange(
  before: AudienceInput,
  after: AudienceInput,
): { audience?: Audience | null; priority?: number; holdout?: number; goals?: string[] } {
  const audience = audienceOfInput(after);
  const audienceChanged = JSON.stringify(audienceOfInput(before)) !== JSON.stringify(audience);
  // A mapping given its first audience sends its priority too: the one it may keep from an earlier audience is not shown.
  const priorityChanged =
    audience !== null && (!hasAudience(before) || before.priority.trim() !== after.priority.trim());
  const shareBefore = holdsOut(before) ? holdoutOf(before) : 0;
  const shareAfter = holdsOut(after) ? holdoutOf(after) : 0;
  const holdoutChanged = audience !== null && shareBefore !== shareAfter;
  const goalsChanged = shareAfter !== 0 && JSON.stringify(before.goals) !== JSON.stringify(after.goals);
  return {
    ...(audienceChanged ? { audience } : {}),
    ...(priorityChanged ? ({ priority: priorityOf(after) } as { priority: number }) : {}),
    ...(holdoutChanged ? ({ holdout: shareAfter } as { holdout: number }) : {}),
    ...(goalsChanged ? { goals: after.goals } : {}),
  };
}
