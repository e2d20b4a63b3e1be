/**
 * @module Whether a page's Content-Security-Policy lets our snippet run (the install check, docs/getting-started.md):
 * its inline part (the user id), its script from our origin, and its content requests to our origin. Source lists
 * are matched as CSP Level 3 matches them (scheme, host with `*.` wildcards, port, path), far enough for the policies
 * pages carry; a policy that cannot be judged here (`'strict-dynamic'` with hashes) is not reported as blocking.
 */

/** One policy: its directives by name (lower case), each a list of source expressions. */
export type Policy = Map<string, string[]>;

/** Parses one serialized policy (a header may join several with commas: each is enforced on its own). */
export function parsePolicies(text: string): Policy[] {
  return text
    .split(",")
    .map((serialized) => {
      const policy: Policy = new Map();
      for (const directive of serialized.split(";")) {
        const [name, ...sources] = directive.trim().split(/\s+/);
        // The first of a name counts (CSP ignores repeats).
        if (name && !policy.has(name.toLowerCase())) policy.set(name.toLowerCase(), sources);
      }
      return policy;
    })
    .filter((policy) => policy.size > 0);
}

/** The directive that governs `names[0]`: the first of them the policy has (e.g. script-src-elem, script-src, default-src). */
function governing(policy: Policy, names: string[]): { name: string; sources: string[] } | null {
  for (const name of names) {
    const sources = policy.get(name);
    if (sources) return { name, sources };
  }
  return null;
}

const DEFAULT_PORTS: Record<string, string> = { "http:": "80", "https:": "443" };

const schemeAllows = (source: string, target: string) =>
  source === target || (source === "http:" && target === "https:");

/** Whether one source expression allows `target`, a URL asked for from a page at `page`. */
function sourceAllows(expression: string, target: URL, page: URL): boolean {
  const source = expression.toLowerCase();
  if (source === "*") return target.protocol === "http:" || target.protocol === "https:";
  if (source === "'self'") {
    return target.host === page.host && schemeAllows(page.protocol, target.protocol);
  }
  if (source.startsWith("'")) return false;
  if (/^[a-z][a-z0-9+.-]*:$/.test(source)) return schemeAllows(source, target.protocol);
  const parsed = /^(?:([a-z][a-z0-9+.-]*:)\/\/)?(\*|(?:\*\.)?[a-z0-9.-]+)(?::(\d+|\*))?(\/[^?#]*)?$/.exec(source);
  if (!parsed) return false;
  const [, scheme, host, port, path] = parsed;
  if (scheme ? !schemeAllows(scheme, target.protocol) : !schemeAllows(page.protocol, target.protocol)) return false;
  const hostname = target.hostname.toLowerCase();
  if (host === "*") {
    // Allowed.
  } else if (host!.startsWith("*.")) {
    if (!hostname.endsWith(host!.slice(1))) return false;
  } else if (hostname !== host) return false;
  const targetPort = target.port || DEFAULT_PORTS[target.protocol] || "";
  const sourcePort = port ?? DEFAULT_PORTS[scheme ?? target.protocol] ?? "";
  const upgraded = sourcePort === "80" && targetPort === "443" && target.protocol === "https:";
  if (port !== "*" && sourcePort !== targetPort && !upgraded) return false;
  if (path && path !== "/") {
    const targetPath = decodeURIComponent(target.pathname);
    return path.endsWith("/") ? targetPath.startsWith(path) : targetPath === path;
  }
  return true;
}

/** Whether the sources (of a directive) allow fetching `target` from a page at `page`. */
export function sourcesAllow(sources: readonly string[], target: URL, page: URL): boolean {
  return sources.some((source) => sourceAllows(source, target, page));
}

const SCRIPT_ELEMENT = ["script-src-elem", "script-src", "default-src"];
const CONNECT = ["connect-src", "default-src"];

/** An inline script: its text and its `nonce` attribute. */
export interface InlineScript {
  text: string;
  nonce: string | null;
}

async function sha256Source(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return `'sha256-${btoa(String.fromCharCode(...digest))}'`;
}

/** Whether the sources allow an inline script: its nonce or hash listed, or 'unsafe-inline' without either kind. */
async function inlineAllowed(sources: readonly string[], script: InlineScript): Promise<boolean> {
  const lower = sources.map((s) => s.toLowerCase());
  const pinned = lower.some((s) => s.startsWith("'nonce-") || /^'sha(256|384|512)-/.test(s));
  if (!pinned) return lower.includes("'unsafe-inline'");
  if (script.nonce && sources.includes(`'nonce-${script.nonce}'`)) return true;
  return sources.includes(await sha256Source(script.text));
}

/** What a policy blocks of the snippet: the directives' names, each with what it blocks. */
export interface Blocked {
  directive: string;
  what: "inline" | "script" | "requests";
}

/**
 * What of the snippet the policy blocks on a page at `page`: the inline script that sets the user id (when the page
 * has it), the script at `script` and the content requests to `content`.
 */
export async function blockedBy(
  policy: Policy,
  page: URL,
  { inline, script, content }: { inline: InlineScript | null; script: URL; content: URL },
): Promise<Blocked[]> {
  const blocked: Blocked[] = [];
  const scripts = governing(policy, SCRIPT_ELEMENT);
  if (scripts) {
    const strictDynamic = scripts.sources.some((s) => s.toLowerCase() === "'strict-dynamic'");
    if (inline && !(await inlineAllowed(scripts.sources, inline))) {
      blocked.push({ directive: scripts.name, what: "inline" });
    }
    // Under 'strict-dynamic' a page's own tags run by nonce or hash alone, which only the page's author can judge.
    if (!strictDynamic && !sourcesAllow(scripts.sources, script, page)) {
      blocked.push({ directive: scripts.name, what: "script" });
    }
  }
  const requests = governing(policy, CONNECT);
  if (requests && !sourcesAllow(requests.sources, content, page)) {
    blocked.push({ directive: requests.name, what: "requests" });
  }
  return blocked;
}
