/**
 * @module One page of a list, as every list query answers it: its rows query and its count query, sent to D1 as one
 * batch (one round trip).
 */
import type { BatchItem } from "drizzle-orm/batch";
import type { Page } from "#contract/page";
import type { Db } from "../db/client";

export async function pageOf<Rows extends BatchItem<"sqlite"> & PromiseLike<unknown[]>, T>(
  db: Db,
  rows: Rows,
  count: BatchItem<"sqlite"> & PromiseLike<{ n: number }[]>,
  toRow: (row: Awaited<Rows>[number]) => T,
): Promise<Page<T>> {
  const [found, [total]] = (await db.batch([rows, count])) as [Awaited<Rows>, { n: number }[]];
  return { rows: found.map(toRow), total: total?.n ?? 0 };
}
