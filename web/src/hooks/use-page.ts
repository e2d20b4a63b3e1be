import { useState } from "react";

/**
 * The page a table shows: its offset, back to the first page whenever `resetOn` (the search, the sort, a filter)
 * changes. The page size is the server's default page, so a first page needs no parameters.
 */
export function usePage(resetOn: unknown, pageSize = PAGE_SIZE) {
  const key = JSON.stringify(resetOn);
  const [state, setState] = useState({ key, offset: 0 });
  const offset = state.key === key ? state.offset : 0;
  return {
    offset,
    limit: pageSize,
    /** The query parameter: left out on the first page. */
    offsetParam: offset || undefined,
    setOffset: (next: number) => setState({ key, offset: next }),
  };
}

/** The server's default page of a list (docs/api.md, "Lists"). */
export const PAGE_SIZE = 100;
