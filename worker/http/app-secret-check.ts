/**
 * @module Fail closed on a missing or weak APP_SECRET. It signs the login cookie, keys the login codes' HMAC and
 * encrypts stored API keys and the SMTP password, so without it (an operator forgot `wrangler secret put
 * APP_SECRET`, or a `.dev.vars` lacks it) those would be sealed under a guessable key. Every API route mounted after
 * it (app.ts: all but the SPA's public configuration) then answers 503 in the one error shape, and the isolate logs
 * once which setting is wrong; the SPA's pages, the snippet and content delivery keep working.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv, Env } from "../env";
import { notConfigured } from "./not-configured";

/** 256 bits: `openssl rand -base64 32` gives 44 characters. */
export const APP_SECRET_MIN_BYTES = 32;

/** What is wrong with the secret settings, for the log; null when they are usable. */
export function appSecretProblem(env: Pick<Env, "APP_SECRET" | "APP_SECRET_PREVIOUS">): string | null {
  const bytes = (value: string) => new TextEncoder().encode(value).length;
  if (!env.APP_SECRET) return "APP_SECRET is not set";
  if (bytes(env.APP_SECRET) < APP_SECRET_MIN_BYTES) {
    return `APP_SECRET is shorter than ${APP_SECRET_MIN_BYTES} bytes`;
  }
  if (env.APP_SECRET_PREVIOUS !== undefined && bytes(env.APP_SECRET_PREVIOUS) < APP_SECRET_MIN_BYTES) {
    return `APP_SECRET_PREVIOUS is shorter than ${APP_SECRET_MIN_BYTES} bytes`;
  }
  return null;
}

export const requireAppSecret: MiddlewareHandler<AppEnv> = async (c, next) => {
  const problem = appSecretProblem(c.env);
  return problem ? notConfigured(c, "a secret", problem) : next();
};
