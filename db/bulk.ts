import { type GetColumnData, getTableColumns, type SQL, sql } from "drizzle-orm";
import { PgColumn, type PgTable } from "drizzle-orm/pg-core";
import type { DbOrTx } from "./client";

/**
 * Set-based statements, typed by the schema. Every bulk statement sends its rows as ONE jsonb
 * parameter (`jsonb_to_recordset`), so a thousand rows cost one round trip and one parameter, and the
 * field list comes from Drizzle column objects: renaming a column, or changing its type, is a type
 * error at every statement that uses it.
 */

/** The SQL type of a field that is not a table column (a computed value carried with the rows). */
export type FieldType = "text" | "int" | "bigint" | "boolean" | "timestamptz" | "jsonb" | "text[]" | "double precision";

type FieldTypeData = {
  text: string;
  int: number;
  bigint: number;
  boolean: boolean;
  timestamptz: Date | string;
  jsonb: unknown;
  "text[]": string[];
  "double precision": number;
};

/** The fields of a recordset: each a table column (its name and type) or a computed field's type. */
export type Shape = Record<string, PgColumn | FieldType>;

/** One input row of a shape: each field's value as the column holds it (Dates allowed for timestamps). */
export type RowOf<S extends Shape> = {
  [K in keyof S]: S[K] extends PgColumn ? GetColumnData<S[K], "raw"> | null : S[K] extends FieldType ? FieldTypeData[S[K]] | null : never;
};

function fieldType(f: PgColumn | FieldType): string {
  return f instanceof PgColumn ? f.getSQLType() : f;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Rows → the jsonb parameter, as they are: the recordset's fields are named by the shape's keys, so no
 * copy is made (JSON.stringify writes Dates as ISO strings; a missing key is null).
 */
function toJson<S extends Shape>(rows: readonly RowOf<S>[]): string {
  return JSON.stringify(rows);
}

export interface Recordset<S extends Shape> {
  /** `jsonb_to_recordset($1::jsonb) as alias(field type, …)`, for a FROM or JOIN. */
  readonly from: SQL;
  /** `alias."field"`: one field of the recordset, by its key in the shape. */
  col(key: keyof S & string): SQL;
  readonly alias: string;
  readonly size: number;
  /**
   * `column = alias."key"` for each row, with the rows' keys also listed (`column = any(…)`), so the
   * table's rows are found through the column's index whatever the statistics say. Joined to the JSON
   * rows alone, the planner expects 100 of them, and on statistics from before a table's first
   * ANALYZE (a new install, a table that has just grown) it scans or hashes the whole table instead —
   * once per statement, a cost that grows with the table. The way to key an UPDATE … FROM a recordset.
   */
  matches(column: PgColumn, key: keyof S & string): SQL;
}

/**
 * A typed recordset of `rows` under `alias`. Keys of `shape` name the fields (in TypeScript and in the
 * SQL, quoted); a key holding a column takes the column's SQL type.
 *
 *     const v = recordset("v", { id: emails.id, at: emails.sentAt }, rows);
 *     sql`update ${emails} set ${emails.sentAt} = ${v.col("at")} from ${v.from} where ${v.matches(emails.id, "id")}`
 */
export function recordset<S extends Shape>(alias: string, shape: S, rows: readonly RowOf<S>[]): Recordset<S> {
  const defs = Object.entries(shape)
    .map(([k, f]) => `${quote(k)} ${fieldType(f)}`)
    .join(", ");
  const col = (key: keyof S & string) => sql.raw(`${quote(alias)}.${quote(key)}`);
  return {
    from: sql`jsonb_to_recordset(${toJson(rows)}::jsonb) as ${sql.raw(`${quote(alias)}(${defs})`)}`,
    col,
    alias,
    size: rows.length,
    matches: (column, key) =>
      sql`${column} = any(array(select jsonb_array_elements_text(${JSON.stringify(rows.map((r) => r[key]))}::jsonb))::${sql.raw(column.getSQLType())}[])
        and ${column} = ${col(key)}`,
  };
}

/** `= any(…)` for a list of values sent as one parameter (the planner sees one value list). */
export function anyOf(values: readonly (string | number)[]): SQL {
  return sql`any(array(select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb)))`;
}

/** A one-column set of the values, to join or LATERAL over: `(select jsonb_array_elements_text($1))`. */
export function valuesOf(values: readonly string[]): SQL {
  return sql`(select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))`;
}

/**
 * The rows of a hand-written statement, typed by the caller. The one place a raw result is cast: the
 * statement's select list is the caller's promise of `T`.
 */
export async function selectRows<T extends Record<string, unknown>>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return Array.isArray(result) ? (result as T[]) : [];
}

type TableRow<T extends PgTable> = { [K in keyof T["_"]["columns"]]: GetColumnData<T["_"]["columns"][K], "raw"> | null };

/** The columns of `table` named by `keys`, by key: a selection for `db.select(…)`, or a recordset shape. */
export function columnsOf<T extends PgTable, K extends keyof T["_"]["columns"] & string>(
  table: T,
  keys: readonly K[],
): { [P in K]: T["_"]["columns"][P] } {
  const cols = getTableColumns(table);
  return Object.fromEntries(keys.map((k) => [k, cols[k]])) as { [P in K]: T["_"]["columns"][P] };
}

/** The columns of `table` named by `keys`, as a recordset shape. */
function shapeOf<T extends PgTable>(table: T, keys: readonly string[]): Shape {
  return columnsOf(table, keys as (keyof T["_"]["columns"] & string)[]) as Shape;
}

/**
 * `insert into table (…) select … from jsonb_to_recordset(…)`: many rows in one parameter. Columns are
 * those of the first row's keys (every row must have the same keys; missing values insert null).
 * `onConflictDoNothing` skips rows that hit a unique index; `returning` lists columns to return.
 */
export async function bulkInsert<T extends PgTable, R extends Partial<TableRow<T>>>(
  db: DbOrTx,
  table: T,
  rows: readonly R[],
  opts: { onConflictDoNothing?: boolean; returning?: (keyof T["_"]["columns"] & string)[] } = {},
): Promise<Record<string, unknown>[]> {
  if (rows.length === 0) return [];
  const keys = Object.keys(rows[0]);
  const shape = shapeOf(table, keys);
  const v = recordset("v", shape, rows as unknown as RowOf<Shape>[]);
  const cols = sql.raw(keys.map((k) => quote((shape[k] as PgColumn).name)).join(", "));
  const picks = sql.join(
    keys.map((k) => v.col(k)),
    sql`, `,
  );
  const conflict = opts.onConflictDoNothing ? sql` on conflict do nothing` : sql``;
  const returning = opts.returning?.length
    ? sql` returning ${sql.raw(opts.returning.map((k) => `${quote((getTableColumns(table) as Record<string, PgColumn>)[k].name)} as ${quote(k)}`).join(", "))}`
    : sql``;
  return selectRows(db, sql`insert into ${table} (${cols}) select ${picks} from ${v.from}${conflict}${returning}`);
}

/**
 * `update table set … from jsonb_to_recordset(…) where table.key = v.key`: a different value per row,
 * one statement. Sets every key of the rows except `key`.
 */
export async function bulkUpdate<T extends PgTable, K extends keyof T["_"]["columns"] & string>(
  db: DbOrTx,
  table: T,
  key: K,
  rows: readonly (Partial<TableRow<T>> & Record<K, unknown>)[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const keys = Object.keys(rows[0]);
  const shape = shapeOf(table, keys);
  const v = recordset("v", shape, rows as unknown as RowOf<Shape>[]);
  const name = (k: string) => sql.raw(quote((shape[k] as PgColumn).name));
  const sets = sql.join(
    keys.filter((k) => k !== key).map((k) => sql`${name(k)} = ${v.col(k)}`),
    sql`, `,
  );
  const result = await selectRows(
    db,
    sql`update ${table} set ${sets} from ${v.from} where ${v.matches(shape[key] as PgColumn, key)} returning 1`,
  );
  return result.length;
}
