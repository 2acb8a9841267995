import { type SQL, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";

/** Small pieces of hand-written statements, from Drizzle columns (a renamed column is a type error). */

/** A column's bare name, for SET targets and INSERT column lists (which take no table prefix). */
export const name = (col: PgColumn): SQL => sql`${sql.identifier(col.name)}`;

/** `"a", "b", …`: an INSERT column list. */
export const names = (...cols: PgColumn[]): SQL =>
  sql.join(
    cols.map((c) => name(c)),
    sql`, `,
  );

/** `col = value, …`: a SET list. */
export const assign = (pairs: [PgColumn, SQL | string | number | null][]): SQL =>
  sql.join(
    pairs.map(([c, v]) => sql`${name(c)} = ${v}`),
    sql`, `,
  );

/** `with a as (…), b as (…) <last>`: data-modifying steps of one statement (atomic without BEGIN/COMMIT). */
export function withSteps(steps: [string, SQL][], last: SQL): SQL {
  if (steps.length === 0) return last;
  const parts = sql.join(
    steps.map(([alias, q]) => sql`${sql.identifier(alias)} as (${q})`),
    sql`, `,
  );
  return sql`with ${parts} ${last}`;
}

/** A moment as a timestamptz literal parameter. */
export const at = (d: Date): SQL => sql`${d.toISOString()}::timestamptz`;
