/**
 * @module What the edge proxy does to a page it delivers content into, streamed with HTMLRewriter: the content in
 * the container the snippet uses, where the mapping's placement says (docs/placement.md), the mapping's SEO fields
 * at the end of <head> in place of the page's own, and the edge mark first in <head>, so that a snippet there,
 * which runs before <body> is parsed, does not ask again. With the website's asset origin set, the page's own
 * subresources are moved there (edge-subresources.ts), on every page, with content or without.
 */
import type { Placement } from "#contract/placement";
import { CONTAINER_ATTRIBUTE, EDGE_MARK } from "#contract/delivery-paths";
import { replacedHeadSelectors, seoHeadHtml } from "./seo-head";
import type { DeliveredMapping } from "./store";
import { fetchesSubresource, PageUrls, SUBRESOURCE_ATTRIBUTES } from "./edge-subresources";

const HTML = { html: true };

/** Puts the container where the placement says, on the first element its selector names. */
function place(element: Element, placement: Placement, container: string) {
  if (placement.position === "body-start" || placement.position === "inside") element.prepend(container, HTML);
  else if (placement.position === "before") element.before(container, HTML);
  else if (placement.position === "after") element.after(container, HTML);
  else element.replace(container, HTML);
}

/** A page's address and the origin its own subresources are fetched from instead (docs/edge-delivery.md). */
export interface AssetsFrom {
  page: URL;
  assetOrigin: string;
}

/** Moves the page's own subresource URLs to the asset origin; anchors, forms, frames and other hosts stay. */
function moveSubresources(rewriter: HTMLRewriter, { page, assetOrigin }: AssetsFrom): HTMLRewriter {
  const urls = new PageUrls(page);
  rewriter.on("base[href]", {
    element(base) {
      urls.setBase(base.getAttribute("href")!);
    },
  });
  for (const [tag, attributes] of Object.entries(SUBRESOURCE_ATTRIBUTES)) {
    rewriter.on(tag, {
      element(element) {
        if (!fetchesSubresource(tag, (name) => element.getAttribute(name))) return;
        for (const name of attributes) {
          const value = element.getAttribute(name);
          const moved = value === null ? null : urls.movedTo(assetOrigin, name, value);
          if (moved !== null) element.setAttribute(name, moved);
        }
      },
    });
  }
  return rewriter;
}

/** The origin's page, without content, its own subresources fetched from the asset origin. */
export function withAssetsFrom(answer: Response, assets: AssetsFrom): Response {
  return moveSubresources(new HTMLRewriter(), assets).transform(withoutOriginBodyHeaders(answer));
}

/**
 * The origin's answer with the delivered mapping in it. `onMiss` is told the mapping once the page has streamed when the
 * placement's selector named no element in it (docs/placement.md, "Selector health"). With `assets`, the page's own
 * subresources are moved in the same pass.
 */
export function withContent(
  answer: Response,
  delivered: DeliveredMapping,
  onMiss?: (mappingId: number) => void,
  assets?: AssetsFrom,
): Response {
  const placement = delivered.placement ?? { position: "body-start" };
  const container = `<div ${CONTAINER_ATTRIBUTE}="">${delivered.html}</div>`;
  const seoTags = delivered.seo ? seoHeadHtml(delivered.seo) : "";
  let marked = false;
  let placed = false;
  let seoWritten = !seoTags;
  const writeSeo = (write: (html: string) => void) => {
    if (seoWritten) return;
    seoWritten = true;
    write(seoTags);
  };
  const rewriter = new HTMLRewriter()
    .on("head", {
      element(head) {
        if (marked) return;
        marked = true;
        head.prepend(EDGE_MARK, HTML);
        // At the end of <head>: a large JSON-LD first would push <meta charset> past the 1,024 bytes browsers scan.
        head.onEndTag((end) => writeSeo((html) => end.before(html, HTML)));
      },
    })
    .on("body", {
      element(body) {
        // A <head> without its end tag (or no <head>): the tags go just before <body>, where HTML still puts them
        // into the head.
        writeSeo((html) => body.before(html, HTML));
        if (placement.position === "body-start" && !placed) {
          placed = true;
          place(body, placement, container);
        }
      },
    });
  for (const selector of delivered.seo ? replacedHeadSelectors(delivered.seo) : []) {
    rewriter.on(selector, {
      element(element) {
        element.remove();
      },
    });
  }
  if (assets) moveSubresources(rewriter, assets);
  if (placement.position !== "body-start") {
    rewriter.on(placement.selector, {
      element(element) {
        if (placed) return;
        placed = true;
        place(element, placement, container);
      },
    });
    if (onMiss) {
      rewriter.onDocument({
        end() {
          if (!placed) onMiss(delivered.mappingId);
        },
      });
    }
  }
  return rewriter.transform(withoutOriginBodyHeaders(answer));
}

/**
 * Headers of the origin's answer that describe the origin's body, not the rewritten one: its length, its range,
 * and the validators a browser would revalidate the page with against the origin (and keep stale content).
 */
const ORIGIN_BODY_HEADERS = ["Content-Length", "Content-Range", "ETag", "Last-Modified"];

/** The origin's answer without the headers that no longer hold once content is inserted. */
function withoutOriginBodyHeaders(answer: Response): Response {
  const headers = new Headers(answer.headers);
  for (const name of ORIGIN_BODY_HEADERS) headers.delete(name);
  return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers });
}
