/**
 * @module "Pick on page" (docs/placement.md): the customer's page, fetched by the Worker under the outbound rule
 * (websites/install-check.ts `fetchPage`), served on an origin other than the dashboard's (`pickFrameOrigin`) for the
 * dashboard's sandboxed frame, with the page's own scripts removed and the picker script put in. A frame link holds
 * a token signed under APP_SECRET that names the customer and the page and expires after PICK_FRAME_TTL_MS, so that
 * nobody can use the Worker as an open proxy.
 */
import { placeContent, SHOW_MESSAGE_TYPE } from "#contract/place-content";
import { PICK_MESSAGE_TYPE, pickSelector } from "#contract/pick-selector";
import { PLACEMENT_DOM_POSITIONS } from "#contract/placement";
import type { Env } from "../env";
import { pickFrameOrigin } from "../http/origin";
import { randomToken } from "../lib/crypto";
import { readSignedClaims, signClaims } from "../lib/signed-claims";
import { fetchPage, firstBytes, INSTALL_CHECK_MAX_BYTES } from "./install-check";

export const PICK_FRAME_PATH = "/pick-frame";
export const PICK_FRAME_TTL_MS = 10 * 60 * 1000;
export const PICK_FRAME_INVALID = "This pick-on-page link is invalid or has expired. Please open the page again.";

interface PickClaims {
  /** The customer's id. */
  u: string;
  /** The page. */
  p: string;
  e: number;
}

const signingKey = (env: Env) => `dynamic-content:pick-frame:${env.APP_SECRET}`;

/** The frame's URL for the customer's page, or null when there is no origin to serve it on. */
export async function pickFrameLink(
  env: Env,
  userId: string,
  page: string,
  now = new Date(),
): Promise<{ frameUrl: string; frameOrigin: string; expiresAt: string } | null> {
  const frameOrigin = pickFrameOrigin(env);
  if (!frameOrigin) return null;
  const expiresAt = new Date(now.getTime() + PICK_FRAME_TTL_MS);
  const token = await signClaims(signingKey(env), { u: userId, p: page, e: Math.floor(expiresAt.getTime() / 1000) });
  const url = new URL(PICK_FRAME_PATH, frameOrigin);
  url.searchParams.set("t", token);
  return { frameUrl: url.href, frameOrigin, expiresAt: expiresAt.toISOString() };
}

/** The page a frame token names, when it verifies and has not expired. */
export async function pickFramePage(env: Env, token: string, now = new Date()): Promise<string | null> {
  const claims = await readSignedClaims<PickClaims>(signingKey(env), token, now);
  return claims && typeof claims.p === "string" ? claims.p : null;
}

/**
 * The picker: outlines the element under the pointer and, on a click, posts its selector (contract/pick-selector.ts)
 * to the dashboard; shows the content the dashboard posts back where the snippet would place it
 * (contract/place-content.ts), taking messages from the dashboard only. Clicks and hovers on that content pick
 * nothing: it is not part of the page. `__name` stands in for the bundler's helper that keeps function names, which
 * the builder's source may call.
 */
export function pickerScript(dashboardOrigin: string): string {
  return `(() => {
  var __name = (f) => f;
  const pickSelector = ${pickSelector.toString()};
  const placeContent = ${placeContent.toString()};
  const DOM_POSITIONS = ${JSON.stringify(PLACEMENT_DOM_POSITIONS)};
  const DASHBOARD = ${JSON.stringify(dashboardOrigin)};
  const MARK = "data-dc-pick-hover";
  const placed = (target) => target instanceof Element && target.closest("[data-dynamic-content]") !== null;
  const style = document.createElement("style");
  style.textContent = "[" + MARK + "]{outline:2px solid #2563eb!important;outline-offset:2px;cursor:crosshair!important}";
  document.head.appendChild(style);
  let hovered = null;
  const unmark = () => { if (hovered) hovered.removeAttribute(MARK); hovered = null; };
  document.addEventListener("mouseover", (event) => {
    unmark();
    if (event.target instanceof Element && event.target !== document.body && !placed(event.target)) {
      hovered = event.target;
      hovered.setAttribute(MARK, "");
    }
  }, true);
  document.addEventListener("click", (event) => {
    event.preventDefault();
    event.stopPropagation();
    unmark();
    if (!(event.target instanceof Element) || placed(event.target)) return;
    // The shown content goes first, so that the selector is the page's own.
    placeContent(document, { h: "" });
    const selector = pickSelector(event.target);
    parent.postMessage({ type: ${JSON.stringify(PICK_MESSAGE_TYPE)}, selector }, DASHBOARD);
  }, true);
  document.addEventListener("submit", (event) => event.preventDefault(), true);
  window.addEventListener("message", (event) => {
    const data = event.data;
    if (event.source !== parent || event.origin !== DASHBOARD) return;
    if (!data || data.type !== ${JSON.stringify(SHOW_MESSAGE_TYPE)} || typeof data.html !== "string") return;
    if (data.position !== "body-start" && !Object.hasOwn(DOM_POSITIONS, data.position)) return;
    const at = data.position === "body-start" ? {} : { p: DOM_POSITIONS[data.position], s: String(data.selector) };
    placeContent(document, { h: data.html, ...at });
  });
})();`;
}

const html = (status: number, message: string) =>
  new Response(`<!doctype html><meta charset="utf-8"><p>${message.replace(/[<>&]/g, "")}</p>`, {
    status,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
  });

/**
 * The framed page: the customer's HTML with `<base>` to the page (its images and styles load from it), without its
 * scripts, inline handlers stopped by the CSP, and the picker; framed by the dashboard only.
 */
export async function pickFrame(env: Env, page: string, dashboardOrigin: string): Promise<Response> {
  const fetched = await fetchPage(env, new URL(page));
  if ("problem" in fetched) return html(502, fetched.problem);
  const body = await firstBytes(fetched.response, INSTALL_CHECK_MAX_BYTES);
  const nonce = randomToken(16);
  const baseHref = fetched.page.href.replace(/"/g, "%22");
  const picker = `<script nonce="${nonce}">${pickerScript(dashboardOrigin)}</script>`;
  // At the end of the head (or before the first element of a page without one), the picker listens before any
  // element of the body can be shown and clicked.
  let pickerPlaced = false;
  const rewritten = new HTMLRewriter()
    .on("*", {
      element: (element) => {
        if (pickerPlaced || element.tagName === "html") return;
        pickerPlaced = true;
        if (element.tagName === "head") element.append(picker, { html: true });
        else element.before(picker, { html: true });
      },
    })
    .on("script", { element: (element) => void element.remove() })
    .on('meta[http-equiv="Content-Security-Policy" i]', { element: (element) => void element.remove() })
    .on("base", { element: (element) => void element.remove() })
    .on("head", { element: (element) => void element.prepend(`<base href="${baseHref}">`, { html: true }) })
    .transform(new Response(body, { headers: { "Content-Type": "text/html; charset=utf-8" } }));
  return new Response(rewritten.body, {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Referrer-Policy": "no-referrer",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": `script-src 'nonce-${nonce}'; object-src 'none'; form-action 'none'; frame-ancestors ${dashboardOrigin}`,
    },
  });
}
