/**
 * @module The SPA's files, served through the Worker so that every answer has the product's headers and only the
 * product's own hosts get them (delivery/host-routing.ts): a hashed build file under `/assets/` (immutable: a new
 * build has new names), or a 404 for one that does not exist (never the SPA shell, never cached); any other path is
 * the SPA's page, `index.html`, whose router shows the screen or its not-found card.
 */
import type { Context } from "hono";
import type { AppEnv } from "../env";

const BUILD_FILES = "/assets/";
const IMMUTABLE = "public, max-age=31536000, immutable";

export async function servePage(c: Context<AppEnv>): Promise<Response> {
  const url = new URL(c.req.url);
  const file = await c.env.ASSETS.fetch(c.req.raw);
  if (url.pathname.startsWith(BUILD_FILES)) {
    if (!file.ok) return c.text("Not found", 404, { "Cache-Control": "no-store" });
    const answer = new Response(file.body, file);
    answer.headers.set("Cache-Control", IMMUTABLE);
    return answer;
  }
  if (file.status !== 404) return new Response(file.body, file);
  const shell = await c.env.ASSETS.fetch(new Request(new URL("/", url), { method: c.req.method }));
  return new Response(shell.body, shell);
}
