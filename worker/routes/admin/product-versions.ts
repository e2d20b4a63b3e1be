/** @module `/api/admin/product-versions`: the plans. A change writes the delivery states of the users on it. */
import { Hono } from "hono";
import { z } from "zod";
import type { MessageResponse, ProductVersion } from "../../contract/responses";
import { plainListQuery, productVersionBody } from "../../contract/schemas";
import { createDb } from "../../db/client";
import { syncCustomerStates } from "../../delivery/repairs";
import type { AppEnv } from "../../env";
import { notFound } from "../../http/errors";
import { pageResponse } from "../../http/paging";
import { validate } from "../../http/validate";
import { deleteProductVersion, listProductVersions, saveProductVersion } from "../../models/product-versions";

const idParam = z.object({ id: z.coerce.number().int().positive("Invalid product version id") });
const NOT_FOUND = "Product version not found";

export const adminProductVersionRoutes = new Hono<AppEnv>()
  .get("/", validate("query", plainListQuery), async (c) =>
    pageResponse(c, await listProductVersions(createDb(c.env.DB), c.req.valid("query"))),
  )
  .post("/", validate("json", productVersionBody), async (c) => {
    const { version } = (await saveProductVersion(createDb(c.env.DB), null, c.req.valid("json")))!;
    return c.json<ProductVersion>(version, 201);
  })
  .patch("/:id", validate("param", idParam), validate("json", productVersionBody), async (c) => {
    const saved = await saveProductVersion(createDb(c.env.DB), c.req.valid("param").id, c.req.valid("json"));
    if (!saved) throw notFound(NOT_FOUND);
    await syncCustomerStates(c.env, saved.userIds);
    return c.json<ProductVersion>(saved.version);
  })
  .delete("/:id", validate("param", idParam), async (c) => {
    const moved = await deleteProductVersion(createDb(c.env.DB), c.req.valid("param").id);
    if (!moved) throw notFound(NOT_FOUND);
    await syncCustomerStates(c.env, moved);
    return c.json<MessageResponse>({ message: "Product version deleted successfully" });
  });
