/** @module `GET /api/openapi.json`: the customer API's description (contract/openapi.ts), for anyone to read. */
import { Hono } from "hono";
import { openApiDocument } from "../contract/openapi";
import type { AppEnv } from "../env";
import { publicOrigin } from "../http/origin";

export const openApiRoutes = new Hono<AppEnv>().get("/", (c) =>
  c.json(openApiDocument(publicOrigin(c)), 200, { "Cache-Control": "public, max-age=300" }),
);
