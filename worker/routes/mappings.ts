/** @module A customer's URL mappings. Every change writes the delivery entry of its URL (write-through). */
import { Hono } from "hono";
import { z } from "zod";
import { DELIVERY_PENDING_HEADER, type Mapping, type MappingMatch, type MessageResponse } from "../contract/responses";
import { normalizeUrl } from "../contract/normalize-url";
import {
  mappingBody,
  mappingChangeBody,
  mappingMatchQuery,
  mappingsQuery,
  mappingStatusBody,
} from "../contract/schemas";
import { resolvePublication } from "../contract/schedule";
import { matchProblem } from "../contract/url-rules";
import { requireUser } from "../auth/middleware";
import { currentBilling } from "../billing/current-billing";
import { createDb } from "../db/client";
import { syncUrl } from "../delivery/sync";
import type { AppEnv } from "../env";
import { ApiError, notFound } from "../http/errors";
import { pageResponse } from "../http/paging";
import { validate } from "../http/validate";
import { assertCanAddMapping } from "../models/limits";
import { explainMatch } from "../models/mapping-match";
import {
  changeMapping,
  createMapping,
  deleteMapping,
  getOwnMapping,
  listMappings,
  publishedNow,
  setMappingPublished,
} from "../models/mappings";

const idParam = z.object({ id: z.coerce.number().int().positive("Invalid mapping id") });
const MAPPING_NOT_FOUND = "Mapping not found";

export const mappingRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get("/", validate("query", mappingsQuery), async (c) =>
    pageResponse(c, await listMappings(createDb(c.env.DB), c.var.user.id, c.req.valid("query"))),
  )
  .get("/match", validate("query", mappingMatchQuery), async (c) =>
    c.json<MappingMatch>(await explainMatch(createDb(c.env.DB), c.var.user, c.req.valid("query").url)),
  )
  .post("/", currentBilling, validate("json", mappingBody), async (c) => {
    const { url, htmlContent, placement, seo, ...publicationInput } = c.req.valid("json");
    const now = new Date();
    const publication = resolvePublication(publicationInput, publishedNow(now), now);
    if (typeof publication === "string") throw new ApiError(400, publication);
    const db = createDb(c.env.DB);
    const normalizedUrl = normalizeUrl(url, c.var.user.ignoredParameters);
    await assertCanAddMapping(db, c.var.user, normalizedUrl);
    const extras = { placement, seo };
    const mapping = await createMapping(db, c.var.user.id, url, htmlContent, normalizedUrl, extras, now, publication);
    if (!(await syncUrl(c.env, c.var.user.id, normalizedUrl))) c.header(DELIVERY_PENDING_HEADER, "1");
    return c.json<Mapping>(mapping, 201);
  })
  .patch("/:id", currentBilling, validate("param", idParam), validate("json", mappingChangeBody), async (c) => {
    const { id } = c.req.valid("param");
    const { url, match, status, publishAt, unpublishAt, ...rest } = c.req.valid("json");
    const db = createDb(c.env.DB);
    const own = await getOwnMapping(db, c.var.user.id, id);
    if (!own) throw notFound(MAPPING_NOT_FOUND);
    const publication = resolvePublication({ status, publishAt, unpublishAt }, own, new Date());
    if (typeof publication === "string") throw new ApiError(400, publication);
    // As on create, a match given is checked against the URL: the new one, else the mapping's own.
    const normalizedUrl = url === undefined ? own.normalizedUrl : normalizeUrl(url, c.var.user.ignoredParameters);
    const problem = matchProblem(normalizedUrl, match);
    if (problem) throw new ApiError(400, problem);
    if (normalizedUrl !== own.normalizedUrl) {
      await assertCanAddMapping(db, c.var.user, normalizedUrl, { id, from: own.normalizedUrl });
    }
    const changed = await changeMapping(db, c.var.user.id, id, {
      ...rest,
      ...publication,
      ...(url === undefined ? {} : { url, normalizedUrl }),
    });
    if (!changed) throw notFound(MAPPING_NOT_FOUND);
    const synced = await Promise.all(changed.normalizedUrls.map((u) => syncUrl(c.env, c.var.user.id, u)));
    if (!changed.mapping) throw notFound(MAPPING_NOT_FOUND);
    if (synced.includes(false)) c.header(DELIVERY_PENDING_HEADER, "1");
    return c.json<Mapping>(changed.mapping);
  })
  .patch("/:id/status", validate("param", idParam), validate("json", mappingStatusBody), async (c) => {
    const published = c.req.valid("json").status === "published";
    const changed = await setMappingPublished(createDb(c.env.DB), c.var.user.id, c.req.valid("param").id, published);
    if (!changed) throw notFound(MAPPING_NOT_FOUND);
    if (!(await syncUrl(c.env, c.var.user.id, changed.normalizedUrl))) c.header(DELIVERY_PENDING_HEADER, "1");
    return c.json<Mapping>(changed.mapping);
  })
  .delete("/:id", validate("param", idParam), async (c) => {
    const normalizedUrl = await deleteMapping(createDb(c.env.DB), c.var.user.id, c.req.valid("param").id);
    if (normalizedUrl === null) throw notFound(MAPPING_NOT_FOUND);
    if (!(await syncUrl(c.env, c.var.user.id, normalizedUrl))) c.header(DELIVERY_PENDING_HEADER, "1");
    return c.json<MessageResponse>({ message: "URL mapping deleted successfully" });
  });
