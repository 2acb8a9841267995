"use client";

import { Button } from "./button";
import { Select } from "./input";

/** "1–50 of 120", a page-size picker and previous/next, for a list the API pages with page/limit. */
export function Pager({
  page,
  limit,
  total,
  shown,
  sizes,
  onPage,
  onLimit,
}: {
  page: number;
  limit: number;
  total: number;
  /** Rows on this page. */
  shown: number;
  sizes: number[];
  onPage: (page: number) => void;
  onLimit: (limit: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / limit));
  const first = total === 0 ? 0 : (page - 1) * limit + 1;
  return (
    <div className="flex items-center justify-between text-sm text-gray-700">
      <p>{total === 0 ? "No results" : `${first.toLocaleString()}–${(first + shown - 1).toLocaleString()} of ${total.toLocaleString()}`}</p>
      <div className="flex items-center gap-2">
        <Select
          aria-label="Rows per page"
          value={String(limit)}
          onChange={(e) => onLimit(Number(e.target.value))}
          className="w-auto min-w-28"
        >
          {sizes.map((n) => (
            <option key={n} value={n}>
              {n} / page
            </option>
          ))}
        </Select>
        <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Previous
        </Button>
        <span>
          Page {page} of {pages}
        </span>
        <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
          Next
        </Button>
      </div>
    </div>
  );
}
