/**
 * @module The snippet's placement (worker/snippet/snippet.js `inject`, docs/placement.md) for the pick-on-page frame's
 * live view: the content in one marked container, on the first element the selector names, at the snippet's
 * position; the last placed container removed first (an element it replaced put back). The snippet cannot import it
 * (one minified IIFE within its byte budget), so this is the one copy outside it, tested position by position.
 *
 * `placeContent` refers to nothing outside its own body: the Worker injects its source (`Function.prototype.toString`)
 * into the framed page, as it does `pickSelector`, so that page and tests run the same code.
 */
import type { PlacementDomPosition, PlacementPosition } from "./placement";

/** The `type` of the message the dashboard posts to the frame: `{type, html, position, selector}`. */
export const SHOW_MESSAGE_TYPE = "dynamic-content:show";

/** The dashboard's message: the form's HTML at its position and selector. */
export interface ShowMessage {
  type: typeof SHOW_MESSAGE_TYPE;
  html: string;
  position: PlacementPosition;
  selector: string;
}

/** The snippet's answer fields that say what goes where (delivery/content-route.ts `SnippetAnswer`). */
export interface PlacedContent {
  h: string;
  p?: PlacementDomPosition;
  s?: string;
}

/** What placing touches of a DOM element (structural: contract/ is compiled for the Worker too). */
interface PlaceableElement<E> {
  /** The element a "replace" container stands in for. */
  r?: E;
  innerHTML: string;
  setAttribute(name: string, value: string): void;
  replaceWith(node: E): void;
  remove(): void;
  insertAdjacentElement(position: Exclude<PlacementDomPosition, "replace">, element: E): unknown;
}

interface PlaceableDocument<E> {
  body: E;
  querySelector(selector: string): E | null;
  querySelectorAll(selector: string): { forEach(each: (element: E) => void): void };
  createElement(tag: string): E;
}

/** Places `content` as the snippet does; false when the selector names no element (nothing is placed). */
export function placeContent<E extends PlaceableElement<E>>(
  doc: PlaceableDocument<E>,
  content: PlacedContent,
): boolean {
  const MARK = "data-dynamic-content";
  doc.querySelectorAll("[" + MARK + "]").forEach((old) => (old.r ? old.replaceWith(old.r) : old.remove()));
  let el: E | null = null;
  try {
    el = content.s ? doc.querySelector(content.s) : doc.body;
  } catch {
    el = null;
  }
  if (!el) return false;
  if (!content.h) return true;
  const box = doc.createElement("div");
  box.setAttribute(MARK, "");
  box.innerHTML = content.h;
  if (content.p === "replace") {
    box.r = el;
    el.replaceWith(box);
  } else el.insertAdjacentElement(content.p || "afterbegin", box);
  return true;
}
