/**
 * @module Preview links (docs/publishing.md): the mapping's page URL with `dc_preview=<token>`, where the token
 * names the customer, the mapping and the mapping's preview key, expires after 24 hours and is signed with
 * HMAC-SHA256 under a key derived from APP_SECRET. Opened in a browser, the page shows that mapping's current
 * content, a draft's too, to whoever holds the link, in snippet and edge mode alike: the snippet sends the page URL
 * with the parameter to the content endpoint, the edge proxy sees it on the page request. A preview is never
 * counted as a page view and never cached (`no-store`); the URL of a link that does not verify delivers nothing,
 * rather than the live content.
 *
 * Fail closed: without a usable APP_SECRET no link is made or honoured (its key would be guessable). The customer
 * revokes every link of a mapping at once (`DELETE /api/mappings/{id}/preview`): its preview key is cleared, and
 * the next link gets a new one.
 */
import { and, eq } from "drizzle-orm";
import { normalizeUrl } from "#contract/normalize-url";
import { isPrefixUrl, prefixCandidates } from "#contract/url-rules";
import { createDb } from "../db/client";
import { appSecretProblem } from "../http/app-secret-check";
import { ensurePreviewKey } from "../models/preview-keys";
import { urlMappings, users } from "../db/schema";
import type { Env } from "../env";
import { readSignedClaims, signClaims } from "../lib/signed-claims";
import { deliveredFromMapping, type DeliveredMapping } from "./store";
import { variantByKey } from "./variant";

/** The mapping's own content (its control's), without what the hot path would pick a variant from. */
const withoutExperiment = ({ experiment: _, ...delivered }: DeliveredMapping): DeliveredMapping => delivered;

export const PREVIEW_PARAM = "dc_preview";
export const PREVIEW_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Who and what a token names: the customer's id, the mapping's id, the mapping's preview key, and when it expires
 * (unix seconds).
 */
interface PreviewClaims {
  u: string;
  m: number;
  k: string;
  e: number;
  /** The experiment's variant the link shows (absent: the mapping as it is, its control). */
  v?: string;
}

const signingKey = (env: Env) => `dynamic-content:preview:${env.APP_SECRET}`;

/**
 * A preview link to the mapping's page (for a prefix mapping, the page the prefix names); with `variant`, one that
 * shows that variant of the mapping's experiment.
 */
export async function previewLink(
  env: Env,
  mapping: { id: number; userId: string; url: string },
  now = new Date(),
  variant?: string,
): Promise<{ url: string; expiresAt: string }> {
  const expiresAt = new Date(now.getTime() + PREVIEW_TTL_MS);
  const key = await ensurePreviewKey(createDb(env.DB), mapping.userId, mapping.id);
  if (!key) throw new Error(`Mapping ${mapping.id} of ${mapping.userId} is gone`);
  const claims: PreviewClaims = {
    u: mapping.userId,
    m: mapping.id,
    k: key,
    e: Math.floor(expiresAt.getTime() / 1000),
    ...(variant === undefined ? {} : { v: variant }),
  };
  const token = await signClaims(signingKey(env), claims);
  const url = new URL(mapping.url.trim().replace(/\/\*$/, "/"));
  url.searchParams.set(PREVIEW_PARAM, token);
  return { url: url.href, expiresAt: expiresAt.toISOString() };
}

/** Whether a page URL asks for a preview (a plain text test, so the hot path parses nothing more for others). */
export const asksForPreview = (pageUrl: string) => pageUrl.includes(`${PREVIEW_PARAM}=`);

/** The page URL without the preview parameter: what the page is, and what its origin is asked for. */
export function withoutPreview(pageUrl: string): string {
  if (!URL.canParse(pageUrl)) return pageUrl;
  const url = new URL(pageUrl);
  url.searchParams.delete(PREVIEW_PARAM);
  return url.href;
}

const readClaims = (env: Env, token: string, now: Date) => readSignedClaims<PreviewClaims>(signingKey(env), token, now);

/**
 * What a preview link delivers on the page it was opened on: the mapping its token names, as it is now, when the
 * token verifies, has not expired, is this customer's, the customer is active, and the page is the mapping's
 * (its URL, or under its prefix). Otherwise nothing. One D1 read: previews are rare, and never on the hot path of
 * other page views.
 */
export async function previewDelivery(
  env: Env,
  userId: string,
  pageUrl: string,
  now = new Date(),
): Promise<DeliveredMapping | undefined> {
  if (!URL.canParse(pageUrl) || appSecretProblem(env)) return undefined;
  const token = new URL(pageUrl).searchParams.get(PREVIEW_PARAM);
  const claims = token ? await readClaims(env, token, now) : null;
  if (!claims || claims.u !== userId) return undefined;
  const [row] = await createDb(env.DB)
    .select({
      id: urlMappings.id,
      htmlContent: urlMappings.htmlContent,
      placement: urlMappings.placement,
      seo: urlMappings.seo,
      experiment: urlMappings.experiment,
      normalizedUrl: urlMappings.normalizedUrl,
      previewKey: urlMappings.previewKey,
      ignoredParameters: users.ignoredParameters,
    })
    .from(urlMappings)
    .innerJoin(users, eq(users.id, urlMappings.userId))
    .where(and(eq(urlMappings.id, claims.m), eq(urlMappings.userId, userId), eq(users.isActive, true)));
  if (!row || row.previewKey === null || row.previewKey !== claims.k) return undefined;
  const page = normalizeUrl(withoutPreview(pageUrl), row.ignoredParameters);
  const onItsPage = isPrefixUrl(row.normalizedUrl)
    ? prefixCandidates(page).includes(row.normalizedUrl)
    : page === row.normalizedUrl;
  if (!onItsPage) return undefined;
  const delivered = deliveredFromMapping(row);
  // A variant the experiment no longer has shows the control.
  return (claims.v === undefined ? undefined : variantByKey(delivered, claims.v)) ?? withoutExperiment(delivered);
}
