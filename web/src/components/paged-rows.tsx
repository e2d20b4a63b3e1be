import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import type { Page } from "#contract/page";
import { LoadError, Loading } from "./loading";
import { Pager } from "./pager";

interface PagedRowsProps<T> {
  /** The query of the page shown (see `getPage`). */
  query: UseQueryResult<Page<T>>;
  page: { offset: number; limit: number; setOffset: (offset: number) => void };
  /** Shown instead of the rows when the page cannot be loaded; without it the failure is the toast's. */
  loadError?: string;
  children: (rows: T[]) => ReactNode;
}

/** One page of a server-paged list: a spinner, the load error, or the rows with the pager below them. */
export function PagedRows<T>({ query, page, loadError, children }: PagedRowsProps<T>) {
  if (query.isPending) return <Loading />;
  if (query.isError) return loadError ? <LoadError>{loadError}</LoadError> : null;
  return (
    <div className="space-y-4">
      {children(query.data.rows)}
      <Pager offset={page.offset} limit={page.limit} total={query.data.total} onOffsetChange={page.setOffset} />
    </div>
  );
}
