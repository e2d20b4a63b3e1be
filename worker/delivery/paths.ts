/** @module The paths of delivery: what customers' pages load, from any origin, and all a delivery host serves. */
export const SNIPPET_PATH = "/snippet.js";
export const CONTENT_PATH = "/api/content";

export function isDeliveryPath(path: string): boolean {
  return path === SNIPPET_PATH || path === CONTENT_PATH || path.startsWith(`${CONTENT_PATH}/`);
}
