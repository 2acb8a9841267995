"use client";

import { useState } from "react";

/**
 * The page and page size of a list the API pages with page/limit, with the Pager's handlers: a new page
 * size goes back to page 1. `scope` changes with either (a useSelection scope).
 */
export function usePaging(limit = 50) {
  const [paging, setPaging] = useState({ page: 1, limit });
  return {
    page: paging.page,
    limit: paging.limit,
    scope: paging,
    onPage: (page: number) => setPaging((p) => ({ ...p, page })),
    onLimit: (limit: number) => setPaging({ page: 1, limit }),
  };
}
