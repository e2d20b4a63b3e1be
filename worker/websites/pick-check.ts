/**
 * @module "Pick on page"'s check of a selector on other pages of a prefix rule (docs/placement.md): up to
 * PICK_CHECK_PAGES pages under the prefix that visitors viewed most recently (models/viewed-pages.ts), each fetched
 * as the install check fetches (the outbound rule at every redirect, 10 s, the first 2 MB) and read by HTMLRewriter,
 * the edge's own reading of a selector. A page that cannot be had, or a selector HTMLRewriter refuses, is "could not
 * check" (`found: null`), never a miss.
 */
import { hostOf, normalizeUrl } from "#contract/normalize-url";
import type { PickCheck } from "#contract/responses";
import { PREFIX_SUFFIX } from "#contract/url-rules";
import type { Db } from "../db/client";
import type { User } from "../db/schema";
import type { Env } from "../env";
import { viewedPagesBelow } from "../models/viewed-pages";
import { fetchPage, firstBytes, INSTALL_CHECK_MAX_BYTES } from "./install-check";

/** Other pages checked; fetched at once, so the check takes as long as the slowest (10 s at most). */
export const PICK_CHECK_PAGES = 3;

/**
 * The selector looked for on other viewed pages under the prefix `rule` (`…/*`). Their URLs are normalised
 * (lowercase, without `www.`), so each is fetched on the rule's own scheme and host.
 */
export async function checkSelectorElsewhere(
  env: Env,
  db: Db,
  user: Pick<User, "id" | "ignoredParameters">,
  rule: string,
  selector: string,
): Promise<PickCheck> {
  const base = normalizeUrl(rule, user.ignoredParameters).slice(0, -PREFIX_SUFFIX.length);
  const viewed = await viewedPagesBelow(db, user.id, base, PICK_CHECK_PAGES);
  const origin = new URL(rule).origin;
  const pages = await Promise.all(
    viewed.map(async (normalized) => {
      const url = origin + normalized.slice(hostOf(base).length);
      return { url, found: await selectorFoundOn(env, url, selector) };
    }),
  );
  return { pages };
}

async function selectorFoundOn(env: Env, url: string, selector: string): Promise<boolean | null> {
  try {
    const fetched = await fetchPage(env, new URL(url));
    if ("problem" in fetched) return null;
    let found = 0;
    let rewriter: HTMLRewriter;
    try {
      rewriter = new HTMLRewriter().on(selector, { element: () => void found++ });
    } catch {
      await fetched.response.body?.cancel();
      return null;
    }
    const body = await firstBytes(fetched.response, INSTALL_CHECK_MAX_BYTES);
    await rewriter.transform(new Response(body, { headers: { "Content-Type": "text/html" } })).arrayBuffer();
    return found > 0;
  } catch {
    // Refused by the outbound rule, or its host could not be looked up: not checked.
    return null;
  }
}
