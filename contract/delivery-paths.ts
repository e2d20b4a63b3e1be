/** @module The paths of delivery: what customers' pages load, from any origin, and all a delivery host serves. */
export const SNIPPET_PATH = "/snippet.js";
export const CONTENT_PATH = "/api/content";
/** Where the snippet's `dynamicContent.goal(name)` reports a goal reached (docs/experiments.md). */
export const GOALS_PATH = "/api/goals";
/**
 * The attribute of the container that holds a page's content, written by the snippet (snippet.js `MARK`) and by
 * the edge proxy alike: a snippet that finds it on first load knows the edge delivered the page.
 */
export const CONTAINER_ATTRIBUTE = "data-dynamic-content";
/** What the edge proxy puts first in <head> of a page it delivered content into; snippet.js looks for it. */
export const EDGE_MARK = '<meta name="dynamic-content" content="edge">';

export function isDeliveryPath(path: string): boolean {
  return path === SNIPPET_PATH || path === CONTENT_PATH || path.startsWith(`${CONTENT_PATH}/`) || path === GOALS_PATH;
}
