import { sql } from "drizzle-orm";
import { selectRows } from "../../db/bulk";
import { getDb } from "../../db/client";

/** Tables a refused request may still touch by design: its rate-limit point and the key's last use. */
const NOT_DATA = new Set(["rate_limit_counters", "job_runs"]);

/** Columns a refused request may still write by design: the API key's last use, stamped once it is known. */
const NOT_DATA_COLUMNS: Record<string, string[]> = { api_keys: ["last_used_at"] };

let statement: ReturnType<typeof sql> | undefined;

/**
 * The contents of every table of the public schema, in one statement, to prove a refused request wrote
 * nothing: per table its row count and an md5 of every row (as JSON, sorted), so a partial UPDATE that
 * leaves the count alone still shows.
 */
export async function tableContents(): Promise<Record<string, string>> {
  if (!statement) {
    const tables = await selectRows<{ t: string }>(
      getDb(),
      sql`select table_name as t from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
    );
    const parts = tables
      .map((r) => r.t)
      .filter((t) => !NOT_DATA.has(t))
      .map((t) => {
        const dropped = (NOT_DATA_COLUMNS[t] ?? []).map((c) => sql` - ${c}::text`);
        const row = sql`(to_jsonb(r)${sql.join(dropped, sql``)})::text`;
        return sql`select ${t} as t, count(*)::int || ' rows, md5 ' || md5(coalesce(string_agg(${row}, ',' order by ${row}), '')) as h from ${sql.identifier(t)} r`;
      });
    statement = sql.join(parts, sql` union all `);
  }
  const rows = await selectRows<{ t: string; h: string }>(getDb(), statement);
  return Object.fromEntries(rows.map((r) => [r.t, r.h]));
}

/** The tables whose contents differ between two snapshots, as `table: before → after`. */
export function changed(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys({ ...before, ...after })
    .filter((t) => before[t] !== after[t])
    .map((t) => `${t}: ${before[t]} → ${after[t]}`);
}
