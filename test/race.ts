import type postgres from "postgres";

/**
 * Two writers racing on one row, made deterministic: runs `first` in a transaction on `sql` that stays
 * open until `second` has been seen waiting on a lock in this database — or has finished without
 * waiting — then commits `first` and awaits both (a failure of either fails the race). Returns whether
 * `second` waited. Polls pg_stat_activity; never sleeps.
 */
export async function race(
  sql: postgres.Sql,
  first: (tx: postgres.TransactionSql) => Promise<unknown>,
  second: () => Promise<unknown>,
): Promise<boolean> {
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  let ready!: () => void;
  const firstDone = new Promise<void>((r) => {
    ready = r;
  });
  const t1 = sql.begin(async (tx) => {
    await first(tx);
    ready();
    await gate;
  });
  await Promise.race([firstDone, t1]);
  let settled = false;
  const t2 = second().finally(() => {
    settled = true;
  });
  let waited = false;
  while (!settled && !waited) {
    const [w] = await sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`;
    waited = w.n > 0;
    await new Promise((r) => setImmediate(r));
  }
  release();
  await Promise.all([t1, t2]);
  return waited;
}
