/** @module `GET /api/openapi.json`: the customer API's description (openapi-document.ts), for anyone to read. */
import { Hono } from "hono";
import { openApiDocument } from "./openapi-document";
import type { AppEnv } from "../env";
import { publicOrigin } from "../http/origin";

export const openApiRoutes = new Hono<AppEnv>().get("/", (c) =>
  c.json(openApiDocument(publicOrigin(c)), 200, { "Cache-Control": "public, max-age=300" }),
);
