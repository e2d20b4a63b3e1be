/**
 * @module The selector "Pick on page" (docs/placement.md) fills in for the element a customer clicks: short and
 * stable, unique on the page, within the placement grammar (SELECTOR_GRAMMAR) and SELECTOR_MAX_LENGTH. Tried in
 * order: the element's `#id`; a `[data-*="value"]` attribute; its stable classes; each of those under the nearest
 * ancestor that has an id; last a `>` path from that ancestor (or `body`) with `:nth-of-type()` only where a step
 * is not unique among its siblings.
 *
 * `pickSelector` refers to nothing outside its own body: the Worker injects its source (`Function.prototype.toString`)
 * into the framed page as the picker script's builder, so that page and tests run the same code.
 */

/** The `type` of the message the picker in the frame posts to the dashboard: `{type, selector}`. */
export const PICK_MESSAGE_TYPE = "dynamic-content:pick";

/**
 * What the builder reads of a DOM element (structural: contract/ is compiled for the Worker too, where `Element` is
 * HTMLRewriter's).
 */
export interface PickableElement {
  id: string;
  tagName: string;
  attributes: ArrayLike<{ name: string; value: string }>;
  classList: ArrayLike<string>;
  parentElement: PickableElement | null;
  children: ArrayLike<PickableElement>;
  ownerDocument: { querySelectorAll(selector: string): ArrayLike<unknown>; documentElement: PickableElement };
}

/** The selector for `element`, or null when none within the grammar and the length cap names it alone. */
export function pickSelector(element: PickableElement): string | null {
  const MAX_LENGTH = 200;
  const IDENT = /^-?[A-Za-z_][A-Za-z0-9_-]*$/;
  // Classes that frameworks generate or that state changes: hashed (css-modules, styled-components, emotion),
  // utility-looking with digits, or interaction states.
  const UNSTABLE_CLASS =
    /(^|[-_])(css|sc|jsx|emotion)[-_]|[0-9a-f]{5,}|__[A-Za-z0-9]{4,}$|^(is|has)-|^(active|hover|focus|open|selected|hidden|visible)$/i;
  const doc = element.ownerDocument;
  const unique = (selector: string) => {
    if (selector.length > MAX_LENGTH) return false;
    try {
      const found = doc.querySelectorAll(selector);
      return found.length === 1 && found[0] === element;
    } catch {
      return false;
    }
  };
  const tag = (el: PickableElement) => el.tagName.toLowerCase();
  const idOf = (el: PickableElement) => (el.id && IDENT.test(el.id) ? `#${el.id}` : null);
  const dataAttributes = (el: PickableElement) =>
    Array.from(el.attributes)
      .filter((a) => a.name.startsWith("data-") && IDENT.test(a.name) && /^[^"\\\n]{1,60}$/.test(a.value))
      .map((a) => `[${a.name}="${a.value}"]`);
  const stableClasses = (el: PickableElement) =>
    Array.from(el.classList).filter((c) => IDENT.test(c) && !UNSTABLE_CLASS.test(c));

  /** Selectors of the element by itself, best first. */
  const ownCandidates = (el: PickableElement): string[] => {
    const candidates: string[] = [];
    const id = idOf(el);
    if (id) candidates.push(id);
    for (const data of dataAttributes(el)) candidates.push(data, `${tag(el)}${data}`);
    const classes = stableClasses(el);
    for (const c of classes) candidates.push(`.${c}`, `${tag(el)}.${c}`);
    if (classes.length > 1) candidates.push(`${tag(el)}.${classes.join(".")}`);
    return candidates;
  };

  const own = ownCandidates(element);
  for (const candidate of own) if (unique(candidate)) return candidate;

  let anchor: PickableElement | null = element.parentElement;
  while (anchor && !idOf(anchor) && tag(anchor) !== "body") anchor = anchor.parentElement;
  const anchorSelector = anchor ? (idOf(anchor) ?? "body") : null;
  if (anchorSelector) {
    for (const candidate of [...own, tag(element)]) {
      if (unique(`${anchorSelector} ${candidate}`)) return `${anchorSelector} ${candidate}`;
    }
  }

  // A child path from the anchor, each step as short as its siblings allow.
  const steps: string[] = [];
  for (let el: PickableElement | null = element; el && el !== anchor; el = el.parentElement) {
    const parent: PickableElement | null = el.parentElement;
    if (!parent) return null;
    const tagName = el.tagName;
    const sameTag = Array.from(parent.children).filter((sibling) => sibling.tagName === tagName);
    const step = sameTag.length === 1 ? tag(el) : `${tag(el)}:nth-of-type(${sameTag.indexOf(el) + 1})`;
    steps.unshift(step);
  }
  const path = [anchorSelector ?? tag(element.ownerDocument.documentElement), ...steps].join(" > ");
  return unique(path) ? path : null;
}
