/**
 * @module `/api/admin/product-versions`: the plans. A change writes the delivery states of the users on it; `PATCH`
 * keeps what its body leaves out; nothing may strand a paying subscriber (models/product-versions.ts).
 */
import { Hono } from "hono";
import { z } from "zod";
import type { MessageResponse, ProductVersion } from "#contract/responses";
import { plainListQuery, productVersionBody, productVersionPatchBody } from "#contract/schemas";
import { syncCustomerStates } from "../../delivery/repairs";
import type { AppEnv } from "../../env";
import { notFound } from "../../http/errors";
import { pageResponse } from "../../http/paging";
import { validate } from "../../http/validate";
import {
  createProductVersion,
  deleteProductVersion,
  listProductVersions,
  updateProductVersion,
} from "../../models/product-versions";

const idParam = z.object({ id: z.coerce.number().int().positive("Invalid product version id") });
const NOT_FOUND = "Product version not found";

export const adminProductVersionRoutes = new Hono<AppEnv>()
  .get("/", validate("query", plainListQuery), async (c) =>
    pageResponse(c, await listProductVersions(c.var.db, c.req.valid("query")), c.req.valid("query")),
  )
  .post("/", validate("json", productVersionBody), async (c) => {
    return c.json<ProductVersion>(await createProductVersion(c.var.db, c.req.valid("json")), 201);
  })
  .patch("/:id", validate("param", idParam), validate("json", productVersionPatchBody), async (c) => {
    const saved = await updateProductVersion(c.var.db, c.req.valid("param").id, c.req.valid("json"));
    if (!saved) throw notFound(NOT_FOUND);
    await syncCustomerStates(c.env, saved.userIds);
    return c.json<ProductVersion>(saved.version);
  })
  .delete("/:id", validate("param", idParam), async (c) => {
    const moved = await deleteProductVersion(c.var.db, c.req.valid("param").id);
    if (!moved) throw notFound(NOT_FOUND);
    await syncCustomerStates(c.env, moved);
    return c.json<MessageResponse>({ message: "Product version deleted successfully" });
  });
