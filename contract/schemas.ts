/**
 * @module Request bodies and queries, with SPEC.md §5's messages. The Worker validates with these and the
 * SPA's forms use the same ones, so both sides say the same thing.
 */
import { z } from "zod";
import {
  DATE_MAX_LENGTH,
  DESCRIPTION_MAX_LENGTH,
  EMAIL_MAX_LENGTH,
  formatNumber,
  HOST_MAX_LENGTH,
  HTML_CONTENT_MAX_BYTES,
  HTML_CONTENT_TOO_LARGE,
  IDENTIFIER_MAX_LENGTH,
  LOGIN_CODE_DIGITS,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  SEARCH_TERM_MAX_LENGTH,
  tooLong,
  URL_MAX_LENGTH,
  URL_NOT_HTTP,
  utf8Length,
} from "./input-caps";
import { IMPORT_FORMATS } from "./bulk";
import { audienceFields, testedVisitorFields } from "./audiences";
import { experimentFields } from "./experiments";
import { normalizeUrl } from "./normalize-url";
import { placementSchema, SELECTOR_GRAMMAR, SELECTOR_MAX_LENGTH, SELECTOR_UNSUPPORTED } from "./placement";
import { publicationFields } from "./publication";
import { seoSchema } from "./seo";
import { IGNORED_PARAMETERS_MAX, isPrefixUrl, MATCH_KINDS, matchProblem } from "./url-rules";

/** A trimmed string of at most `max` characters; past it, the message names the field and the cap. */
const text = (field: string, max: number) => z.string().trim().max(max, tooLong(field, max));

const email = (invalidMessage: string, field = "Email") => text(field, EMAIL_MAX_LENGTH).email(invalidMessage);

export const emailSchema = email("Please enter a valid email address");

/** The registration page a sign-up came from: its mailed link leads back to it (absent: page A). */
const registrationPage = z.enum(["register", "register-form"], { error: "Unknown registration page" });

export const registerBody = z.object({ email: emailSchema, page: registrationPage.optional() });

export type RegistrationPage = z.infer<typeof registrationPage>;
export type RegisterBody = z.infer<typeof registerBody>;

export const loginRequestBody = z.object({ email: emailSchema });

export const loginVerifyBody = z.object({
  code: z
    .string()
    .length(LOGIN_CODE_DIGITS, `Code must be exactly ${LOGIN_CODE_DIGITS} digits`)
    .regex(/^\d+$/, "Code must contain only numbers"),
});

const password = z.string().max(PASSWORD_MAX_LENGTH, tooLong("Password", PASSWORD_MAX_LENGTH));

export const adminLoginBody = z.object({
  email: z
    .string()
    .min(1, "Required")
    .max(EMAIL_MAX_LENGTH, tooLong("Email", EMAIL_MAX_LENGTH))
    .email("Please enter a valid email address"),
  password: password.min(1, "Required"),
});

export const passwordSchema = password.min(8, "Password must be at least 8 characters");

/** A page's URL: http(s), at most 2,048 characters. */
const pageUrl = text("URL", URL_MAX_LENGTH)
  .url("Please enter a valid URL")
  .refine((url) => /^https?:\/\//i.test(url), URL_NOT_HTTP);

/** `GET /api/mappings/match?url=`: the page to test, and the visitor's attributes if given (docs/audiences.md). */
export const mappingMatchQuery = z.object({ url: pageUrl, ...testedVisitorFields });

export type MappingMatchQuery = z.infer<typeof mappingMatchQuery>;

/** `POST /api/install-check`: the customer's page to check for the snippet (docs/getting-started.md). */
export const installCheckBody = z.object({ url: pageUrl });
export type InstallCheckBody = z.infer<typeof installCheckBody>;

/** `POST /api/pick-on-page`: the page to pick a placement on (docs/placement.md, "Pick on page"). */
export const pickOnPageBody = z.object({ url: pageUrl });

export const PICK_CHECK_NEEDS_PREFIX = "Other pages are checked for a prefix URL only (one that ends in /*)";

/**
 * `POST /api/pick-on-page/check`: a prefix rule (docs/url-rules.md) and the selector to look for on other pages
 * under it (docs/placement.md, "Pick on page").
 */
export const pickCheckBody = z.object({
  url: pageUrl.refine(isPrefixUrl, PICK_CHECK_NEEDS_PREFIX),
  selector: text("Selector", SELECTOR_MAX_LENGTH)
    .min(1, "A selector is required")
    .refine((selector) => SELECTOR_GRAMMAR.test(selector), SELECTOR_UNSUPPORTED),
});

const htmlContent = z.string().refine((html) => utf8Length(html) <= HTML_CONTENT_MAX_BYTES, HTML_CONTENT_TOO_LARGE);

/** Absent: as the URL says (docs/url-rules.md), a URL ending in `/*` is a prefix. */
const matchKind = z.enum(MATCH_KINDS, { error: 'Match must be "exact" or "prefix"' });

/**
 * A mapping's optional extras: where its content goes and what it sets in <head> (docs/placement.md), and when it
 * is published (docs/publishing.md).
 */
const mappingExtras = {
  placement: placementSchema.optional(),
  seo: seoSchema.optional(),
  ...publicationFields,
  ...audienceFields,
};

const mappingFields = z.object({ url: pageUrl, htmlContent, match: matchKind.optional(), ...mappingExtras });

/** A URL and its match must agree (docs/url-rules.md). */
const matchAgrees = (body: { url: string; match?: z.infer<typeof matchKind> }, ctx: z.RefinementCtx) => {
  const problem = matchProblem(normalizeUrl(body.url), body.match);
  if (problem) ctx.addIssue({ code: "custom", message: problem, path: ["url"] });
};

/** A new mapping; with `variants` and `goals` it runs an experiment (docs/experiments.md). */
export const mappingBody = mappingFields.extend(experimentFields).superRefine(matchAgrees);

/** A holdout is set on the mapping itself: import has no column for it, and never drops one it was given. */
export const HOLDOUT_NOT_IMPORTED = "Holdouts cannot be imported: set holdout with PATCH /api/mappings/{id}";

/**
 * One row of a bulk import (docs/bulk.md): a new mapping's body, or with `id` a change to that mapping of the
 * customer's; without `id`, a row whose URL already has a mapping for the same audience (or none) changes the newest
 * there (docs/audiences.md).
 */
export const mappingImportRow = mappingFields
  .extend({
    id: z.coerce
      .number({ error: "id must be a number" })
      .int("id must be a whole number")
      .positive("id must be positive")
      .optional(),
  })
  .superRefine(matchAgrees)
  .superRefine((row, ctx) => {
    if (row.holdout !== undefined) ctx.addIssue({ code: "custom", message: HOLDOUT_NOT_IMPORTED, path: ["holdout"] });
  });

export type MappingImportRow = z.infer<typeof mappingImportRow>;

/**
 * `PATCH /api/mappings/{id}`: the fields to change, at least one. The URL and match are checked together with the
 * mapping's own by the route (routes/mappings.ts). `seo` replaces all the SEO fields (`{}` clears them).
 */
export const mappingChangeBody = z
  .object({
    url: pageUrl.optional(),
    htmlContent: htmlContent.optional(),
    match: matchKind.optional(),
    ...mappingExtras,
    ...experimentFields,
  })
  .refine(
    (body) => Object.values(body).some((value) => value !== undefined),
    "Nothing to change: send url, htmlContent, match, placement, seo, status, publishAt or unpublishAt",
  );

export type MappingChangeBody = z.infer<typeof mappingChangeBody>;

/** `POST /api/mappings/import?dryRun=1`: only check the file (docs/bulk.md). */
export const importQuery = z.object({
  dryRun: z
    .enum(["0", "1", "true", "false"], { error: "dryRun must be 1 or 0" })
    .optional()
    .transform((v) => v === "1" || v === "true"),
});

/** `GET /api/mappings/export?format=csv|json` (CSV unless asked). */
export const exportQuery = z.object({
  format: z.enum(IMPORT_FORMATS, { error: 'Format must be "csv" or "json"' }).default("csv"),
});

/** `DELETE /api/mappings/{id}?scope=url`: the mapping and every other mapping of its URL. */
export const mappingDeleteQuery = z.object({
  scope: z.enum(["url"], { error: 'Scope must be "url" (every mapping of the URL) or left out' }).optional(),
});

export const mappingStatusBody = z.object({ status: z.enum(["published", "unpublished"]) });

/** A DNS name: dot-separated labels of letters, digits and hyphens; at least two labels, the last not numeric. */
const DNS_NAME = /^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*\.[a-z][a-z0-9-]{0,62}(?<!-)$/;

/**
 * A website's hostname as SPEC.md counts websites: lowercase, without a trailing dot or leading `www.`s, so that
 * `www.shop.example` and `shop.example` are one website (routing strips them alike: delivery/host-routing.ts).
 */
export const websiteParam = z.object({
  hostname: z
    .string()
    .max(HOST_MAX_LENGTH, tooLong("Hostname", HOST_MAX_LENGTH))
    .transform((host) =>
      host
        .trim()
        .toLowerCase()
        .replace(/\.$/, "")
        .replace(/^(www\.)+/, ""),
    )
    .refine((host) => DNS_NAME.test(host), "Hostname must be a domain name such as shop.example.com"),
});

/** `PUT /api/url-rules`: the customer's own tracking parameters (docs/url-rules.md). */
export const urlRulesBody = z.object({
  ignoredParameters: z
    .array(
      text("Parameter name", IDENTIFIER_MAX_LENGTH).regex(
        /^[A-Za-z0-9_.\-[\]]+\*?$/,
        "A parameter name may hold letters, digits, _ . - [ ] and end in *",
      ),
      { error: "Ignored parameters must be a list of names" },
    )
    .max(IGNORED_PARAMETERS_MAX, `At most ${IGNORED_PARAMETERS_MAX} ignored parameters`)
    .transform((names) => [...new Set(names)]),
});

export type UrlRulesBody = z.infer<typeof urlRulesBody>;

export const WEBSITE_MODES = ["snippet", "edge"] as const;

/** An http(s) origin, without a path, user or password, as scheme, host and port; `example` shows one. */
const originField = (label: string, example: string) =>
  text(label, URL_MAX_LENGTH)
    .url(`${label} must be a URL such as ${example}`)
    .refine((url) => /^https?:\/\//i.test(url), `${label} must start with http:// or https://`)
    .refine((url) => {
      // zod runs every check: one that is not a URL at all has its message from `.url()` already.
      if (!URL.canParse(url)) return true;
      const u = new URL(url);
      return !u.username && !u.password && (u.pathname === "/" || u.pathname === "") && !u.search && !u.hash;
    }, `${label} must be a scheme, host and port only, without a path, query or credentials`)
    .transform((url) => new URL(url).origin);

/**
 * Where an edge website's pages come from (its origin), how it is delivered, and where its pages' own subresources
 * are fetched from instead of its hosts (`assetOrigin`, docs/edge-delivery.md "Assets from another host"): null
 * turns that off, and leaving it out keeps what the claim has (off for a new claim).
 */
export const websiteBody = z.object({
  origin: originField("Origin", "https://origin.shop.example"),
  mode: z.enum(WEBSITE_MODES, { error: 'Mode must be "snippet" or "edge"' }),
  assetOrigin: originField("Asset origin", "https://cdn.shop.example").nullable().optional(),
});

export type WebsiteSettings = z.infer<typeof websiteBody>;

export type WebsiteMode = (typeof WEBSITE_MODES)[number];

export const smtpConfigBody = z.object({
  host: text("SMTP host", HOST_MAX_LENGTH).min(1, "SMTP host is required"),
  port: z.union([z.string(), z.number()]).transform((v, ctx) => {
    const s = String(v).trim();
    if (!/^\d+$/.test(s) || Number(s) < 1 || Number(s) > 65535) {
      ctx.addIssue({ code: "custom", message: "Port must be a number" });
      return z.NEVER;
    }
    return Number(s);
  }),
  user: text("SMTP username", EMAIL_MAX_LENGTH).min(1, "SMTP username is required"),
  password: z
    .string()
    .max(PASSWORD_MAX_LENGTH, tooLong("SMTP password", PASSWORD_MAX_LENGTH))
    .min(1, "SMTP password is required"),
  from: email("Invalid from email address", "From address"),
  /** Optional: the save also sends a test mail there (docs/decisions.md, "Issue 39: mail that fails is told"). */
  testTo: z
    .union([z.literal(""), email("Invalid test mail address", "Test mail address")])
    .optional()
    .transform((v) => v || undefined),
});

/** The furthest a list may be paged by offset: deeper pages cost a scan of every row before them. */
export const MAX_OFFSET = 1_000_000;

/** What a list answers to a client that asks for no page (neither `limit` nor `offset`): SPEC.md's whole list. */
export const UNPAGED_LIMIT = 1_000;

interface PageLimits {
  /** Rows of a page when `offset` is given without `limit`. */
  defaultLimit: number;
  /** The most rows a `limit` may ask for. */
  maxLimit: number;
}

/**
 * A list's query with its paging (docs/api.md, "Lists"): `limit` rows (at most `maxLimit`; `defaultLimit` when only
 * `offset` is given) after skipping `offset`. A client that asks for neither gets the whole list, up to
 * `UNPAGED_LIMIT` rows, as SPEC.md's clients expect: `unpaged` says so, and the answer then links the rest
 * (http/paging.ts). The answer carries the total in `X-Total-Count` either way.
 */
export function paged<T extends z.ZodRawShape>(filters: z.ZodObject<T>, { defaultLimit, maxLimit }: PageLimits) {
  return filters
    .extend({
      limit: z.coerce
        .number()
        .int("limit must be a whole number")
        .min(1, "limit must be at least 1")
        .max(maxLimit, `limit must be at most ${formatNumber(maxLimit)}`)
        .optional(),
      offset: z.coerce
        .number()
        .int("offset must be a whole number")
        .min(0, "offset must be at least 0")
        .max(MAX_OFFSET, `offset must be at most ${formatNumber(MAX_OFFSET)}`)
        .optional(),
    })
    .transform((query): z.output<z.ZodObject<T>> & PageQuery => {
      const { limit, offset, ...filtersOf } = query as { limit?: number; offset?: number };
      const unpaged = limit === undefined && offset === undefined;
      return {
        ...(filtersOf as z.output<z.ZodObject<T>>),
        limit: unpaged ? UNPAGED_LIMIT : (limit ?? defaultLimit),
        offset: offset ?? 0,
        unpaged,
        maxLimit,
      };
    });
}

/** A page of a list in the SPA's and the Worker's terms. */
export interface PageParams {
  limit: number;
  offset: number;
}

/** A list's paging as `paged` answers it. */
export interface PageQuery extends PageParams {
  unpaged: boolean;
  maxLimit: number;
}

const searchTerm = z.string().max(SEARCH_TERM_MAX_LENGTH, tooLong("Search term", SEARCH_TERM_MAX_LENGTH)).optional();
const sortDirection = z.enum(["asc", "desc"]).optional();

export const analyticsQuery = paged(
  z.object({ searchTerm, sortBy: z.enum(["url", "timestamp"]).optional(), sortDirection }),
  { defaultLimit: 100, maxLimit: 1_000 },
);

/**
 * A customer's mappings. A row can hold 256 KB of HTML, so a page holds at most 200 (50 MB at the very worst).
 * `group=url`: one row per normalised URL, the newest mapping of the group with the group's counts summed
 * (SPEC.md §2's dashboard table); the search then looks at that newest mapping.
 */
export const mappingsQuery = paged(z.object({ searchTerm, group: z.enum(["url"]).optional() }), {
  defaultLimit: 100,
  maxLimit: 200,
});

/** A mapping's versions (docs/history.md): at most 50 are kept, so one page can hold them all. */
export const versionsQuery = paged(z.object({}), { defaultLimit: 50, maxLimit: 50 });

/** `GET /api/mappings/deleted`: the customer's mappings deleted in the last 30 days. */
export const deletedMappingsQuery = paged(z.object({}), { defaultLimit: 20, maxLimit: 100 });

/** Every customer's mappings (the admin's Event-Verwaltung), or one customer's: HTML as a preview. */
export const adminMappingFilters = z.object({ searchTerm });
export const adminMappingsQuery = paged(adminMappingFilters, { defaultLimit: 100, maxLimit: 1_000 });

export const adminUsersQuery = paged(
  z.object({
    searchTerm,
    sortBy: z.enum(["createdAt", "email", "totalRequests", "requestLimit"]).optional(),
    sortDirection,
  }),
  { defaultLimit: 100, maxLimit: 1_000 },
);

export const userEmailsQuery = paged(z.object({ searchTerm }), { defaultLimit: 1_000, maxLimit: 1_000 });

/** Lists with nothing to search or sort: transactions of a user, payment history, product versions. */
export const plainListQuery = paged(z.object({}), { defaultLimit: 100, maxLimit: 1_000 });

export type MappingBody = z.infer<typeof mappingBody>;

/** `field`: an integer limit or null; SPEC.md §5: a non-numeric input becomes null on the client. */
const nullableLimit = (field: string) =>
  z
    .number({ error: `${field} must be a number or null` })
    .int(`${field} must be a whole number`)
    .min(0, `${field} must be at least 0`)
    .nullable();

export const userStatusBody = z.object({ isActive: z.boolean({ error: "isActive must be true or false" }) });

const USER_LIMITS = ["requestLimit", "uniqueUrlLimit", "dynamicContentLimit"] as const;

/**
 * `PATCH /api/admin/users/:userId/limits` (SPEC.md §5's user admin schemas): the request limit (null: unlimited)
 * and the per-user websites (`uniqueUrlLimit`) and dynamic-content limits, which replace the plan's (null: the
 * plan's, 0: unlimited). A field left out keeps its value; a field the route does not store is refused, named.
 */
export const userLimitsBody = z
  .strictObject(
    {
      requestLimit: nullableLimit("requestLimit").optional(),
      uniqueUrlLimit: nullableLimit("uniqueUrlLimit").optional(),
      dynamicContentLimit: nullableLimit("dynamicContentLimit").optional(),
    },
    {
      error: (issue) =>
        issue.code === "unrecognized_keys"
          ? `${issue.keys.join(", ")}: not a per-user limit (give ${USER_LIMITS.join(", ")})`
          : undefined,
    },
  )
  .refine((body) => Object.keys(body).length > 0, `Give at least one of ${USER_LIMITS.join(", ")}`);

/** The defined-but-unused `PATCH /api/admin/users/:userId/limit`: the same request limit. */
export const userLimitBody = z.object({ limit: nullableLimit("limit") });

export const userEmailBody = z.object({ email: emailSchema });

export const assignProductVersionBody = z.object({
  versionId: z
    .number({ error: "versionId must be a number" })
    .int("versionId must be a whole number")
    .positive("Invalid product version"),
});

export const productVersionBody = z.object({
  name: text("Name", NAME_MAX_LENGTH).min(1, "Name is required"),
  description: text("Description", DESCRIPTION_MAX_LENGTH).nullable().optional(),
  eventsLimit: nullableLimit("eventsLimit"),
  websitesLimit: nullableLimit("websitesLimit"),
  dynamicContentLimit: nullableLimit("dynamicContentLimit"),
  price: z.number().min(0, "Price must be at least 0").max(99_999_999.99, "Price is too large").nullable().optional(),
  paypalPlanId: text("PayPal plan id", IDENTIFIER_MAX_LENGTH).nullable().optional(),
  isDefault: z.boolean().optional(),
});

export type ProductVersionBody = z.input<typeof productVersionBody>;

/** PATCH: a field left out keeps its stored value (SPEC.md §7: earlier clients omit price and paypalPlanId). */
export const productVersionPatchBody = productVersionBody.partial();

const date = z.string().max(DATE_MAX_LENGTH, tooLong("Date", DATE_MAX_LENGTH));

const subscriptionId = text("Subscription id", IDENTIFIER_MAX_LENGTH).min(1, "Required");

export const storeSubscriptionBody = z.object({
  subscriptionId,
  status: text("Status", IDENTIFIER_MAX_LENGTH).optional(),
  updatedAt: date.optional(),
});

const isoDate = date.refine((s) => !Number.isNaN(Date.parse(s)), "Invalid date").optional();

export const transactionFilters = paged(
  z.object({
    startDate: isoDate,
    endDate: isoDate,
    status: text("Payment status", IDENTIFIER_MAX_LENGTH).optional(),
    email: text("Email", EMAIL_MAX_LENGTH).optional(),
  }),
  { defaultLimit: 100, maxLimit: 1_000 },
);

/** What an admin does to an account that is recorded (`audit_events.action`). */
export const AUDIT_ACTIONS = ["impersonate", "revoke-api-key", "release-website"] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const auditEventsQuery = paged(z.object({ action: z.enum(AUDIT_ACTIONS).optional() }), {
  defaultLimit: 50,
  maxLimit: 1_000,
});

/** `GET /api/admin/billing/unclaimed-subscriptions`: few rows (each is a payment gone astray), so small pages. */
export const unclaimedSubscriptionsQuery = paged(z.object({}), { defaultLimit: 20, maxLimit: 200 });

/** A PayPal subscription id in a path. */
export const subscriptionIdParam = z.object({ id: subscriptionId });

export const transactionEmailBody = z.object({ email: email("Invalid payer email", "Payer email") });
