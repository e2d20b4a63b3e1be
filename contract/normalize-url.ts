/**
 * @module URL normalisation of SPEC.md §2, shared by delivery (worker) and grouping (dashboards), after the URL
 * rules' first step (url-rules.ts): drop tracking parameters, then lowercase, drop the `#hash`, strip
 * `http(s)://` and a leading `www.`, remove trailing slashes.
 */
import { withoutTrackingParameters } from "./url-rules";

/** `ignoredParameters`: the customer's own tracking parameters, dropped like the usual ones. */
export function normalizeUrl(url: string, ignoredParameters: readonly string[] = []): string {
  let s = url.trim().toLowerCase();
  const hash = s.indexOf("#");
  if (hash >= 0) s = s.slice(0, hash);
  s = withoutTrackingParameters(s, ignoredParameters)
    .replace(/^https?:\/\//, "")
    .replace(/^www\./, "");
  return s.replace(/\/+$/, "");
}

/** The website of a normalised URL: everything before the first slash. */
export function hostOf(normalizedUrl: string): string {
  const slash = normalizedUrl.indexOf("/");
  return slash < 0 ? normalizedUrl : normalizedUrl.slice(0, slash);
}
