import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { DbOrTx } from "./client";

const dialect = new PgDialect();

/**
 * Runs raw SQL as a prepared statement (drizzle's `execute` runs it unprepared). postgres.js answers
 * an unprepared statement with parameters in two round trips — Parse/Describe, then Bind/Execute — and
 * the server parses and plans it every time; a prepared one is described once per connection, then
 * costs one round trip (several can be pipelined in a transaction) and the server keeps its plan.
 *
 * For statements run often whose text does not depend on their input: pass lists as one JSON
 * parameter (`jsonb_to_recordset`), and timestamps as ISO strings (drizzle hands timestamp parameters
 * to postgres.js unconverted).
 */
export async function runPrepared<T = Record<string, unknown>>(db: DbOrTx, query: SQL): Promise<T[]> {
  const prepared = db._.session.prepareQuery<{ execute: T[]; all: T[]; values: unknown[][] }>(
    dialect.sqlToQuery(query),
    undefined,
    "prepared",
    false,
  );
  return (await prepared.execute()) as T[];
}
