/** @module Websites: customers' claims of hostnames served at the edge. */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";
import { userRef } from "./accounts";

/**
 * A customer's claim of a website as a delivery target: its hostname (as SPEC.md counts websites: lowercase,
 * without `www.`), the origin that serves it, and how its content is delivered: by the snippet in the visitor's
 * browser, or at the edge, by the Worker as a proxy in front of the origin (delivery/edge-proxy.ts). A claim is
 * `pending` until its owner proves the hostname with a DNS TXT record holding `verification_token`
 * (docs/edge-delivery.md); only an `active` claim is served. Several customers may claim a hostname; whoever
 * proves it holds it, so at most one claim per hostname is active; a later proof by another account takes the
 * hostname over. Pending claims expire 7 days after they were made; active ones are checked again daily and end
 * after failed checks (models/websites.ts). A trigger (db/raw.ts) queues a deleted claim's custom hostnames for
 * removal.
 */
export const websites = sqliteTable(
  "websites",
  {
    hostname: text("hostname").notNull(),
    userId: userRef(),
    origin: text("origin").notNull(),
    mode: text("mode", { enum: ["snippet", "edge"] }).notNull(),
    /**
     * In edge mode, the https origin the pages' own subresources are fetched from instead of the website's hosts, so
     * that they skip the Worker (delivery/edge-subresources.ts); null: off.
     */
    assetOrigin: text("asset_origin"),
    status: text("status", { enum: ["pending", "active"] })
      .notNull()
      .default("pending"),
    verificationToken: text("verification_token").notNull(),
    verifiedAt: integer("verified_at", { mode: "timestamp_ms" }),
    /**
     * The last DNS check, and why it did not prove the hostname (null: not checked yet, or proven). A pending claim
     * is checked until proven; an active one again every day (websites/recheck-websites.ts).
     */
    checkedAt: integer("checked_at", { mode: "timestamp_ms" }),
    checkProblem: text("check_problem"),
    /** An active claim's DNS checks that failed in a row: at `LAPSE_AFTER_FAILED_CHECKS` the claim ends. */
    failedChecks: integer("failed_checks").notNull().default(0),
    /** The Cloudflare for SaaS custom hostnames registered for an active claim (delivery/custom-hostnames.ts). */
    customHostnameIds: text("custom_hostname_ids", { mode: "json" }).$type<string[]>(),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.hostname, t.userId] }),
    uniqueIndex("websites_active_hostname_idx")
      .on(t.hostname)
      .where(sql`${t.status} = 'active'`),
    index("websites_user_idx").on(t.userId, t.hostname),
    // The DNS checks due, per status (websites/check-queue): the minute cron's range scans.
    index("websites_check_idx").on(t.status, t.checkedAt),
  ],
);

/**
 * Cloudflare for SaaS custom hostnames to delete at Cloudflare: written with the release of a claim or the deletion
 * of its customer (in the same batch), removed once Cloudflare confirms, so that none is left behind when a call
 * fails (delivery/custom-hostnames.ts).
 */
export const customHostnameRemovals = sqliteTable("custom_hostname_removals", {
  id: text("id").primaryKey(),
  hostname: text("hostname").notNull(),
  requestedAt: integer("requested_at", { mode: "timestamp_ms" }).notNull(),
});

export type Website = typeof websites.$inferSelect;
