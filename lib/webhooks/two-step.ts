import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { selectRows } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import { isPool } from "../../db/pipelined";

const dialect = new PgDialect();

/**
 * A transaction of one read and the writes that follow from its rows, in two round trips: BEGIN and
 * `read` are written together on a reserved connection, then `writes(rows)` and COMMIT together
 * (postgres.js pipelines them; each statement is prepared). A Drizzle transaction waits for BEGIN, for
 * the read, for each write and for COMMIT — four more round trips for the dispatch, whose latency
 * decides how soon its deliveries can go out. The writes may not depend on each other's answers.
 *
 * When the read or a write fails, the transaction is rolled back (a failed statement makes Postgres
 * refuse the rest, and COMMIT then rolls back) and the first failure, in the order sent, is thrown.
 * Inside an open transaction (`db` is not the pool) the same statements run in a savepoint.
 */
export async function twoStepTransaction<T extends Record<string, unknown>, R>(
  db: DbOrTx,
  read: SQL,
  writes: (rows: T[]) => { statements: SQL[]; result: R },
): Promise<R> {
  if (!isPool(db))
    return db.transaction(async (tx) => {
      const w = writes(await selectRows<T>(tx, read));
      for (const q of w.statements) await tx.execute(q);
      return w.result;
    });
  const conn = await db.$client.reserve();
  const run = (q: SQL) => {
    const { sql, params } = dialect.sqlToQuery(q);
    return conn.unsafe(sql, params as never[], { prepare: true });
  };
  try {
    let w: { statements: SQL[]; result: R };
    try {
      const [, rows]: unknown[] = await Promise.all([conn.unsafe("begin"), run(read)]);
      // The read's select list is the caller's promise of `T` (as with selectRows).
      w = writes(Array.isArray(rows) ? rows : []);
    } catch (e) {
      await conn.unsafe("rollback").catch(() => {});
      throw e;
    }
    const settled = await Promise.allSettled([...w.statements.map(run), conn.unsafe("commit")]);
    const failed = settled.find((r) => r.status === "rejected");
    if (failed) throw failed.reason;
    return w.result;
  } finally {
    conn.release();
  }
}
