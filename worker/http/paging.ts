/**
 * @module The answer of every list (docs/api.md, "Lists"): the page's rows as the body (SPEC.md's shape), the total
 * in `X-Total-Count`, and, for a client that asked for no page and did not get every row, an RFC 8288
 * `Link: <…>; rel="next"` to the rest.
 */
import type { Context } from "hono";
import type { PageQuery } from "#contract/schemas";
import type { AppEnv } from "../env";
import type { Page } from "#contract/page";
import { publicOrigin } from "./origin";

export const TOTAL_COUNT_HEADER = "X-Total-Count";

/** The headers of a page of `total` rows that holds `count` of them. */
export function pageHeaders(c: Context<AppEnv>, query: PageQuery, count: number, total: number) {
  const headers: Record<string, string> = { [TOTAL_COUNT_HEADER]: String(total) };
  if (query.unpaged && count < total) {
    const requested = new URL(c.req.url);
    const next = new URL(requested.pathname + requested.search, publicOrigin(c));
    next.searchParams.set("offset", String(query.offset + count));
    next.searchParams.set("limit", String(query.maxLimit));
    headers.Link = `<${next.href}>; rel="next"`;
  }
  return headers;
}

export function pageResponse<T>(c: Context<AppEnv>, page: Page<T>, query: PageQuery) {
  return c.json<T[]>(page.rows, 200, pageHeaders(c, query, page.rows.length, page.total));
}

/**
 * A list whose rows are large (a customer's mappings hold up to 256 KB of HTML each), answered to a client that asked
 * for no page: up to `query.limit` rows streamed as one JSON array, read `chunk` rows at a time, so that the isolate
 * never holds more than one chunk.
 */
export async function streamedPageResponse<T>(
  c: Context<AppEnv>,
  query: PageQuery,
  chunk: number,
  read: (page: { limit: number; offset: number }) => Promise<Page<T>>,
): Promise<Response> {
  const first = await read({ limit: chunk, offset: query.offset });
  const count = Math.min(query.limit, first.total - query.offset);
  const encoder = new TextEncoder();
  let sent = 0;
  let pending: T[] | null = first.rows;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const rows = pending ?? (await read({ limit: chunk, offset: query.offset + sent })).rows;
      const opening = pending ? "[" : "";
      pending = null;
      const take = rows.slice(0, Math.max(0, count - sent));
      const text = take.map((row, i) => (sent + i === 0 ? "" : ",") + JSON.stringify(row)).join("");
      sent += take.length;
      const done = sent >= count || rows.length < chunk;
      controller.enqueue(encoder.encode(opening + text + (done ? "]" : "")));
      if (done) controller.close();
    },
  });
  return new Response(body, {
    headers: {
      ...pageHeaders(c, query, Math.max(0, count), first.total),
      "Content-Type": "application/json; charset=UTF-8",
    },
  });
}
