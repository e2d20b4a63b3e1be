/**
 * @module Cloudflare for SaaS, where CLOUDFLARE_ZONE_ID and CLOUDFLARE_API_TOKEN are set: a proven website is
 * registered as a custom hostname of the product's zone (the hostname and its `www.` twin), which is how
 * Cloudflare routes its traffic to the Worker and issues its certificate (HTTP validation once its DNS points at
 * the zone: docs/edge-delivery.md). A claim that goes (released, its customer deleted) has its custom hostnames
 * queued for deletion by a trigger (`custom_hostname_removals`). Calls that fail are made again by the minute
 * cron, so that no proven website stays unregistered and no removed one stays registered.
 */
import { z } from "zod";
import { createDb, type Db } from "../db/client";
import type { Env } from "../env";
import {
  completeCustomHostnameRemoval,
  pendingCustomHostnameRemovals,
  setCustomHostnameIds,
  websitesWithoutCustomHostnames,
} from "../models/websites";

export const DEFAULT_CLOUDFLARE_API_BASE = "https://api.cloudflare.com/client/v4";
const CALL_TIMEOUT_MS = 10_000;
/** Calls of one cron run: well within an invocation's subrequests. */
const CALLS_PER_RUN = 20;
/** Cloudflare's error code for a hostname the zone already has. */
const DUPLICATE_HOSTNAME = 1406;

const envelope = z.object({
  success: z.boolean(),
  errors: z.array(z.object({ code: z.number(), message: z.string() })).default([]),
  result: z.unknown().optional(),
});
const customHostname = z.object({ id: z.string(), hostname: z.string() });

export const customHostnamesConfigured = (env: Env) =>
  Boolean(env.CLOUDFLARE_ZONE_ID?.trim() && env.CLOUDFLARE_API_TOKEN?.trim());

async function call(env: Env, path: string, init: RequestInit = {}) {
  const base = (env.CLOUDFLARE_API_BASE?.trim() || DEFAULT_CLOUDFLARE_API_BASE).replace(/\/+$/, "");
  const res = await fetch(
    `${base}/zones/${encodeURIComponent(env.CLOUDFLARE_ZONE_ID!.trim())}/custom_hostnames${path}`,
    {
      ...init,
      headers: { Authorization: `Bearer ${env.CLOUDFLARE_API_TOKEN!.trim()}`, "Content-Type": "application/json" },
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    },
  );
  const body = envelope.safeParse(await res.json().catch(() => null));
  if (!body.success) throw new Error(`Cloudflare answered HTTP ${res.status} without its JSON envelope`);
  return { status: res.status, ...body.data };
}

/** The custom hostname's id at Cloudflare: created, or the existing one when the zone has it already. */
async function ensureCustomHostname(env: Env, hostname: string): Promise<string> {
  const created = await call(env, "", {
    method: "POST",
    body: JSON.stringify({ hostname, ssl: { method: "http", type: "dv" } }),
  });
  if (created.success) return customHostname.parse(created.result).id;
  if (!created.errors.some((e) => e.code === DUPLICATE_HOSTNAME)) {
    throw new Error(`Cloudflare refused ${hostname}: ${created.errors.map((e) => e.message).join("; ")}`);
  }
  const found = await call(env, `?hostname=${encodeURIComponent(hostname)}`);
  const match = z
    .array(customHostname)
    .parse(found.result)
    .find((h) => h.hostname === hostname);
  if (!found.success || !match) throw new Error(`Cloudflare has ${hostname} but did not list it`);
  return match.id;
}

/** Registers an active claim's hostname and its `www.` twin; false when not configured or a call failed. */
export async function registerCustomHostnames(env: Env, db: Db, website: { userId: string; hostname: string }) {
  if (!customHostnamesConfigured(env)) return false;
  try {
    const ids = [];
    for (const hostname of [website.hostname, `www.${website.hostname}`])
      ids.push(await ensureCustomHostname(env, hostname));
    await setCustomHostnameIds(db, website.userId, website.hostname, ids);
    // A hostname released and proven again before its removal ran: it is in use again, so it stays.
    for (const id of ids) await completeCustomHostnameRemoval(db, id);
    return true;
  } catch (err) {
    console.error(`Registering ${website.hostname} with Cloudflare for SaaS failed; the minute cron tries again`, err);
    return false;
  }
}

const sslOfHostname = z.object({ ssl: z.object({ status: z.string() }).optional() });

/**
 * The certificate status Cloudflare reports for a registered custom hostname (`ssl.status`: `initializing`,
 * `pending_validation`, `pending_issuance`, `pending_deployment`, `active`, or an error state), or null when
 * Cloudflare did not answer it (the caller shows it as not known yet).
 */
export async function customHostnameSslStatus(env: Env, id: string): Promise<string | null> {
  try {
    const found = await call(env, `/${encodeURIComponent(id)}`);
    if (!found.success) throw new Error(found.errors.map((e) => e.message).join("; "));
    return sslOfHostname.parse(found.result).ssl?.status ?? null;
  } catch (err) {
    console.error(`Reading the certificate status of custom hostname ${id} failed`, err);
    return null;
  }
}

/** Deletes a custom hostname at Cloudflare (one already gone counts as deleted). */
async function deleteCustomHostname(env: Env, id: string): Promise<void> {
  const deleted = await call(env, `/${encodeURIComponent(id)}`, { method: "DELETE" });
  if (!deleted.success && deleted.status !== 404) {
    throw new Error(`Cloudflare did not delete ${id}: ${deleted.errors.map((e) => e.message).join("; ")}`);
  }
}

/** The minute cron's share: queued deletions, then proven websites not registered yet, within a budget of calls. */
export async function settleCustomHostnames(env: Env): Promise<void> {
  if (!customHostnamesConfigured(env)) return;
  const db = createDb(env.DB);
  let budget = CALLS_PER_RUN;
  for (const removal of await pendingCustomHostnameRemovals(db, budget)) {
    budget -= 1;
    try {
      await deleteCustomHostname(env, removal.id);
      await completeCustomHostnameRemoval(db, removal.id);
    } catch (err) {
      console.error(`Deleting custom hostname ${removal.hostname} at Cloudflare failed; it stays queued`, err);
    }
  }
  // Each registration takes two calls (the hostname and its www. twin).
  for (const website of await websitesWithoutCustomHostnames(db, Math.floor(budget / 2))) {
    await registerCustomHostnames(env, db, website);
  }
}
