import { useQuery } from "@tanstack/react-query";
import type { SiteConfig } from "#contract/responses";
import { getJson } from "@/lib/api";

export const siteConfigKeys = { all: ["site-config"] as const };

/**
 * GET /api/site-config (public): the marketing-site links and the tracking pixel the operator configured.
 * Loaded once per page load and kept across sign-in and sign-out (the same for every visitor). A failure is
 * not toasted: the screens then show no external links, as when none are configured.
 */
export function useSiteConfig() {
  return useQuery({
    queryKey: siteConfigKeys.all,
    queryFn: () => getJson<SiteConfig>("/api/site-config"),
    meta: { silent: true, keepAcrossSessions: true },
  });
}

/** The configured external links, or null (none configured, not loaded yet, or the call failed). */
export function useExternalLinks() {
  return useSiteConfig().data?.links ?? null;
}

/** The origin snippets load `snippet.js` from (the server's DELIVERY_ORIGIN); this page's own until it is known. */
export function useSnippetOrigin() {
  return useSiteConfig().data?.snippetOrigin ?? window.location.origin;
}
