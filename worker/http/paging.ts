/** @module The answer of every list: the page's rows as the body (SPEC.md's shape), the total in `X-Total-Count`. */
import type { Context } from "hono";
import type { Page } from "../models/page";

export const TOTAL_COUNT_HEADER = "X-Total-Count";

export function pageResponse<T>(c: Context, page: Page<T>) {
  return c.json<T[]>(page.rows, 200, { [TOTAL_COUNT_HEADER]: String(page.total) });
}
