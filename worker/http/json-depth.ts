/**
 * @module The belt under the schemas' own caps: no JSON a request sends may nest deeper than any schema needs, so
 * no free JSON a schema forgot can reach D1 too deep for SQLite's JSON functions (1,000 levels; docs/decisions.md,
 * "Issue 38: no input can stop shared work").
 */
import { formatNumber, jsonDepthOver, jsonPathText } from "#contract/input-caps";

/** Deeper than any schema nests (a variant's JSON-LD sits 4 levels down and may nest 20). */
export const JSON_BODY_MAX_DEPTH = 32;

/** Why `value` (a body, or what a schema made of it) is refused for its nesting, naming where; null when it is not. */
export function bodyTooDeep(value: unknown, what = "The body"): string | null {
  const path = jsonDepthOver(value, JSON_BODY_MAX_DEPTH);
  if (!path) return null;
  const where = path.length > 0 ? ` at ${jsonPathText(path)}` : "";
  return `${what} must be nested at most ${formatNumber(JSON_BODY_MAX_DEPTH)} levels deep; it goes deeper${where}`;
}
