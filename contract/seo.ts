/**
 * @module SEO fields: what a mapping sets in its page's <head> besides its content (docs/placement.md): a title, a
 * meta description, a canonical URL, a robots directive and JSON-LD. Checked here on input; the edge proxy writes
 * them escaped (delivery/seo-head.ts), the snippet sets them through the DOM.
 */
import { z } from "zod";
import { JSON_MAX_DEPTH, JSON_TOO_DEEP, jsonDepthOver, tooLong, URL_MAX_LENGTH, utf8Length } from "./input-caps";

export interface Seo {
  title?: string;
  description?: string;
  canonical?: string;
  robots?: string;
  /** A JSON-LD object or array (its text in the page is written by the Worker, escaped). */
  jsonLd?: unknown;
}

export const SEO_TITLE_MAX_LENGTH = 200;
export const SEO_DESCRIPTION_MAX_LENGTH = 1_000;
export const SEO_ROBOTS_MAX_LENGTH = 200;
/** JSON-LD, in UTF-8 bytes as the Worker writes it: 32 KB. */
export const JSON_LD_MAX_BYTES = 32 * 1024;

/** The robots directives search engines document (Google's and Bing's), with their values where they take one. */
const ROBOTS_DIRECTIVE =
  /^(all|none|index|noindex|follow|nofollow|noarchive|nocache|nosnippet|notranslate|noimageindex|indexifembedded|noodp|noydir|max-snippet:\s*-?\d+|max-video-preview:\s*-?\d+|max-image-preview:\s*(none|standard|large)|unavailable_after:\s*[^,<>"]{1,64})$/i;

export const ROBOTS_INVALID =
  "Robots must be directives such as noindex, nofollow, max-snippet:50, separated by commas";
export const CANONICAL_INVALID = "The canonical URL must be an absolute http:// or https:// URL";
export const JSON_LD_INVALID = "JSON-LD must be a JSON object or array";
export const JSON_LD_TOO_LARGE = `JSON-LD must be at most 32 KB (${JSON_LD_MAX_BYTES.toLocaleString("en-US")} bytes)`;
export const JSON_LD_TOO_DEEP = JSON_TOO_DEEP("JSON-LD");

/** A text field; an empty one is no field. */
const optionalText = (field: string, max: number) =>
  z
    .string({ error: `${field} must be text` })
    .trim()
    .max(max, tooLong(field, max))
    .transform((s) => s || undefined)
    .optional();

const isJsonLd = (value: unknown) => typeof value === "object" && value !== null;

export const seoSchema = z
  .object({
    title: optionalText("Title", SEO_TITLE_MAX_LENGTH),
    description: optionalText("Description", SEO_DESCRIPTION_MAX_LENGTH),
    canonical: optionalText("Canonical URL", URL_MAX_LENGTH).refine(
      (url) => url === undefined || (/^https?:\/\//i.test(url) && URL.canParse(url)),
      CANONICAL_INVALID,
    ),
    robots: optionalText("Robots", SEO_ROBOTS_MAX_LENGTH).refine(
      (robots) => robots === undefined || robots.split(",").every((d) => ROBOTS_DIRECTIVE.test(d.trim())),
      ROBOTS_INVALID,
    ),
    /** The JSON itself, or its text (as a form sends it). */
    jsonLd: z
      .unknown()
      .transform((value, ctx) => {
        if (value === undefined || value === null || (typeof value === "string" && !value.trim())) return undefined;
        let parsed: unknown = value;
        if (typeof value === "string") {
          try {
            parsed = JSON.parse(value);
          } catch {
            parsed = undefined;
          }
        }
        if (!isJsonLd(parsed)) {
          ctx.addIssue({ code: "custom", message: JSON_LD_INVALID });
          return z.NEVER;
        }
        // Before its size: JSON.stringify walks the value by recursion.
        if (jsonDepthOver(parsed, JSON_MAX_DEPTH)) {
          ctx.addIssue({ code: "custom", message: JSON_LD_TOO_DEEP });
          return z.NEVER;
        }
        if (utf8Length(JSON.stringify(parsed)) > JSON_LD_MAX_BYTES) {
          ctx.addIssue({ code: "custom", message: JSON_LD_TOO_LARGE });
          return z.NEVER;
        }
        return parsed;
      })
      .optional(),
  })
  .transform((seo): Seo => {
    const present = Object.entries(seo).filter(([, value]) => value !== undefined);
    return Object.fromEntries(present);
  });

export const hasSeo = (seo: Seo | null | undefined): seo is Seo => !!seo && Object.keys(seo).length > 0;
