import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { selectRows } from "./bulk";
import type { Db, DbOrTx } from "./client";

const dialect = new PgDialect();

/** The process's database handle (not an open transaction): it can reserve a connection of its own. */
export function isPool(db: DbOrTx): db is Db {
  return "$client" in db;
}

type Reserved = Awaited<ReturnType<Db["$client"]["reserve"]>>;

/**
 * A connection reserved for `fn`, with `run` sending a Drizzle statement on it prepared (after the
 * first time one Bind/Execute). postgres.js pipelines what is sent before the answers come back.
 */
async function onReserved<R>(db: Db, fn: (run: (q: SQL) => Promise<unknown>, conn: Reserved) => Promise<R>): Promise<R> {
  const conn = await db.$client.reserve();
  try {
    return await fn((q) => {
      const { sql, params } = dialect.sqlToQuery(q);
      return conn.unsafe(sql, params as never[], { prepare: true });
    }, conn);
  } finally {
    conn.release();
  }
}

/** Throws the first failure in the order sent (Postgres refuses the statements after a failed one with 25P02). */
function throwFirstFailure(settled: PromiseSettledResult<unknown>[]): void {
  const failed = settled.find((r) => r.status === "rejected");
  if (failed) throw failed.reason;
}

/**
 * Runs statements as one transaction in one round trip: BEGIN, the statements and COMMIT are written
 * together on one reserved connection. A drizzle transaction costs two more round trips, as it waits
 * for BEGIN before the statements and for them before COMMIT.
 *
 * None of the statements may depend on another's answer (they are all sent before any answer comes
 * back). When one fails Postgres refuses the rest and COMMIT rolls everything back: the first failure,
 * in the order sent, is thrown. Returns the rows of the first statement, typed by the caller (its
 * select list is the promise of `T`).
 */
export async function pipelinedTransaction<T extends Record<string, unknown>>(db: Db, first: SQL, rest: SQL[]): Promise<T[]> {
  return onReserved(db, async (run, conn) => {
    const settled = await Promise.allSettled([conn.unsafe("begin"), run(first), ...rest.map(run), conn.unsafe("commit")]);
    throwFirstFailure(settled);
    const rows: unknown = settled[1].status === "fulfilled" ? settled[1].value : [];
    return Array.isArray(rows) ? (rows as T[]) : [];
  });
}

/**
 * A transaction of one read and the writes that follow from its rows, in two round trips: BEGIN and
 * `read` are written together, then `writes(rows)` and COMMIT together. A Drizzle transaction waits
 * for BEGIN, for the read, for each write and for COMMIT. The writes may not depend on each other's
 * answers. When the read or a write fails (or `writes` throws) the transaction is rolled back and the
 * first failure, in the order sent, is thrown. Inside an open transaction (`db` is not the pool) the
 * same statements run in a savepoint.
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
  return onReserved(db, async (run, conn) => {
    let w: { statements: SQL[]; result: R };
    try {
      const [, rows]: unknown[] = await Promise.all([conn.unsafe("begin"), run(read)]);
      // The read's select list is the caller's promise of `T` (as with selectRows).
      w = writes(Array.isArray(rows) ? (rows as T[]) : []);
    } catch (e) {
      await conn.unsafe("rollback").catch(() => {});
      throw e;
    }
    throwFirstFailure(await Promise.allSettled([...w.statements.map(run), conn.unsafe("commit")]));
    return w.result;
  });
}
