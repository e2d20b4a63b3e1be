/**
 * @module The plan's content budget: the bytes an account's mappings may store, measured as db/raw.ts measures a
 * version (URL, HTML, placement, SEO and experiment in UTF-8, plus 64 for the row) and kept per account in
 * `mapping_totals.content_bytes` by triggers, so that a check reads one row. A change that would take the account
 * past its budget is refused (403); one that keeps or frees bytes never is (docs/decisions.md, Issue 38).
 */
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { mappingTotals, productVersions, urlMappings, users, type User } from "../db/schema";
import { Refusal } from "../lib/refusal";
import { planLimit } from "./limits";

const MIB = 1024 * 1024;
/** A plan that limits new mappings a period (the default, Free): what its mappings may store. */
export const LIMITED_PLAN_CONTENT_BYTES = 50 * MIB;
/**
 * A plan without an events limit (or a customer without a plan): at the worst case for the search index (all HTML)
 * an account holds about 4.2 times its content, so 1 GB keeps even it well inside one D1 database of 10 GB.
 */
export const UNLIMITED_PLAN_CONTENT_BYTES = 1024 * MIB;
/** What db/raw.ts `VERSION_BYTES` adds for a row's ids, times and header. */
export const ROW_BYTES = 64;

export const contentBytesLimit = (eventsLimit: number | null) =>
  eventsLimit === null ? UNLIMITED_PLAN_CONTENT_BYTES : LIMITED_PLAN_CONTENT_BYTES;

/** The stored columns the budget measures; `undefined`: unchanged, null: none. JSON columns as drizzle stores them. */
export interface StoredContent {
  url?: string;
  htmlContent?: string;
  placement?: unknown;
  seo?: unknown;
  experiment?: unknown;
  audience?: unknown;
}

type ContentColumn = keyof StoredContent;
export type ContentColumnBytes = Record<ContentColumn, number>;
const COLUMNS: ContentColumn[] = ["url", "htmlContent", "placement", "seo", "experiment", "audience"];

/** The bytes of each content column of a mapping row (or a deleted mapping's copy), in SQL. */
export function contentColumnBytes(t: {
  url: unknown;
  htmlContent: unknown;
  placement: unknown;
  seo: unknown;
  experiment: unknown;
  audience: unknown;
}) {
  const bytes = (column: unknown) => sql<number>`coalesce(length(CAST(${column} AS BLOB)), 0)`.mapWith(Number);
  return {
    url: bytes(t.url),
    htmlContent: bytes(t.htmlContent),
    placement: bytes(t.placement),
    seo: bytes(t.seo),
    experiment: bytes(t.experiment),
    audience: bytes(t.audience),
  };
}

const encoder = new TextEncoder();
function bytesOf(value: unknown): number {
  if (value === null || value === undefined) return 0;
  return encoder.encode(typeof value === "string" ? value : JSON.stringify(value)).length;
}

/** A whole row's bytes, from its column bytes. */
export const rowBytes = (columns: ContentColumnBytes) =>
  ROW_BYTES + COLUMNS.reduce((sum, column) => sum + columns[column], 0);

/** The bytes a write adds to the account: a new row (`before` null), or a change of the row measured as `before`. */
export function contentGrowth(before: ContentColumnBytes | null, after: StoredContent): number {
  const next = Object.fromEntries(
    COLUMNS.map((c) => [c, after[c] === undefined ? (before?.[c] ?? 0) : bytesOf(after[c])]),
  ) as ContentColumnBytes;
  return rowBytes(next) - (before ? rowBytes(before) : 0);
}

/** The bytes of each content column of one of the customer's mappings, or null when there is no such mapping. */
export async function mappingContentBytes(db: Db, userId: string, id: number): Promise<ContentColumnBytes | null> {
  const [row] = await db
    .select(contentColumnBytes(urlMappings))
    .from(urlMappings)
    .where(and(eq(urlMappings.userId, userId), eq(urlMappings.id, id)));
  return row ?? null;
}

/** What the account's mappings store and may store. */
export async function contentBudgetOf(db: Db, userId: string): Promise<{ used: number; limit: number }> {
  const [row] = await db
    .select({ used: mappingTotals.contentBytes, eventsLimit: productVersions.eventsLimit })
    .from(users)
    .leftJoin(productVersions, eq(productVersions.id, users.productVersionId))
    .leftJoin(mappingTotals, eq(mappingTotals.userId, users.id))
    .where(eq(users.id, userId));
  return { used: row?.used ?? 0, limit: contentBytesLimit(planLimit(row?.eventsLimit)) };
}

/** "50 MB", "5 GB", "0.1 MB": a size to one decimal, rounded up, so that "needs N MB more" is never too little. */
export function sizeText(bytes: number): string {
  const [unit, size] = bytes >= 1024 * MIB ? ["GB", 1024 * MIB] : ["MB", MIB];
  const tenths = Math.ceil((bytes / size) * 10) / 10;
  return `${tenths.toLocaleString("en-US")} ${unit}`;
}

export const contentBudgetExceeded = (limit: number, over: number) =>
  `Your plan stores at most ${sizeText(limit)} of content; this change needs ${sizeText(over)} more. ` +
  "Delete mappings or upgrade your plan.";

/** The refusal of a write that adds `growth` bytes to an account that stores `used` of `limit`, or null. */
export function contentRefusal(budget: { used: number; limit: number }, growth: number): string | null {
  const over = budget.used + growth - budget.limit;
  return growth > 0 && over > 0 ? contentBudgetExceeded(budget.limit, over) : null;
}

/** Refuses (403) a write that adds `growth` bytes past the customer's content budget. */
export async function assertContentFits(db: Db, user: User, growth: number): Promise<void> {
  if (growth <= 0) return;
  const refusal = contentRefusal(await contentBudgetOf(db, user.id), growth);
  if (refusal) throw new Refusal(403, refusal);
}
