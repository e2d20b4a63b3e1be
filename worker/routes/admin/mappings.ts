/** @module `/api/admin/mappings` ("Event-Verwaltung"): every customer's mappings. */
import { Hono } from "hono";
import { z } from "zod";
import type { AdminMapping, MessageResponse } from "../../contract/responses";
import { createDb } from "../../db/client";
import { syncUrl } from "../../delivery/sync";
import type { AppEnv } from "../../env";
import { notFound } from "../../http/errors";
import { validate } from "../../http/validate";
import { deleteAnyMapping, listAllMappings } from "../../models/mappings";

const idParam = z.object({ id: z.coerce.number().int().positive("Invalid mapping id") });

export const adminMappingRoutes = new Hono<AppEnv>()
  .get("/", async (c) => c.json<AdminMapping[]>(await listAllMappings(createDb(c.env.DB))))
  .delete("/:id", validate("param", idParam), async (c) => {
    const deleted = await deleteAnyMapping(createDb(c.env.DB), c.req.valid("param").id);
    if (!deleted) throw notFound("Mapping not found");
    await syncUrl(c.env, deleted.userId, deleted.normalizedUrl);
    return c.json<MessageResponse>({ message: "Mapping deleted successfully" });
  });
