"use client";

import { useState } from "react";

/**
 * The page and page size of a list the API pages with page/limit, with the Pager's handlers: a new page
 * size goes back to page 1. `scope` changes with either (a useSelection scope).
 *
 * A filtered list passes its initial `filters` too: `query` is then the filters with page and limit (the
 * list query's argument, and the `scope`, so the selection also clears when a filter changes), and
 * `filter(patch)` changes some of them and goes back to page 1 — unless the patch changes nothing, when
 * it keeps the page and the selection (so it can be called from a debounced search effect).
 */
export function usePaging<F extends object = Record<never, never>>(limit = 50, filters?: F) {
  const [query, setQuery] = useState<F & { page: number; limit: number }>(() => ({ ...(filters as F), page: 1, limit }));
  return {
    page: query.page,
    limit: query.limit,
    query,
    scope: query,
    onPage: (page: number) => setQuery((q) => ({ ...q, page })),
    onLimit: (limit: number) => setQuery((q) => ({ ...q, page: 1, limit })),
    filter: (patch: Partial<F>) =>
      setQuery((q) => (Object.entries(patch).every(([k, v]) => Object.is(q[k as keyof F], v)) ? q : { ...q, ...patch, page: 1 })),
  };
}
