/** @module A customer's URL mappings. Every change writes the delivery entry of its URL (write-through). */
import { Hono, type Context, type Next } from "hono";
import { z } from "zod";
import type { GroupDeleteResponse, Mapping, MappingMatch, MessageResponse, PreviewLink } from "#contract/responses";
import { normalizeUrl } from "#contract/normalize-url";
import {
  deletedMappingsQuery,
  exportQuery,
  importQuery,
  mappingBody,
  mappingChangeBody,
  mappingDeleteQuery,
  mappingMatchQuery,
  mappingsQuery,
  mappingStatusBody,
  versionsQuery,
  type MappingChangeBody,
} from "#contract/schemas";
import type { MappingVersion } from "#contract/versions";
import { resolvePublication, type Publication } from "#contract/publication";
import { matchProblem } from "#contract/url-rules";
import { throttle } from "../auth/throttle";
import { requireUser } from "../auth/middleware";
import { exportStream } from "../bulk/export-mappings";
import { importFormat, readImport } from "../bulk/import-file";
import { importMappings } from "../bulk/import-mappings";
import { IMPORT_BODY_MAX_BYTES, type ImportReport } from "#contract/bulk";
import { currentBilling } from "../billing/current-billing";
import { previewLink } from "../delivery/preview";
import { revokePreviewKey } from "../models/preview-keys";
import { syncUrlsSoon } from "../delivery/repairs";
import { syncUrl, syncUrls } from "../delivery/sync";
import type { AppEnv } from "../env";
import { sendWebhooksAfterChange } from "../webhooks/after-change";
import { reportDelivery } from "../delivery/delivery-status";
import { bodyCap, MAPPING_BODY_MAX_BYTES } from "../http/body-limit";
import { ApiError, notFound } from "../http/errors";
import { pageResponse, streamedPageResponse } from "../http/paging";
import { validate } from "../http/validate";
import { assertCanAddMapping } from "../models/limits";
import { assertContentFits, contentGrowth, mappingContentBytes, rowBytes } from "../models/content-budget";
import { experimentResultsOf } from "../models/experiments";
import { experimentAndHoldoutChange, holdoutResultsOf } from "../models/holdouts";
import {
  experimentResultsQuery,
  previewBody,
  promoteBody,
  type ExperimentResults,
  type StoredExperiment,
} from "#contract/experiments";
import { explainMatch } from "../models/mapping-match";
import { assertAudienceRoom } from "../models/audience-mappings";
import { getDeletedMapping, listDeletedMappings, restoreDeletedMapping } from "../models/deleted-mappings";
import { getVersion, listVersions } from "../models/mapping-versions";
import { placementHealthOf } from "../models/placement-health";
import type { PlacementHealth } from "#contract/placement";
import {
  changeMapping,
  createMapping,
  deleteMapping,
  deleteUrlGroup,
  getMapping,
  getOwnMapping,
  listMappings,
  publishedNow,
  setMappingPublished,
  storedExtras,
} from "../models/mappings";
import { heldFor } from "../analytics/settled-counts";

const idParam = z.object({ id: z.coerce.number().int().positive("Invalid mapping id") });
const versionParam = idParam.extend({ version: z.coerce.number().int().positive("Invalid version") });
const MAPPING_NOT_FOUND = "Mapping not found";
/** Mappings read at a time for a client that asks for the whole list (the largest page a client may ask for). */
const UNPAGED_MAPPINGS_CHUNK = 200;
const DELETED_NOT_FOUND = "No deleted mapping with this id from the last 30 days";

export const mappingRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .use(sendWebhooksAfterChange)
  .use(throttleChanges)
  // Only the list and the export show counts the reducers may hold: both add them (analytics/settled-counts.ts).
  .get("/", validate("query", mappingsQuery), async (c) => {
    const db = c.var.db;
    const query = c.req.valid("query");
    const held = await heldFor(c, c.var.user.id);
    if (!query.unpaged) return pageResponse(c, await listMappings(db, c.var.user.id, query, held), query);
    // SPEC.md's whole list, up to 1,000 mappings of up to 256 KB each: streamed a page at a time.
    return streamedPageResponse(c, query, UNPAGED_MAPPINGS_CHUNK, (page) =>
      listMappings(db, c.var.user.id, { ...query, ...page }, held),
    );
  })
  .get("/export", validate("query", exportQuery), async (c) => {
    const { format } = c.req.valid("query");
    const day = new Date().toISOString().slice(0, 10);
    const held = await heldFor(c, c.var.user.id);
    return new Response(exportStream(c.var.db, c.var.user.id, format, held), {
      headers: {
        "Content-Type": format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
        "Content-Disposition": `attachment; filename="mappings-${day}.${format}"`,
        "Cache-Control": "no-store",
      },
    });
  })
  .post("/import", bodyCap(IMPORT_BODY_MAX_BYTES), currentBilling, validate("query", importQuery), async (c) => {
    // Up to 10,000 rows checked (and written) per request: a bound on the CPU and D1 one account can spend.
    await throttle(c, "mapping-import", c.var.user.id);
    const records = readImport(importFormat(c.req.header("Content-Type")), await c.req.text());
    const { dryRun } = c.req.valid("query");
    const { report, changedUrls } = await importMappings(c.var.db, c.var.user, records, { dryRun });
    if (report.applied) reportDelivery(c, await syncUrlsSoon(c.env, c.var.user.id, changedUrls));
    return c.json<ImportReport>(report, report.refused > 0 && !dryRun ? 422 : 200);
  })
  .get("/match", validate("query", mappingMatchQuery), async (c) => {
    const { url, ...visitor } = c.req.valid("query");
    return c.json<MappingMatch>(await explainMatch(c.var.db, c.var.user, url, visitor));
  })
  .post("/", bodyCap(MAPPING_BODY_MAX_BYTES), currentBilling, validate("json", mappingBody), async (c) => {
    const { url, htmlContent, placement, seo, variants, goals, audience, priority, holdout, ...publicationInput } =
      c.req.valid("json");
    const now = new Date();
    const publication = resolvePublication(publicationInput, publishedNow(now), now);
    if (typeof publication === "string") throw new ApiError(400, publication);
    const { experiment, holdout: storedHoldout } = experimentAndHoldoutChange(
      { variants, goals, holdout },
      { experiment: null, holdout: null },
      Boolean(audience),
      htmlContent,
      now,
    );
    const db = c.var.db;
    const normalizedUrl = normalizeUrl(url, c.var.user.ignoredParameters);
    await assertCanAddMapping(db, c.var.user, normalizedUrl);
    const extras = { placement, seo, experiment: experiment?.experiment, audience, priority, holdout: storedHoldout };
    const html = experiment?.htmlContent ?? htmlContent;
    const bytes = contentGrowth(null, { url, htmlContent: html, ...storedExtras(extras) });
    if (audience && isLive(publication)) await assertAudienceRoom(db, c.var.user.id, normalizedUrl, bytes);
    await assertContentFits(db, c.var.user, bytes);
    const mapping = await createMapping(db, c.var.user.id, url, html, normalizedUrl, extras, now, publication);
    // Also the state, with the goals it accepts (docs/experiments.md).
    reportDelivery(c, await syncUrl(c.env, c.var.user.id, normalizedUrl));
    return c.json<Mapping>(mapping, 201);
  })
  .patch(
    "/:id",
    bodyCap(MAPPING_BODY_MAX_BYTES),
    currentBilling,
    validate("param", idParam),
    validate("json", mappingChangeBody),
    async (c) => c.json<Mapping>(await changeOwnMapping(c, c.req.valid("param").id, c.req.valid("json"))),
  )
  .get("/deleted", validate("query", deletedMappingsQuery), async (c) =>
    pageResponse(c, await listDeletedMappings(c.var.db, c.var.user.id, c.req.valid("query")), c.req.valid("query")),
  )
  .post("/deleted/:id/restore", currentBilling, validate("param", idParam), async (c) => {
    const db = c.var.db;
    const { id } = c.req.valid("param");
    const deleted = await getDeletedMapping(db, c.var.user.id, id);
    if (!deleted) throw notFound(DELETED_NOT_FOUND);
    await assertCanAddMapping(db, c.var.user, deleted.normalizedUrl);
    if (deleted.liveAudience) await assertAudienceRoom(db, c.var.user.id, deleted.normalizedUrl, deleted.bytes);
    await assertContentFits(db, c.var.user, deleted.bytes);
    if (!(await restoreDeletedMapping(db, c.var.user.id, id))) throw notFound(DELETED_NOT_FOUND);
    reportDelivery(c, await syncUrl(c.env, c.var.user.id, deleted.normalizedUrl));
    return c.json<Mapping>((await getMapping(db, c.var.user.id, id))!);
  })
  .post("/:id/preview", validate("param", idParam), async (c) => {
    const mapping = await getMapping(c.var.db, c.var.user.id, c.req.valid("param").id);
    if (!mapping) throw notFound(MAPPING_NOT_FOUND);
    const { variant } = await previewedVariant(c);
    if (variant !== undefined && !mapping.variants?.some((v) => v.key === variant)) {
      throw new ApiError(400, `This mapping's experiment has no variant ${variant}`);
    }
    return c.json<PreviewLink>(await previewLink(c.env, mapping, new Date(), variant), 201);
  })
  .delete("/:id/preview", validate("param", idParam), async (c) => {
    if (!(await revokePreviewKey(c.var.db, c.var.user.id, c.req.valid("param").id))) {
      throw notFound(MAPPING_NOT_FOUND);
    }
    return c.json<MessageResponse>({ message: "Every preview link of this mapping was revoked" });
  })
  .get("/:id/versions", validate("param", idParam), validate("query", versionsQuery), async (c) => {
    const db = c.var.db;
    const { id } = c.req.valid("param");
    if (!(await getOwnMapping(db, c.var.user.id, id))) throw notFound(MAPPING_NOT_FOUND);
    return pageResponse(c, await listVersions(db, c.var.user.id, id, c.req.valid("query")), c.req.valid("query"));
  })
  .post("/:id/versions/:version/restore", currentBilling, validate("param", versionParam), async (c) => {
    const { id, version } = c.req.valid("param");
    const restored = await getVersion(c.var.db, c.var.user.id, id, version);
    if (!restored) throw notFound("Version not found");
    return c.json<Mapping>(await changeOwnMapping(c, id, restoredChange(restored)));
  })
  .get("/:id/experiment", validate("param", idParam), validate("query", experimentResultsQuery), async (c) => {
    const experiment = await runningExperiment(c, c.req.valid("param").id);
    const { segment } = c.req.valid("query");
    return c.json<ExperimentResults>(await experimentResultsOf(c.var.db, c.var.user.id, experiment, segment));
  })
  .get("/:id/placement-health", validate("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    if (!(await getOwnMapping(c.var.db, c.var.user.id, id))) throw notFound(MAPPING_NOT_FOUND);
    return c.json<PlacementHealth>(await placementHealthOf(c.var.db, id));
  })
  .get("/:id/audience-results", validate("param", idParam), validate("query", experimentResultsQuery), async (c) => {
    const own = await getOwnMapping(c.var.db, c.var.user.id, c.req.valid("param").id);
    if (!own) throw notFound(MAPPING_NOT_FOUND);
    if (!own.holdout) throw notFound("This mapping holds out no share of its audience");
    const { segment } = c.req.valid("query");
    return c.json<ExperimentResults>(await holdoutResultsOf(c.var.db, c.var.user.id, own.holdout, segment));
  })
  .post(
    "/:id/experiment/promote",
    currentBilling,
    validate("param", idParam),
    validate("json", promoteBody),
    async (c) => {
      const { id } = c.req.valid("param");
      const experiment = await runningExperiment(c, id);
      const { variant } = c.req.valid("json");
      const chosen = experiment.variants.find((v) => v.key === variant);
      if (!chosen) throw new ApiError(400, `This mapping's experiment has no variant ${variant}`);
      // The variant's content becomes the mapping's, and the experiment ends: one change, so one version.
      const { htmlContent, placement, seo } = chosen;
      return c.json<Mapping>(await changeOwnMapping(c, id, { htmlContent, placement, seo, variants: null }));
    },
  )
  .patch("/:id/status", validate("param", idParam), validate("json", mappingStatusBody), async (c) => {
    const published = c.req.valid("json").status === "published";
    if (published) {
      const { id } = c.req.valid("param");
      const own = await getOwnMapping(c.var.db, c.var.user.id, id);
      const bytes = own?.audience && (await mappingContentBytes(c.var.db, c.var.user.id, id));
      if (own && bytes) await assertAudienceRoom(c.var.db, c.var.user.id, own.normalizedUrl, rowBytes(bytes), id);
    }
    const changed = await setMappingPublished(c.var.db, c.var.user.id, c.req.valid("param").id, published);
    if (!changed) throw notFound(MAPPING_NOT_FOUND);
    reportDelivery(c, await syncUrl(c.env, c.var.user.id, changed.normalizedUrl));
    return c.json<Mapping>(changed.mapping);
  })
  .delete("/:id", validate("param", idParam), validate("query", mappingDeleteQuery), async (c) => {
    const { id } = c.req.valid("param");
    if (c.req.valid("query").scope === "url") {
      const group = await deleteUrlGroup(c.var.db, c.var.user.id, id);
      if (!group) throw notFound(MAPPING_NOT_FOUND);
      reportDelivery(c, await syncUrl(c.env, c.var.user.id, group.normalizedUrl));
      const { deleted, remaining } = group;
      return c.json<GroupDeleteResponse>({ message: groupDeletedMessage(group), deleted, remaining });
    }
    const normalizedUrl = await deleteMapping(c.var.db, c.var.user.id, id);
    if (normalizedUrl === null) throw notFound(MAPPING_NOT_FOUND);
    reportDelivery(c, await syncUrl(c.env, c.var.user.id, normalizedUrl));
    return c.json<MessageResponse>({ message: "URL mapping deleted successfully" });
  });

/** Counts every request that may change a mapping against the account's "mapping-change" throttle (429 past it). */
async function throttleChanges(c: Context<AppEnv>, next: Next) {
  if (c.req.method !== "GET" && c.req.method !== "HEAD") await throttle(c, "mapping-change", c.var.user.id);
  await next();
}

/** The experiment the customer's mapping runs; 404 when the mapping is not theirs or runs none. */
async function runningExperiment(c: Context<AppEnv>, id: number): Promise<StoredExperiment> {
  const own = await getOwnMapping(c.var.db, c.var.user.id, id);
  if (!own) throw notFound(MAPPING_NOT_FOUND);
  if (!own.experiment) throw notFound("This mapping runs no experiment");
  return own.experiment;
}

/** A preview's optional body (`{variant}`): SPEC.md's request has none. */
async function previewedVariant(c: Context<AppEnv>) {
  const text = await c.req.text();
  if (text.trim() === "") return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ApiError(400, 'The body must be JSON: {"variant": "B"}, or empty');
  }
  const parsed = previewBody.safeParse(body);
  if (!parsed.success) throw new ApiError(400, parsed.error.issues[0]!.message);
  return parsed.data;
}

const mappingsWord = (n: number) => `${n.toLocaleString("en-US")} URL mapping${n === 1 ? "" : "s"}`;

function groupDeletedMessage({ deleted, remaining }: { deleted: number; remaining: number }) {
  const done = `${mappingsWord(deleted)} deleted successfully`;
  return remaining === 0 ? done : `${done}; ${mappingsWord(remaining)} of this URL remain: remove again for the rest`;
}

/**
 * Changes one of the customer's mappings (`PATCH`, and a restore of a version): checks the URL with its match,
 * the publication and the plan's website limit, saves, and rewrites the delivery entries of the URLs before and
 * after. A refusal changes nothing.
 */
async function changeOwnMapping(c: Context<AppEnv>, id: number, body: MappingChangeBody): Promise<Mapping> {
  const { url, match, status, publishAt, unpublishAt, variants, goals, holdout, ...rest } = body;
  const db = c.var.db;
  const own = await getOwnMapping(db, c.var.user.id, id);
  if (!own) throw notFound(MAPPING_NOT_FOUND);
  const now = new Date();
  const publication = resolvePublication({ status, publishAt, unpublishAt }, own, now);
  if (typeof publication === "string") throw new ApiError(400, publication);
  const audience = rest.audience === undefined ? own.audience : rest.audience;
  const changed = experimentAndHoldoutChange(
    { variants, goals, holdout },
    own,
    audience !== null,
    rest.htmlContent,
    now,
  );
  const experiment = changed.experiment;
  // As on create, a match given is checked against the URL: the new one, else the mapping's own.
  const normalizedUrl = url === undefined ? own.normalizedUrl : normalizeUrl(url, c.var.user.ignoredParameters);
  const problem = matchProblem(normalizedUrl, match);
  if (problem) throw new ApiError(400, problem);
  if (normalizedUrl !== own.normalizedUrl) {
    await assertCanAddMapping(db, c.var.user, normalizedUrl, { moves: { id, from: own.normalizedUrl } });
  }
  const change = {
    ...rest,
    ...(experiment ?? {}),
    ...(changed.holdout === undefined ? {} : { holdout: changed.holdout }),
    ...publication,
    ...(url === undefined ? {} : { url, normalizedUrl }),
  };
  const stored = { url: change.url, htmlContent: change.htmlContent, ...storedExtras(change) };
  const before = await mappingContentBytes(db, c.var.user.id, id);
  const growth = contentGrowth(before, stored);
  if (audience && isLive(publication)) {
    await assertAudienceRoom(db, c.var.user.id, normalizedUrl, (before ? rowBytes(before) : 0) + growth, id);
  }
  await assertContentFits(db, c.var.user, growth);
  const saved = await changeMapping(db, c.var.user.id, id, change);
  if (!saved) throw notFound(MAPPING_NOT_FOUND);
  // Also the state, with the goals it accepts (docs/experiments.md).
  const synced = await syncUrls(c.env, c.var.user.id, saved.normalizedUrls);
  if (!saved.mapping) throw notFound(MAPPING_NOT_FOUND);
  reportDelivery(c, synced);
  return saved.mapping;
}

/**
 * What restoring a version changes: its URL, HTML, placement and SEO fields, and whether it was live. A schedule
 * is not restored: its times have passed or would surprise; the restored mapping is live or a draft now.
 */
const restoredChange = (version: MappingVersion): MappingChangeBody => ({
  url: version.url,
  htmlContent: version.htmlContent,
  placement: version.placement,
  seo: version.seo,
  status: version.publishedAt ? "published" : "draft",
  unpublishAt: null,
  variants: version.variants ?? null,
  ...(version.goals ? { goals: version.goals } : {}),
  audience: version.audience ?? null,
  ...(version.priority === undefined ? {} : { priority: version.priority }),
  holdout: version.holdout ?? 0,
});

/** Published, or scheduled to be: what a URL's delivery entry will hold. */
const isLive = (publication: Publication) => publication.publishedAt !== null || publication.publishAt !== null;
