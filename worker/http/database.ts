/** @module The request's database handle, `c.var.db`: made once per API request, for every route and middleware. */
import { createMiddleware } from "hono/factory";
import { createDb } from "../db/client";
import type { AppEnv } from "../env";

export const withDatabase = createMiddleware<AppEnv>(async (c, next) => {
  c.set("db", createDb(c.env.DB));
  await next();
});
