/** @module `GET /snippet.js`: the minified snippet, cached briefly, revalidated in the background, with an ETag. */
import { Hono } from "hono";
import type { AppEnv } from "../env";
import { SNIPPET_ETAG, SNIPPET_JS } from "./snippet.generated";

const HEADERS = {
  "Content-Type": "text/javascript; charset=utf-8",
  "Cache-Control": "public, max-age=300, stale-while-revalidate=86400",
  ETag: SNIPPET_ETAG,
  "Access-Control-Allow-Origin": "*",
};

export const snippetRoute = new Hono<AppEnv>().get("/", (c) => {
  if (c.req.header("If-None-Match") === SNIPPET_ETAG) return new Response(null, { status: 304, headers: HEADERS });
  return new Response(SNIPPET_JS, { headers: HEADERS });
});
