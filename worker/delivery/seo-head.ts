/**
 * @module A mapping's SEO fields as the page gets them (docs/placement.md): the tags the edge proxy writes into
 * <head>, escaped, and the same fields as the snippet sets them through the DOM. Every value is the customer's, so
 * every one is escaped for where it goes: text, an attribute, or the inside of a <script>.
 */
import type { Seo } from "#contract/seo";
import { CONTAINER_ATTRIBUTE } from "#contract/delivery-paths";

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * JSON-LD as the text of a <script>: JSON whose `<`, `>` and `&` are written as escapes, so that no `</script>`
 * or `<!--` can end or bend the element; U+2028 and U+2029 too, which some parsers take for line ends.
 */
export const jsonLdText = (jsonLd: unknown) =>
  JSON.stringify(jsonLd).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** The head elements a mapping sets besides its title: `[tag, key, name, attribute, value]`. */
export type HeadElement = ["meta" | "link", "name" | "rel", string, "content" | "href", string];

export function headElements(seo: Seo): HeadElement[] {
  const elements: HeadElement[] = [];
  if (seo.description) elements.push(["meta", "name", "description", "content", seo.description]);
  if (seo.robots) elements.push(["meta", "name", "robots", "content", seo.robots]);
  if (seo.canonical) elements.push(["link", "rel", "canonical", "href", seo.canonical]);
  return elements;
}

/** The selectors of the page's own elements that the mapping's fields take the place of. */
export function replacedHeadSelectors(seo: Seo): string[] {
  return [
    ...(seo.title ? ["head title"] : []),
    ...headElements(seo).map(([tag, key, name]) => `head ${tag}[${key}="${name}"]`),
  ];
}

/**
 * The tags the edge proxy writes at the end of <head>, marked as the snippet marks what it adds (so that it removes
 * them when a single-page app moves to another page); the title is left to the app, as the snippet leaves it.
 */
export function seoHeadHtml(seo: Seo): string {
  const mark = `${CONTAINER_ATTRIBUTE}=""`;
  return [
    ...(seo.title ? [`<title>${escapeHtml(seo.title)}</title>`] : []),
    ...headElements(seo).map(
      ([tag, key, name, attribute, value]) => `<${tag} ${mark} ${key}="${name}" ${attribute}="${escapeHtml(value)}">`,
    ),
    ...(seo.jsonLd === undefined
      ? []
      : [`<script ${mark} type="application/ld+json">${jsonLdText(seo.jsonLd)}</script>`]),
  ].join("");
}
