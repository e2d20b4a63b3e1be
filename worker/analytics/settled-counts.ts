/**
 * @module Routes that show counters put one of these after their permission check: what the reducers hold of the
 * customers shown (reducer.ts) is counted before the handler reads, so a screen trails page views only by the
 * minute cron, never by what a reducer holds. Only reads (GET) ask; a customer with nothing held costs one
 * Durable Object request that writes nothing.
 */
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { settleCounters } from "./reducer-shards";

const settledFor = (who: (c: Context<AppEnv>) => readonly string[] | "all") =>
  createMiddleware<AppEnv>(async (c, next) => {
    if (c.req.method === "GET") await settleCounters(c.env, who(c));
    await next();
  });

/** The signed-in customer's counters (after `requireUser`). */
export const ownCountsSettled = settledFor((c) => [c.var.user.id]);

/** The counters of the customer in the path (`:userId`, an admin's routes). */
export const pathCustomerCountsSettled = settledFor((c) => [c.req.param("userId") ?? ""]);

/** Every customer's counters: the admin's lists across customers. */
export const allCountsSettled = settledFor(() => "all");
