import { type SQL, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { selectRows } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";

/**
 * Claims up to `limit` rows of a periodic check whose `checkedAt` is empty or older than `before`
 * (oldest first, SKIP LOCKED). The claim itself moves `checkedAt` to `now`, so several workers never
 * take the same row. `orEqual` counts a row checked exactly at `before` as due; `where` narrows the rows.
 */
export async function claimStale(
  db: DbOrTx,
  cols: { id: PgColumn; checkedAt: PgColumn },
  o: { now: Date; before: Date; limit: number; orEqual?: boolean; where?: SQL },
): Promise<string[]> {
  const { id, checkedAt } = cols;
  const before = sql`${o.before.toISOString()}::timestamptz`;
  const stale = o.orEqual ? sql`${checkedAt} <= ${before}` : sql`${checkedAt} < ${before}`;
  const rows = await selectRows<{ id: string }>(
    db,
    sql`
      update ${checkedAt.table} set ${sql.identifier(checkedAt.name)} = ${o.now.toISOString()}::timestamptz
      where ${id} in (
        select ${id} from ${checkedAt.table}
        where ${o.where ?? sql`true`} and (${checkedAt} is null or ${stale})
        order by ${checkedAt} nulls first
        limit ${o.limit}
        for update skip locked)
      returning ${id} as id`,
  );
  return rows.map((r) => r.id);
}
