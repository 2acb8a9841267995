import type { Paging } from "../paging";

/** The second list form: a plain array with X-Total-Count, X-Page and X-Limit. */
export function plainPage<T>(rows: T[], total: number, p: Paging): Response {
  return Response.json(rows, {
    headers: { "X-Total-Count": String(total), "X-Page": String(p.page), "X-Limit": String(p.limit) },
  });
}
