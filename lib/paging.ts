import { z } from "zod";

/** `page` (1-based) and `limit` for a list; a limit above the list's maximum is a 400 (not silently capped). */
export function pageQuery(opts: { defaultLimit: number; maxLimit: number }) {
  return z.object({
    page: z.coerce.number().int().min(1, "page must be 1 or more").default(1),
    limit: z.coerce.number().int().min(1).max(opts.maxLimit, `limit must be at most ${opts.maxLimit}`).default(opts.defaultLimit),
  });
}

export interface Paging {
  page: number;
  limit: number;
}

export function offsetOf(p: Paging): number {
  return (p.page - 1) * p.limit;
}

/** The paging envelope: `{ <key>: rows, page, limit, total }` (see docs/api.md). */
export function envelope<K extends string, T>(key: K, rows: T[], total: number, p: Paging) {
  return { [key]: rows, page: p.page, limit: p.limit, total } as { [k in K]: T[] } & Paging & { total: number };
}
