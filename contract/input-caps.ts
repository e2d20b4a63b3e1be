/**
 * @module The caps on what people send, shared by the Worker's validation and the SPA's forms so that both say
 * the same thing (docs/decisions.md, "Input caps"). The caps on whole request bodies are the Worker's alone
 * (`worker/http/body-limit.ts`).
 */

/** A mapping's HTML, in UTF-8 bytes: 256 KB. */
export const HTML_CONTENT_MAX_BYTES = 256 * 1024;
export const URL_MAX_LENGTH = 2_048;
/** RFC 5321's longest forward path. */
export const EMAIL_MAX_LENGTH = 254;
export const PASSWORD_MAX_LENGTH = 1_024;
/** A DNS name. */
export const HOST_MAX_LENGTH = 253;
export const NAME_MAX_LENGTH = 100;
export const DESCRIPTION_MAX_LENGTH = 1_000;
/** PayPal's plan, subscription and transaction ids, payment statuses, user ids. */
export const IDENTIFIER_MAX_LENGTH = 100;
export const SEARCH_TERM_MAX_LENGTH = 200;
/** How much of a mapping's HTML the admin's lists carry; the whole of one is fetched when it is opened. */
export const HTML_PREVIEW_CHARS = 300;
export const DATE_MAX_LENGTH = 64;
/** The digits of an emailed login code (SPEC.md: 5). */
export const LOGIN_CODE_DIGITS = 5;

const encoder = new TextEncoder();

export const utf8Length = (s: string) => encoder.encode(s).byteLength;

export const formatNumber = (n: number) => n.toLocaleString("en-US");

/** The message for a string over its cap, naming the cap. */
export const tooLong = (field: string, max: number) => `${field} must be at most ${formatNumber(max)} characters`;

export const HTML_CONTENT_TOO_LARGE = `HTML content must be at most 256 KB (${formatNumber(HTML_CONTENT_MAX_BYTES)} bytes)`;
export const URL_NOT_HTTP = "URL must start with http:// or https://";

/**
 * How deep free JSON a customer stores (JSON-LD) may nest, counting each object and array: SQLite's JSON functions
 * refuse documents deeper than 1,000 levels, and real JSON-LD needs a handful.
 */
export const JSON_MAX_DEPTH = 20;
export const JSON_TOO_DEEP = (field: string, max = JSON_MAX_DEPTH) =>
  `${field} must be nested at most ${formatNumber(max)} levels deep`;

/**
 * Where `value` nests deeper than `max` objects and arrays: the path of keys to the first container past it, or
 * null when it does not. Walks with a stack of its own, so no depth can overflow the call stack.
 */
export function jsonDepthOver(value: unknown, max: number): (string | number)[] | null {
  interface Step {
    value: unknown;
    depth: number;
    key: string | number | null;
    parent: Step | null;
  }
  if (typeof value !== "object" || value === null) return null;
  const stack: Step[] = [{ value, depth: 1, key: null, parent: null }];
  while (stack.length > 0) {
    const step = stack.pop()!;
    if (step.depth > max) {
      const path: (string | number)[] = [];
      for (let s: Step | null = step; s?.key != null; s = s.parent) path.unshift(s.key);
      return path;
    }
    const entries: [string | number, unknown][] = Array.isArray(step.value)
      ? step.value.map((item, i) => [i, item])
      : Object.entries(step.value as object);
    for (const [key, child] of entries) {
      if (typeof child === "object" && child !== null)
        stack.push({ value: child, depth: step.depth + 1, key, parent: step });
    }
  }
  return null;
}

/** A path of `jsonDepthOver` as people read it: `variants[1].seo.jsonLd`. */
export const jsonPathText = (path: (string | number)[]) =>
  path.map((key, i) => (typeof key === "number" ? `[${key}]` : i === 0 ? key : `.${key}`)).join("");
