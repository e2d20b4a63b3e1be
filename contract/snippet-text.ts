/**
 * @module The exact text a customer pastes into their pages. The Worker fills it in for the dashboards; the
 * public /snippet page shows it with a placeholder id.
 */
export const USER_ID_PLACEHOLDER = "YOUR_USER_ID";

export function snippetText(origin: string, userId: string = USER_ID_PLACEHOLDER): string {
  return [
    "<script>",
    "  window.setDynamicContentUserId = function (id) { window.dynamicContentUserId = id; };",
    `  setDynamicContentUserId(${JSON.stringify(userId)});`,
    "</script>",
    `<script async src="${origin}/snippet.js"></script>`,
  ].join("\n");
}
