/**
 * @module What kind of place sent a visitor (docs/audiences.md): the referrer's host looked up in a list we keep
 * (docs/decisions.md, "Issue 41: audiences", says why not a package). A host matches an entry and its subdomains.
 */

export const REFERRER_TYPES = ["search", "social", "ai", "email", "direct", "other"] as const;
export type ReferrerType = (typeof REFERRER_TYPES)[number];

/** AI assistants come before search so that gemini.google.com is not taken for Google's search. */
const KNOWN_HOSTS: Record<Exclude<ReferrerType, "direct" | "other">, string[]> = {
  ai: [
    "chatgpt.com",
    "chat.openai.com",
    "perplexity.ai",
    "gemini.google.com",
    "bard.google.com",
    "copilot.microsoft.com",
    "claude.ai",
    "you.com",
    "phind.com",
    "poe.com",
    "chat.deepseek.com",
    "meta.ai",
    "chat.mistral.ai",
  ],
  email: [
    "mail.google.com",
    "outlook.live.com",
    "outlook.office.com",
    "outlook.office365.com",
    "mail.yahoo.com",
    "mail.proton.me",
    "mail.aol.com",
    "mail.gmx.net",
    "web.de",
    "mail.ru",
    "mail.yandex.ru",
  ],
  search: [
    "bing.com",
    "duckduckgo.com",
    "search.yahoo.com",
    "yandex.ru",
    "yandex.com",
    "baidu.com",
    "ecosia.org",
    "qwant.com",
    "search.brave.com",
    "startpage.com",
    "naver.com",
    "seznam.cz",
    "search.aol.com",
  ],
  social: [
    "facebook.com",
    "instagram.com",
    "x.com",
    "twitter.com",
    "t.co",
    "linkedin.com",
    "lnkd.in",
    "reddit.com",
    "pinterest.com",
    "tiktok.com",
    "youtube.com",
    "threads.net",
    "bsky.app",
    "mastodon.social",
    "vk.com",
    "news.ycombinator.com",
  ],
};

/** Google's search lives on a domain per country (google.de, google.co.uk, google.com.br). */
const GOOGLE = /(^|\.)google\.(com|[a-z]{2}|co\.[a-z]{2}|com\.[a-z]{2})$/;

const ORDER = ["ai", "email", "search", "social"] as const;

const isHostOrSubdomain = (host: string, entry: string) => host === entry || host.endsWith(`.${entry}`);

const withoutWww = (host: string) => (host.startsWith("www.") ? host.slice(4) : host);

/**
 * The referrer's type for a page on `pageHost`: `direct` without one, or from the page's own website (the visitor
 * is already there); else by the list; `other` for any other host, and for a referrer that is not a URL.
 */
export function classifyReferrer(referrer: string | null | undefined, pageHost: string): ReferrerType {
  if (!referrer) return "direct";
  let host: string;
  try {
    host = new URL(referrer).hostname.toLowerCase();
  } catch {
    return "other";
  }
  if (withoutWww(host) === withoutWww(pageHost.toLowerCase())) return "direct";
  for (const type of ORDER) {
    if (KNOWN_HOSTS[type].some((entry) => isHostOrSubdomain(host, entry))) return type;
  }
  return GOOGLE.test(host) ? "search" : "other";
}
