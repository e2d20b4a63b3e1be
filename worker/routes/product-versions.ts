/** @module `GET /api/product-versions`: the plans, for the customer's plan dialog. */
import { Hono } from "hono";
import type { ProductVersion } from "../contract/responses";
import { requireUser } from "../auth/middleware";
import { createDb } from "../db/client";
import type { AppEnv } from "../env";
import { listProductVersions } from "../models/product-versions";

export const productVersionRoutes = new Hono<AppEnv>().get("/", requireUser, async (c) =>
  c.json<ProductVersion[]>(await listProductVersions(createDb(c.env.DB))),
);
