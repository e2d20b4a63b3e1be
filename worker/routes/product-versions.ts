/** @module `GET /api/product-versions`: the plans, for the customer's plan dialog. */
import { Hono } from "hono";
import { requireUser } from "../auth/middleware";
import { plainListQuery } from "#contract/schemas";
import type { AppEnv } from "../env";
import { pageResponse } from "../http/paging";
import { validate } from "../http/validate";
import { listProductVersions } from "../models/product-versions";

export const productVersionRoutes = new Hono<AppEnv>().get(
  "/",
  requireUser,
  validate("query", plainListQuery),
  async (c) => pageResponse(c, await listProductVersions(c.var.db, c.req.valid("query")), c.req.valid("query")),
);
