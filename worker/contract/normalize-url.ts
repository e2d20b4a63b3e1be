/**
 * @module URL normalisation of SPEC.md §2, shared by delivery (worker) and grouping (dashboards):
 * lowercase, drop the `#hash`, strip `http(s)://` and a leading `www.`, remove trailing slashes.
 */
export function normalizeUrl(url: string): string {
  let s = url.trim().toLowerCase();
  const hash = s.indexOf("#");
  if (hash >= 0) s = s.slice(0, hash);
  s = s.replace(/^https?:\/\//, "").replace(/^www\./, "");
  return s.replace(/\/+$/, "");
}
