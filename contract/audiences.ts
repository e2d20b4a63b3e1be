/**
 * @module Audiences (docs/audiences.md): who a mapping is for, checked here (the Worker validates with these
 * schemas, the SPA's forms use the same), and the pure rules that pick the mapping a visitor gets.
 */
import { z } from "zod";
import { formatNumber } from "./input-caps";
import { CONTINENTS, DEVICES, HOLDOUT_MAX, VISITOR_KINDS, type Device, type VisitorKind } from "./audience-values";
import { REFERRER_TYPES, type ReferrerType } from "./referrers";

export * from "./audience-values";

export const AUDIENCE_NAME_MAX_LENGTH = 100;
export const AUDIENCE_COUNTRIES_MAX = 50;
export const AUDIENCE_VALUES_MAX = 20;
export const AUDIENCE_VALUE_MAX_LENGTH = 100;
export const AUDIENCE_LANGUAGES_MAX = 20;
export const LANGUAGE_TAG_MAX_LENGTH = 35;
export const AUDIENCE_QUERY_PARAMS_MAX = 20;
export const QUERY_PARAM_MAX_LENGTH = 100;
export const QUERY_VALUE_MAX_LENGTH = 200;
export const PRIORITY_MAX = 1_000;
/** Published audience mappings one URL rule may have, besides its fallback (docs/decisions.md, Issue 41). */
export const AUDIENCE_MAPPINGS_PER_URL_MAX = 20;
export const AUDIENCE_MAPPINGS_FULL = `This URL already has ${AUDIENCE_MAPPINGS_PER_URL_MAX} published or scheduled audience mappings; unpublish one first`;
/**
 * What one URL's published or scheduled audience mappings may store together (measured as the content budget
 * measures a mapping), so that its delivery entry stays far within KV's value and the isolate's memo.
 */
export const AUDIENCE_MAPPINGS_MAX_BYTES = 4 * 1024 * 1024;
export const AUDIENCE_MAPPINGS_TOO_LARGE = `This URL's published or scheduled audience mappings would store more than 4 MB together (${formatNumber(AUDIENCE_MAPPINGS_MAX_BYTES)} bytes); make their content smaller or unpublish one first`;

/** The text form's header naming the audience whose mapping answered (`GET /api/content`), and the edge page's. */
export const AUDIENCE_HEADER = "X-Audience";

/**
 * The audience's name as AUDIENCE_HEADER carries it: a header holds printable ASCII only, so any other character
 * (and `%`) is percent-encoded; `decodeURIComponent` gives the name back.
 */
export const audienceHeaderValue = (name: string) =>
  name.replace(/[^\x20-\x24\x26-\x7E]/gu, (c) => encodeURIComponent(c));

/** A visitor is new for this long after their id was made (docs/audiences.md). */
export const NEW_VISITOR_MS = 30 * 60 * 1000;
/** The edge's cookie, set for NEW_VISITOR_MS with a fresh id: its visitor is new while it is there. */
export const NEW_VISITOR_COOKIE = "dc_new";
/** An id that says when it was made: the time in milliseconds (decimal: fewest bytes in the snippet), `_`, random. */
const DATED_ID = /^(\d{1,15})_/;

/** A visitor id (contract/experiments.ts VISITOR_ID) that says when it was made, as the snippet and the edge make them. */
export const datedVisitorId = (now: number, random: string) => `${now}_${random}`;

/**
 * New while the id was made less than NEW_VISITOR_MS ago, or when there is none; an id without its time (made
 * before ids carried it) is returning. The time is the browser's clock: one more than 30 minutes off makes its
 * new visitors returning.
 */
export function visitorKindOf(vid: string | undefined, now: number): VisitorKind {
  if (vid === undefined) return "new";
  const made = DATED_ID.exec(vid);
  return made && Math.abs(now - Number(made[1])) < NEW_VISITOR_MS ? "new" : "returning";
}

/** The 27 member states of the European Union, by ISO 3166-1 alpha-2 code. */
export const EU_COUNTRIES: ReadonlySet<string> = new Set(
  "AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE".split(" "),
);

export const AUDIENCE_NEEDS_A_CONDITION =
  "audience: name at least one condition (country, continent, eu, device, referrer, utm, visitor, language or query)";

/** A list of at most `max` distinct entries of `item`, its messages naming `field`. */
const list = <T extends z.ZodType>(field: string, item: T, max: number) =>
  z
    .array(item, { error: `${field} must be a list` })
    .min(1, `${field} must name at least one value`)
    .max(max, `${field} may name at most ${formatNumber(max)} values`);

const oneOf = <T extends readonly [string, ...string[]]>(field: string, values: T) =>
  z.enum(values, { error: `${field} must be one of ${values.join(", ")}` });

const textValue = (field: string, max: number) =>
  z
    .string({ error: `${field} must be text` })
    .trim()
    .min(1, `${field} must not be empty`)
    .max(max, `${field} must be at most ${formatNumber(max)} characters`);

const countryCodeOf = (field: string) =>
  z
    .string({ error: `${field} must be text` })
    .trim()
    .regex(/^[A-Za-z]{2}$/, `${field} must hold two-letter country codes (ISO 3166-1 alpha-2)`)
    .transform((code) => code.toUpperCase());

const languageTagOf = (field: string) =>
  textValue(field, LANGUAGE_TAG_MAX_LENGTH).regex(
    /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/,
    `${field} must hold language tags such as de or pt-BR`,
  );

const countryCode = countryCodeOf("audience.country");
const languageTag = languageTagOf("audience.language");

const utmValues = (part: string) =>
  list(`audience.utm.${part}`, textValue(`audience.utm.${part}`, AUDIENCE_VALUE_MAX_LENGTH), AUDIENCE_VALUES_MAX);

const queryValues = z
  .array(textValue("audience.query's values", QUERY_VALUE_MAX_LENGTH), {
    error: "audience.query's values must be a list",
  })
  .max(
    AUDIENCE_VALUES_MAX,
    `audience.query may name at most ${formatNumber(AUDIENCE_VALUES_MAX)} values per parameter`,
  );

const querySchema = z
  .record(textValue("audience.query's parameter names", QUERY_PARAM_MAX_LENGTH), queryValues, {
    error: "audience.query must map parameter names to lists of values",
  })
  .refine(
    (query) => Object.keys(query).length <= AUDIENCE_QUERY_PARAMS_MAX,
    `audience.query may name at most ${formatNumber(AUDIENCE_QUERY_PARAMS_MAX)} parameters`,
  );

const CONDITIONS = ["country", "continent", "eu", "device", "referrer", "utm", "visitor", "language", "query"] as const;

export const audienceSchema = z
  .strictObject(
    {
      name: textValue("audience.name", AUDIENCE_NAME_MAX_LENGTH),
      country: list("audience.country", countryCode, AUDIENCE_COUNTRIES_MAX).optional(),
      continent: list("audience.continent", oneOf("audience.continent", CONTINENTS), CONTINENTS.length).optional(),
      eu: z.boolean({ error: "audience.eu must be true or false" }).optional(),
      device: list("audience.device", oneOf("audience.device", DEVICES), DEVICES.length).optional(),
      referrer: list("audience.referrer", oneOf("audience.referrer", REFERRER_TYPES), REFERRER_TYPES.length).optional(),
      utm: z
        .strictObject(
          {
            source: utmValues("source").optional(),
            medium: utmValues("medium").optional(),
            campaign: utmValues("campaign").optional(),
          },
          {
            error: (issue) =>
              issue.code === "unrecognized_keys"
                ? "audience.utm may hold source, medium and campaign only"
                : "audience.utm must be an object of source, medium and campaign",
          },
        )
        .optional(),
      visitor: oneOf("audience.visitor", VISITOR_KINDS).optional(),
      language: list("audience.language", languageTag, AUDIENCE_LANGUAGES_MAX).optional(),
      query: querySchema.optional(),
    },
    {
      error: (issue) =>
        issue.code === "unrecognized_keys"
          ? `audience may hold name, ${CONDITIONS.join(", ")} only`
          : "audience must be an object with a name and conditions",
    },
  )
  .refine(
    (audience) =>
      CONDITIONS.some((c) => audience[c] !== undefined) &&
      !(audience.utm && Object.values(audience.utm).every((v) => v === undefined)),
    AUDIENCE_NEEDS_A_CONDITION,
  );

export const prioritySchema = z
  .number({ error: "priority must be a number" })
  .int("priority must be a whole number")
  .min(0, "priority must be at least 0")
  .max(PRIORITY_MAX, `priority must be at most ${formatNumber(PRIORITY_MAX)}`);

export const holdoutSchema = z
  .number({ error: "holdout must be a number" })
  .int("holdout must be a whole number (percent)")
  .min(0, "holdout must be at least 0")
  .max(HOLDOUT_MAX, `holdout must be at most ${HOLDOUT_MAX} (percent)`);

/**
 * `POST`/`PATCH /api/mappings`: `audience: null` makes the mapping its URL's fallback again; `holdout` (percent)
 * shows that share of the audience the fallback instead, to measure the audience's content against it.
 */
export const audienceFields = {
  audience: audienceSchema.nullable().optional(),
  priority: prioritySchema.optional(),
  holdout: holdoutSchema.optional(),
};

/** The two arms of a holdout's comparison, as its exposures and results name them; the holdout is the control. */
export const HOLDOUT_ARM = "holdout";
export const AUDIENCE_ARM = "audience";

/**
 * A mapping's holdout as stored (its `holdout` column, and so its versions): `id` names this run, whose visitors are
 * assigned and counted like an experiment's; `share` the percent held out; `goals` what it measures.
 */
export interface StoredHoldout {
  id: string;
  share: number;
  goals: string[];
  /** Epoch ms. */
  startedAt: number;
}

export type Audience = z.infer<typeof audienceSchema>;

/** What the Worker knows of a visitor as it answers (docs/audiences.md, "What a visitor's attributes are read from"). */
export interface AudienceAttributes {
  /** ISO alpha-2, upper case; absent when unknown. */
  country?: string;
  continent?: string;
  device: Device;
  referrer: ReferrerType;
  /** The page URL's parameters (UTM ones included), before tracking parameters are dropped. */
  query: URLSearchParams;
  visitor: VisitorKind;
  /** The most preferred language tag, lower case; absent when none was sent. */
  language?: string;
}

/**
 * The URL tester's visitor (`GET /api/mappings/match`, docs/audiences.md): each attribute optional; the page URL
 * gives the UTM and query parameters.
 */
export const testedVisitorFields = {
  country: countryCodeOf("country").optional(),
  continent: oneOf("continent", CONTINENTS).optional(),
  device: oneOf("device", DEVICES).optional(),
  referrer: oneOf("referrer", REFERRER_TYPES).optional(),
  visitor: oneOf("visitor", VISITOR_KINDS).optional(),
  language: languageTagOf("language")
    .transform((tag) => tag.toLowerCase())
    .optional(),
};

export type TestedVisitor = { [K in keyof typeof testedVisitorFields]?: z.output<(typeof testedVisitorFields)[K]> };

/** A tested visitor's attributes: what is left out is a new visitor on a desktop, arriving directly. */
export function testedAttributes(pageUrl: string, given: TestedVisitor): AudienceAttributes {
  const { device = "desktop", referrer = "direct", visitor = "new", ...known } = given;
  return { ...known, device, referrer, visitor, query: new URL(pageUrl).searchParams };
}

const anyIgnoringCase = (values: string[], actual: string | null | undefined) =>
  actual != null && values.some((v) => v.toLowerCase() === actual.toLowerCase());

const languageMatches = (tags: string[], actual: string | undefined) =>
  actual !== undefined &&
  tags.some((tag) => {
    const t = tag.toLowerCase();
    return actual === t || actual.startsWith(`${t}-`);
  });

function queryMatches(wanted: Record<string, string[]>, query: URLSearchParams) {
  return Object.entries(wanted).every(([param, values]) => {
    if (values.length === 0) return query.has(param);
    const actual = query.getAll(param);
    return actual.some((a) => anyIgnoringCase(values, a));
  });
}

/** Whether a visitor belongs to the audience: every condition given holds; within a list one value is enough. */
export function matchesAudience(audience: Audience, visitor: AudienceAttributes): boolean {
  const { utm } = audience;
  return (
    (audience.country === undefined || anyIgnoringCase(audience.country, visitor.country)) &&
    (audience.continent === undefined || anyIgnoringCase(audience.continent, visitor.continent)) &&
    (audience.eu === undefined ||
      audience.eu === (visitor.country !== undefined && EU_COUNTRIES.has(visitor.country.toUpperCase()))) &&
    (audience.device === undefined || audience.device.includes(visitor.device)) &&
    (audience.referrer === undefined || audience.referrer.includes(visitor.referrer)) &&
    (utm?.source === undefined || anyIgnoringCase(utm.source, visitor.query.get("utm_source"))) &&
    (utm?.medium === undefined || anyIgnoringCase(utm.medium, visitor.query.get("utm_medium"))) &&
    (utm?.campaign === undefined || anyIgnoringCase(utm.campaign, visitor.query.get("utm_campaign"))) &&
    (audience.visitor === undefined || audience.visitor === visitor.visitor) &&
    (audience.language === undefined || languageMatches(audience.language, visitor.language)) &&
    (audience.query === undefined || queryMatches(audience.query, visitor.query))
  );
}

/**
 * The mapping a visitor gets among a URL rule's mappings in the order they are tried (the audience ones by
 * priority, then oldest first, and the fallback last: models/delivered-mappings.ts reads them so): the first whose
 * audience they belong to, else the fallback, else none.
 */
export function chooseMapping<T extends { audience: Audience | null }>(
  ordered: readonly T[],
  visitor: AudienceAttributes,
): T | undefined {
  return ordered.find((m) => m.audience === null || matchesAudience(m.audience, visitor));
}
