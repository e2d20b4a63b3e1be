/**
 * @module Placement: where a mapping's content goes on its page (docs/placement.md). At the top of <body> (the
 * default, SPEC.md's behaviour), or before, after, inside (as the first child) or instead of the first element a
 * CSS selector names. The edge proxy places it with HTMLRewriter and the snippet with `querySelector`, so a
 * selector must mean the same to both: it is held to the part of CSS that both understand (SELECTOR_GRAMMAR).
 */
import { z } from "zod";
import { tooLong } from "./input-caps";

export const PLACEMENT_POSITIONS = ["body-start", "before", "after", "inside", "replace"] as const;
export type PlacementPosition = (typeof PLACEMENT_POSITIONS)[number];

export type Placement =
  { position: "body-start" } | { position: Exclude<PlacementPosition, "body-start">; selector: string };

export const DEFAULT_PLACEMENT: Placement = { position: "body-start" };

/** Each position as the snippet places it: an `insertAdjacentElement` position, or "replace" (absent: first in <body>). */
export const PLACEMENT_DOM_POSITIONS = {
  before: "beforebegin",
  after: "afterend",
  inside: "afterbegin",
  replace: "replace",
} as const;
export type PlacementDomPosition = (typeof PLACEMENT_DOM_POSITIONS)[keyof typeof PLACEMENT_DOM_POSITIONS];

export const SELECTOR_MAX_LENGTH = 200;

const ident = String.raw`-?[A-Za-z_][A-Za-z0-9_-]*`;
const attributeValue = String.raw`(?:"[^"\\\n]*"|'[^'\\\n]*'|${ident})`;
const attribute = String.raw`\[\s*${ident}\s*(?:[~^$*|]?=\s*${attributeValue}\s*)?\]`;
const nth = String.raw`(?:odd|even|[+-]?\d+|[+-]?\d*n(?:\s*[+-]\s*\d+)?)`;
const pseudo = String.raw`:(?:first-child|first-of-type|nth-child\(\s*${nth}\s*\)|nth-of-type\(\s*${nth}\s*\))`;
const qualifier = String.raw`(?:#${ident}|\.${ident}|${attribute}|${pseudo})`;
const compound = String.raw`(?:(?:${ident}|\*)${qualifier}*|${qualifier}+)`;

/**
 * Compound selectors of a type, `#id`, `.class`, `[attr]`, `[attr=value]` (and `~= ^= $= *= |=`),
 * `:first-child`, `:first-of-type`, `:nth-child()` and `:nth-of-type()`, joined by descendant or child (`>`)
 * combinators: what Cloudflare's HTMLRewriter supports and every browser does. Sibling combinators, `:not()`
 * and the rest of CSS are refused, with a message, rather than meaning something else at the edge.
 */
export const SELECTOR_GRAMMAR = new RegExp(String.raw`^${compound}(?:\s*>\s*${compound}|\s+${compound})*$`);

export const SELECTOR_REQUIRED = 'A selector is required for "before", "after", "inside" and "replace"';
export const SELECTOR_NOT_USED = 'The top of <body> ("body-start") takes no selector';
export const SELECTOR_UNSUPPORTED =
  "The selector must use types, #ids, .classes, [attributes], :first-child, :nth-child() or :nth-of-type(), joined by spaces or >";

export const placementSchema = z
  .object({
    position: z.enum(PLACEMENT_POSITIONS, {
      error: 'Position must be "body-start", "before", "after", "inside" or "replace"',
    }),
    selector: z
      .string({ error: "The selector must be text" })
      .trim()
      .max(SELECTOR_MAX_LENGTH, tooLong("Selector", SELECTOR_MAX_LENGTH))
      .optional(),
  })
  .transform((placement, ctx): Placement => {
    const selector = placement.selector || undefined;
    if (placement.position === "body-start") {
      if (selector) ctx.addIssue({ code: "custom", message: SELECTOR_NOT_USED, path: ["selector"] });
      return DEFAULT_PLACEMENT;
    }
    if (!selector) ctx.addIssue({ code: "custom", message: SELECTOR_REQUIRED, path: ["selector"] });
    else if (!SELECTOR_GRAMMAR.test(selector)) {
      ctx.addIssue({ code: "custom", message: SELECTOR_UNSUPPORTED, path: ["selector"] });
    }
    return { position: placement.position, selector: selector ?? "" };
  });

export const isDefaultPlacement = (placement: Placement | null | undefined) =>
  !placement || placement.position === "body-start";

/** `GET /api/mappings/{id}/placement-health`: the last 7 days (docs/placement.md, "Selector health"). */
export interface PlacementHealth {
  /** Views that delivered the mapping's content while it had a selector. */
  views: number;
  /** Of those, the views whose selector named no element on the page. */
  misses: number;
  /** The last miss (milliseconds since the epoch), or null. */
  lastMissAt: number | null;
}
