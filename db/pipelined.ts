import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Db, DbOrTx } from "./client";

const dialect = new PgDialect();

/** The process's database handle (not an open transaction): it can reserve a connection of its own. */
export function isPool(db: DbOrTx): db is Db {
  return "$client" in db;
}

/**
 * Runs statements as one transaction in one round trip: BEGIN, the statements and COMMIT are written
 * together on one reserved connection (`db.$client.reserve()`; postgres.js pipelines them, and each
 * statement is prepared, so after the first time it is one Bind/Execute). A drizzle transaction costs
 * two more round trips, as it waits for BEGIN before the statements and for them before COMMIT.
 *
 * None of the statements may depend on another's answer (they are all sent before any answer comes
 * back). When one fails Postgres refuses the rest (25P02) and COMMIT rolls everything back: the first
 * failure, in the order sent, is thrown. Returns the rows of the first statement, typed by the caller
 * (its select list is the promise of `T`).
 */
export async function pipelinedTransaction<T extends Record<string, unknown>>(db: Db, first: SQL, rest: SQL[]): Promise<T[]> {
  const conn = await db.$client.reserve();
  try {
    const run = (q: SQL) => {
      const { sql, params } = dialect.sqlToQuery(q);
      return conn.unsafe(sql, params as never[], { prepare: true });
    };
    const settled = await Promise.allSettled([conn.unsafe("begin"), run(first), ...rest.map(run), conn.unsafe("commit")]);
    const failed = settled.find((r) => r.status === "rejected");
    if (failed) throw failed.reason;
    const rows: unknown = settled[1].status === "fulfilled" ? settled[1].value : [];
    return Array.isArray(rows) ? (rows as T[]) : [];
  } finally {
    conn.release();
  }
}
