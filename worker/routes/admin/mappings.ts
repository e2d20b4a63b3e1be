/** @module `/api/admin/mappings` ("Event-Verwaltung"): every customer's mappings, a page at a time. */
import { Hono } from "hono";
import { z } from "zod";
import type { AdminMapping, MessageResponse } from "#contract/responses";
import { adminMappingsQuery } from "#contract/schemas";
import { syncUrl } from "../../delivery/sync";
import type { AppEnv } from "../../env";
import { reportDelivery } from "../../delivery/delivery-status";
import { notFound } from "../../http/errors";
import { pageResponse } from "../../http/paging";
import { validate } from "../../http/validate";
import { deleteAnyMapping, getAnyMapping, listAdminMappings, ownerOfMapping } from "../../models/admin-mappings";
import { settleShown } from "../../analytics/settled-counts";

const idParam = z.object({ id: z.coerce.number().int().positive("Invalid mapping id") });
const NOT_FOUND = "Mapping not found";

export const adminMappingRoutes = new Hono<AppEnv>()
  .get("/", validate("query", adminMappingsQuery), async (c) =>
    pageResponse(
      c,
      await listAdminMappings(c.var.db, c.req.valid("query"), (userIds) => settleShown(c, userIds)),
      c.req.valid("query"),
    ),
  )
  .get("/:id", validate("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    const owner = await ownerOfMapping(c.var.db, id);
    if (owner) await settleShown(c, [owner]);
    const mapping = await getAnyMapping(c.var.db, id);
    if (!mapping) throw notFound(NOT_FOUND);
    return c.json<AdminMapping>(mapping);
  })
  .delete("/:id", validate("param", idParam), async (c) => {
    const deleted = await deleteAnyMapping(c.var.db, c.req.valid("param").id);
    if (!deleted) throw notFound(NOT_FOUND);
    reportDelivery(c, await syncUrl(c.env, deleted.userId, deleted.normalizedUrl));
    return c.json<MessageResponse>({ message: "Mapping deleted successfully" });
  });
