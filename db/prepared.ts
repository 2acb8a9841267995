import type { SQL } from "drizzle-orm";
import type { DbOrTx } from "./client";

/**
 * Runs raw SQL and returns its rows. Statements with few parameters are prepared by the client
 * (db/client.ts, DB_PREPARE_MAX_PARAMS): described once per connection, then one round trip each
 * (several can be pipelined in a transaction), and the server keeps the plan.
 *
 * For statements run often whose text does not depend on their input: pass lists as one JSON
 * parameter (`jsonb_to_recordset`), so the text — and its prepared statement — stays the same, and
 * timestamps as ISO strings (drizzle hands timestamp parameters to postgres.js unconverted).
 */
export async function runPrepared<T = Record<string, unknown>>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return Array.isArray(result) ? (result as T[]) : [];
}
