/**
 * @module "Check my page" (`POST /api/install-check`, docs/getting-started.md): the Worker fetches the customer's
 * page by the rule of every outbound request of a customer's (http/outbound-target.ts, checked again at each
 * redirect), bounded in time, redirects and bytes, reads it with HTMLRewriter and says what stands between the page
 * and its content: the snippet missing, another user id, a Content-Security-Policy that blocks our origin, no mapping
 * for the URL. A URL the rule refuses outright is the request's fault (4xx, as for an origin or a webhook); what the
 * page answers is the check's finding.
 */
import type { InstallCheck } from "#contract/responses";
import type { Db } from "../db/client";
import type { User } from "../db/schema";
import type { Env } from "../env";
import type { ProductOrigins } from "../http/origin";
import { resolvedTargetProblem, targetRefusal, type TargetProblem } from "../http/outbound-target";
import { blockedBy, parsePolicies, type Blocked, type InlineScript } from "../lib/content-security-policy";
import { explainMatch } from "../models/mapping-match";

/** The whole check, every redirect included. */
export const INSTALL_CHECK_TIMEOUT_MS = 10_000;
/** Bytes of the page read; the snippet belongs before `</body>`, and pages past this are rare. */
export const INSTALL_CHECK_MAX_BYTES = 2 * 1024 * 1024;
export const INSTALL_CHECK_MAX_REDIRECTS = 5;
/** Characters kept of one inline script: the snippet's inline part is a few hundred. */
const INLINE_SCRIPT_MAX_CHARS = 64 * 1024;
/** Other user ids named in a problem. */
const IDS_SHOWN = 3;
const USER_AGENT = "DynamicContent-InstallCheck/1";

export const INSTALL_CHECK_TARGET_PROBLEMS: Record<TargetProblem, string> = {
  credentials: "URL must not contain a user name or password",
  https: "URL must start with https://",
  "public-host": "URL must name a public host such as https://www.example.com, not an IP address or a local name",
  ours: "URL must be a page of your website, not of Dynamic Content itself",
  "private-address":
    "URL's host name must resolve to public addresses only, not to a private, loopback or reserved one",
  unresolved: "URL's host name could not be looked up. Please try again in a few minutes.",
};

type Fetched = { page: URL; response: Response } | { problem: string };

const isRedirect = (status: number) => status >= 300 && status < 400;

/** The page, following redirects each of which the outbound rule allows; or why it could not be had. */
export async function fetchPage(env: Env, url: URL): Promise<Fetched> {
  const signal = AbortSignal.timeout(INSTALL_CHECK_TIMEOUT_MS);
  let target = url;
  for (let redirects = 0; ; redirects++) {
    const refused = await resolvedTargetProblem(env, target);
    if (refused && redirects === 0) throw targetRefusal(refused, INSTALL_CHECK_TARGET_PROBLEMS);
    if (refused) {
      return {
        problem: `The page redirects to ${target.href}, which Dynamic Content may not fetch: ${INSTALL_CHECK_TARGET_PROBLEMS[refused]}.`,
      };
    }
    let response: Response;
    try {
      response = await fetch(target, {
        headers: { Accept: "text/html", "User-Agent": USER_AGENT },
        redirect: "manual",
        signal,
      });
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
      if (!timedOut) console.error(`Install check of ${target.host} could not connect`, err);
      return {
        problem: timedOut
          ? `The page did not answer within ${INSTALL_CHECK_TIMEOUT_MS / 1000} s.`
          : "The page could not be reached: the connection to its server failed.",
      };
    }
    const location = response.headers.get("Location");
    if (!isRedirect(response.status) || !location) {
      if (response.ok) return { page: target, response };
      await response.body?.cancel();
      return { problem: `The page could not be loaded: its server answered HTTP ${response.status}.` };
    }
    await response.body?.cancel();
    if (redirects >= INSTALL_CHECK_MAX_REDIRECTS) {
      return { problem: `The page redirects more than ${INSTALL_CHECK_MAX_REDIRECTS} times.` };
    }
    const next = URL.parse(location, target);
    if (!next || (next.protocol !== "https:" && next.protocol !== "http:")) {
      return { problem: `The page redirects to ${location}, which is not a web page.` };
    }
    target = next;
  }
}

/** The first `max` bytes of the body; the rest is never read. */
export async function firstBytes(response: Response, max: number): Promise<Uint8Array> {
  const reader = response.body?.getReader();
  if (!reader) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < max) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  await reader.cancel().catch(() => undefined);
  const bytes = new Uint8Array(Math.min(size, max));
  let at = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, bytes.byteLength - at);
    bytes.set(part, at);
    at += part.byteLength;
    if (at >= bytes.byteLength) break;
  }
  return bytes;
}

/** What the page's HTML says about the snippet. */
interface PageScan {
  scriptSources: string[];
  inlineScripts: InlineScript[];
  metaPolicies: string[];
}

async function scanPage(html: Uint8Array): Promise<PageScan> {
  const scan: PageScan = { scriptSources: [], inlineScripts: [], metaPolicies: [] };
  let inline: InlineScript | null = null;
  await new HTMLRewriter()
    .on("script", {
      element(element) {
        const src = element.getAttribute("src");
        if (src !== null) {
          scan.scriptSources.push(src);
          return;
        }
        const script: InlineScript = { text: "", nonce: element.getAttribute("nonce") };
        inline = script;
        element.onEndTag(() => {
          scan.inlineScripts.push(script);
          inline = null;
        });
      },
      text(chunk) {
        if (inline && inline.text.length < INLINE_SCRIPT_MAX_CHARS) inline.text += chunk.text;
      },
    })
    .on("meta[http-equiv]", {
      element(element) {
        const content = element.getAttribute("content");
        if (element.getAttribute("http-equiv")?.toLowerCase() === "content-security-policy" && content) {
          scan.metaPolicies.push(content);
        }
      },
    })
    .transform(new Response(html, { headers: { "Content-Type": "text/html" } }))
    .arrayBuffer();
  return scan;
}

/** The user ids an inline script sets, as the snippet's inline part does (contract/snippet-text.ts). */
function userIdsSet(script: InlineScript): string[] {
  const ids: string[] = [];
  for (const pattern of [
    /setDynamicContentUserId\(\s*(["'])([^"'\n]{1,200})\1\s*\)/g,
    /dynamicContentUserId\s*=\s*(["'])([^"'\n]{1,200})\1/g,
  ]) {
    for (const found of script.text.matchAll(pattern)) ids.push(found[2]!);
  }
  return ids;
}

const blockedSentence = ({ directive, what }: Blocked, where: string, origin: string): string => {
  const policy = `The page's Content-Security-Policy (${where})`;
  if (what === "inline") {
    return `${policy} blocks the inline script that sets your user id: add its nonce or hash to ${directive}.`;
  }
  return what === "script"
    ? `${policy} does not allow scripts from ${origin}: add ${origin} to ${directive}.`
    : `${policy} does not allow the snippet's requests to ${origin}: add ${origin} to ${directive}.`;
};

/** What the page's scripts say: the snippet's script, the user ids set, and a sentence per problem. */
function snippetFindings(scan: PageScan, page: URL, userId: string, origins: ProductOrigins) {
  const ours = new Set([origins.delivery, origins.public]);
  const script = scan.scriptSources
    .map((src) => URL.parse(src, page))
    .find((src) => src !== null && src.pathname === "/snippet.js" && ours.has(src.origin));
  const withIds = scan.inlineScripts
    .map((inline) => ({ inline, ids: userIdsSet(inline) }))
    .filter((s) => s.ids.length > 0);
  const ids = [...new Set(withIds.flatMap((s) => s.ids))];
  const userIdMatches = ids.includes(userId);
  const problems: string[] = [];
  if (!script) {
    const viaTagManager = [...scan.scriptSources, ...scan.inlineScripts.map((s) => s.text)].some((s) =>
      s.includes("googletagmanager.com/gtm.js"),
    );
    problems.push(
      `The snippet is missing: no script on the page loads ${origins.delivery}/snippet.js.` +
        (viaTagManager
          ? " The page uses Google Tag Manager: a snippet added there runs only in visitors' browsers, so this check cannot see it."
          : ""),
    );
  }
  if (ids.length === 0 && script) {
    problems.push("The page loads the snippet but does not set your user id: its first <script> part is missing.");
  } else if (ids.length > 0 && !userIdMatches) {
    const shown = ids
      .slice(0, IDS_SHOWN)
      .map((id) => `"${id}"`)
      .join(", ");
    problems.push(
      `The page sets another user id (${shown}), not yours ("${userId}"): copy the snippet from your dashboard again.`,
    );
  }
  return {
    script,
    userIdMatches,
    /** The inline part the page's policies must let run: the one with the customer's id, else another's. */
    inline: withIds.find((s) => s.ids.includes(userId))?.inline ?? withIds[0]?.inline ?? null,
    problems,
  };
}

/** A sentence for each part of the snippet that a policy of the page (its header's, its meta tags') blocks. */
async function policyProblems(
  response: Response,
  scan: PageScan,
  page: URL,
  origin: string,
  inline: InlineScript | null,
): Promise<string[]> {
  const targets = { inline, script: new URL("/snippet.js", origin), content: new URL("/api/content", origin) };
  const policies = [
    ...parsePolicies(response.headers.get("Content-Security-Policy") ?? "").map((policy) => ({
      policy,
      where: "header",
    })),
    ...scan.metaPolicies.flatMap(parsePolicies).map((policy) => ({ policy, where: "meta tag" })),
  ];
  const problems: string[] = [];
  for (const { policy, where } of policies) {
    for (const blocked of await blockedBy(policy, page, targets))
      problems.push(blockedSentence(blocked, where, origin));
  }
  return problems;
}

/** Checks the customer's page at `url` (an http(s) URL of at most 2,048 characters). */
export async function checkInstall(
  env: Env,
  db: Db,
  user: Pick<User, "id" | "ignoredParameters">,
  url: string,
  origins: ProductOrigins,
): Promise<InstallCheck> {
  const fetched = await fetchPage(env, new URL(url));
  const page = "page" in fetched ? fetched.page : new URL(url);
  const match = await explainMatch(db, user, page.href);
  const mappingMatches = match.mapping !== null;
  const mappingProblems = mappingMatches ? [] : [match.reason];
  const unseen = { snippetFound: false, userIdMatches: false, mappingMatches };
  if ("problem" in fetched) return { reachable: false, ...unseen, problems: [fetched.problem, ...mappingProblems] };
  const { response } = fetched;
  const type = response.headers.get("Content-Type") ?? "";
  if (!/^\s*(text\/html|application\/xhtml\+xml)\b/i.test(type)) {
    await response.body?.cancel();
    const problem = `The page is not HTML (its server answered ${type.split(";")[0]!.trim() || "without a content type"}).`;
    return { reachable: true, ...unseen, problems: [problem, ...mappingProblems] };
  }
  const scan = await scanPage(await firstBytes(response, INSTALL_CHECK_MAX_BYTES));
  const snippet = snippetFindings(scan, page, user.id, origins);
  const origin = snippet.script?.origin ?? origins.delivery;
  const blocked = await policyProblems(response, scan, page, origin, snippet.inline);
  return {
    reachable: true,
    snippetFound: snippet.script !== undefined,
    userIdMatches: snippet.userIdMatches,
    mappingMatches,
    problems: [...new Set([...snippet.problems, ...blocked, ...mappingProblems])],
  };
}
