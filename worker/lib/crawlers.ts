/**
 * @module Known search and AI crawlers, by the user agent they announce (docs/analytics.md): counted apart, so that a
 * customer sees whether search engines and AI assistants fetched their content. A user agent can be forged;
 * this tells honest crawlers apart, it is no defence.
 */
export const CRAWLER_TOKENS = [
  // Search engines
  "Googlebot",
  "Google-InspectionTool",
  "bingbot",
  "Applebot",
  "DuckDuckBot",
  "YandexBot",
  "Baiduspider",
  "Slurp",
  "SeznamBot",
  "Qwantbot",
  // AI crawlers and assistants
  "GPTBot",
  "OAI-SearchBot",
  "ChatGPT-User",
  "ClaudeBot",
  "Claude-User",
  "Claude-SearchBot",
  "anthropic-ai",
  "PerplexityBot",
  "Perplexity-User",
  "CCBot",
  "Bytespider",
  "Amazonbot",
  "meta-externalagent",
  "cohere-ai",
] as const;

const CRAWLER = new RegExp(CRAWLER_TOKENS.map((t) => t.replace(/[-]/g, "\\-")).join("|"), "i");

export const isCrawler = (userAgent: string | null | undefined) => !!userAgent && CRAWLER.test(userAgent);
