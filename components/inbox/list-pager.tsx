"use client";

import { Button } from "@/components/ui/button";

/** "Page 2 of 5 · 230 conversations" with previous/next, under a list of the inbox; nothing when it fits on one page. */
export function ListPager({
  page,
  limit,
  total,
  noun,
  onPage,
}: {
  page: number;
  limit: number;
  total: number;
  noun: [one: string, many: string];
  onPage: (page: number) => void;
}) {
  if (total <= limit && page <= 1) return null;
  const pages = Math.max(1, Math.ceil(total / limit));
  return (
    <div className="flex items-center justify-between border-t border-gray-200 px-3 py-2 text-xs text-gray-600">
      <span>
        Page {page} of {pages} · {total.toLocaleString()} {total === 1 ? noun[0] : noun[1]}
      </span>
      <span className="flex gap-1">
        <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Previous
        </Button>
        <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
          Next
        </Button>
      </span>
    </div>
  );
}
