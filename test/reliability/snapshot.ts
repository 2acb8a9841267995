import { sql } from "drizzle-orm";
import { selectRows } from "../../db/bulk";
import { getDb } from "../../db/client";

/** Tables a refused request may still touch by design: its rate-limit point and the key's last use. */
const NOT_DATA = new Set(["rate_limit_counters", "job_runs"]);

let statement: ReturnType<typeof sql> | undefined;

/** Row counts of every table of the public schema, in one statement, to prove a refused request wrote nothing. */
export async function rowCounts(): Promise<Record<string, number>> {
  if (!statement) {
    const tables = await selectRows<{ t: string }>(
      getDb(),
      sql`select table_name as t from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
    );
    const parts = tables
      .map((r) => r.t)
      .filter((t) => !NOT_DATA.has(t))
      .map((t) => sql`select ${t} as t, count(*)::int as n from ${sql.identifier(t)}`);
    statement = sql.join(parts, sql` union all `);
  }
  const rows = await selectRows<{ t: string; n: number }>(getDb(), statement);
  return Object.fromEntries(rows.map((r) => [r.t, r.n]));
}

/** The tables whose counts differ between two snapshots, as `table: before → after`. */
export function changed(before: Record<string, number>, after: Record<string, number>): string[] {
  return Object.keys({ ...before, ...after })
    .filter((t) => before[t] !== after[t])
    .map((t) => `${t}: ${before[t]} → ${after[t]}`);
}
