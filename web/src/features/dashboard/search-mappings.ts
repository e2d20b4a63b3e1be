import type { Mapping } from "../../../../worker/contract/responses";

/** The mappings whose URL or HTML content contains `term`, ignoring case; all of them for a blank term. */
export function searchMappings<M extends Mapping>(mappings: readonly M[], term: string): M[] {
  const needle = term.trim().toLowerCase();
  if (!needle) return [...mappings];
  return mappings.filter((m) => m.url.toLowerCase().includes(needle) || m.htmlContent.toLowerCase().includes(needle));
}
