/**
 * @module The subresources of an edge website's pages (docs/edge-delivery.md, "Assets from another host"): which
 * attributes name a URL the browser fetches as the page loads, whether that URL is on the website's own hosts (so
 * that its request runs the Worker), and the same URL on the website's asset origin, which the browser then fetches
 * without the Worker. Pure: the edge rewrite (edge-rewrite.ts) applies it with HTMLRewriter, and the bench counts
 * what remains on a page's text with `countSameHostSubresources`.
 */
import { websiteName } from "../http/origin";

/** The elements that fetch on load, and their URL attributes (a `link` only for `FETCHING_RELS`). */
export const SUBRESOURCE_ATTRIBUTES = {
  img: ["src", "srcset"],
  source: ["src", "srcset"],
  script: ["src"],
  link: ["href", "imagesrcset"],
  video: ["src", "poster"],
  audio: ["src"],
} as const;

export type SubresourceElement = keyof typeof SUBRESOURCE_ATTRIBUTES;

const SUBRESOURCE_ELEMENTS = new Set<string>(Object.keys(SUBRESOURCE_ATTRIBUTES));

/** The `rel`s of a `link` that fetches on load; canonical, alternate, manifest and the like stay on the website. */
const FETCHING_RELS = ["stylesheet", "icon", "preload", "modulepreload"];

const isSrcset = (attribute: string) => attribute === "srcset" || attribute === "imagesrcset";

/**
 * Whether an element fetches its URL attributes as a subresource that may come from another host. Not a `link` of
 * another `rel`; not a file with subresource integrity (`integrity`) but no `crossorigin`: from another host the
 * browser would fetch it without CORS and then refuse it.
 */
export function fetchesSubresource(element: string, attribute: (name: string) => string | null): boolean {
  if (!SUBRESOURCE_ELEMENTS.has(element)) return false;
  if (element === "link") {
    const rels = (attribute("rel") ?? "").toLowerCase().split(/\s+/);
    if (!FETCHING_RELS.some((rel) => rels.includes(rel))) return false;
  }
  return attribute("integrity") === null || attribute("crossorigin") !== null;
}

interface SrcsetCandidate {
  url: string;
  descriptor: string;
}

/** A srcset's candidates as HTML parses them: a URL, then descriptors up to a comma outside parentheses. */
function srcsetCandidates(value: string): SrcsetCandidate[] {
  const candidates: SrcsetCandidate[] = [];
  let at = 0;
  while (at < value.length) {
    while (at < value.length && /[\s,]/.test(value[at]!)) at++;
    const start = at;
    while (at < value.length && !/\s/.test(value[at]!)) at++;
    let url = value.slice(start, at);
    let descriptor = "";
    if (url.endsWith(",")) url = url.replace(/,+$/, "");
    else {
      const from = at;
      let depth = 0;
      while (at < value.length && (value[at] !== "," || depth > 0)) {
        if (value[at] === "(") depth++;
        else if (value[at] === ")") depth = Math.max(0, depth - 1);
        at++;
      }
      descriptor = value.slice(from, at).trim();
    }
    if (url) candidates.push({ url, descriptor });
  }
  return candidates;
}

/**
 * The URLs of one page, as its browser resolves them: against the page's address, or the first `<base href>`. A URL
 * is the website's own when it is http(s) on one of the website's hosts (its name and `www.` twins) at the page's
 * port: a request for it reaches the Worker.
 */
export class PageUrls {
  private base: URL;
  private baseSet = false;
  private readonly website: string;
  private readonly port: string;

  constructor(page: URL) {
    this.base = page;
    this.website = websiteName(page.hostname);
    this.port = page.port;
  }

  /** A `<base href>`: only the first counts, as in browsers. */
  setBase(href: string): void {
    if (this.baseSet) return;
    this.baseSet = true;
    if (URL.canParse(href.trim(), this.base)) this.base = new URL(href.trim(), this.base);
  }

  /** The URL `value` names when it is one of the website's own; an empty value names no subresource. */
  ownUrl(value: string): URL | null {
    const trimmed = value.trim();
    if (!trimmed || !URL.canParse(trimmed, this.base)) return null;
    const url = new URL(trimmed, this.base);
    const own =
      (url.protocol === "https:" || url.protocol === "http:") &&
      websiteName(url.hostname) === this.website &&
      url.port === this.port;
    return own ? url : null;
  }

  /** The website's own URLs an attribute names: a srcset's candidates, else its value. */
  ownUrls(attribute: string, value: string): URL[] {
    const urls = isSrcset(attribute) ? srcsetCandidates(value).map((c) => c.url) : [value];
    return urls.flatMap((url) => this.ownUrl(url) ?? []);
  }

  /**
   * The attribute's value with each of the website's own URLs moved to `assetOrigin` (same path, query and
   * fragment), or null when it names none. Other hosts' URLs, data: URLs and the like stay as they are.
   */
  movedTo(assetOrigin: string, attribute: string, value: string): string | null {
    const moved = (url: string) => {
      const own = this.ownUrl(url);
      return own ? `${assetOrigin}${own.pathname}${own.search}${own.hash}` : null;
    };
    if (!isSrcset(attribute)) return moved(value);
    const candidates = srcsetCandidates(value);
    let changed = false;
    const rewritten = candidates.map(({ url, descriptor }) => {
      const to = moved(url);
      if (to) changed = true;
      return descriptor ? `${to ?? url} ${descriptor}` : (to ?? url);
    });
    return changed ? rewritten.join(", ") : null;
  }
}

/** An HTML start tag, a comment, or a doctype; attributes quoted either way or not at all. */
const TAG =
  /<!--[\s\S]*?-->|<!\w[^>]*>|<([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?|\s*\/)*)\s*>/g;
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
/** Elements whose text is not markup: skipped to their end tag. */
const RAW_TEXT = new Set(["script", "style", "textarea", "title", "xmp", "noembed", "noframes"]);

function attributesOf(text: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const [, name, double, single, bare] of text.matchAll(ATTRIBUTE)) {
    const key = name!.toLowerCase();
    // The first of a repeated attribute counts, as in browsers.
    if (!attributes.has(key)) attributes.set(key, double ?? single ?? bare ?? "");
  }
  return attributes;
}

/**
 * How many requests for the website's own subresources a page's HTML still makes, each distinct URL once: what its
 * view costs in Worker requests beyond the page itself, when none is in the browser's cache. An element is one
 * request (an `img` or `source` fetches one of its src and srcset; a video its poster and its src: two). URLs in
 * CSS and scripts are not counted. For the bench (scripts/perf); `pageUrl` is the page's address.
 */
export function countSameHostSubresources(html: string, pageUrl: string): number {
  const urls = new PageUrls(new URL(pageUrl));
  const requested = new Set<string>();
  const lowercase = html.toLowerCase();
  const tags = new RegExp(TAG.source, "g");
  for (let match = tags.exec(html); match; match = tags.exec(html)) {
    const element = match[1]?.toLowerCase();
    if (!element) continue;
    const attributes = attributesOf(match[2] ?? "");
    const attribute = (name: string) => attributes.get(name) ?? null;
    if (RAW_TEXT.has(element)) {
      const end = lowercase.indexOf(`</${element}`, tags.lastIndex);
      tags.lastIndex = end < 0 ? html.length : end;
    }
    if (element === "base" && attributes.has("href")) urls.setBase(attributes.get("href")!);
    if (!fetchesSubresource(element, attribute)) continue;
    const fetches: string[][] =
      element === "img" || element === "source"
        ? [["srcset", "src"]]
        : element === "link"
          ? [["imagesrcset", "href"]]
          : SUBRESOURCE_ATTRIBUTES[element as SubresourceElement].map((name) => [name]);
    for (const names of fetches) {
      // The first attribute the element has is the one it fetches from (a srcset before a src).
      const name = names.find((n) => attributes.has(n));
      const own = name ? urls.ownUrls(name, attributes.get(name)!)[0] : undefined;
      if (own) requested.add(own.href);
    }
  }
  return requested.size;
}
