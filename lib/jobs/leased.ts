import { and, eq, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../../db/client";

/** A job table whose rows are worked by one runner at a time: QUEUED/RUNNING rows, a lease, oldest first. */
type JobTable = PgTable & { id: PgColumn; status: PgColumn; leaseUntil: PgColumn; createdAt: PgColumn };
type Row<T extends JobTable> = T["$inferSelect"] & { id: string; leaseUntil: Date | null };

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/**
 * The claim and the guarded write of a leased job (blacklist checks, OAuth bulk connects): the oldest
 * open job whose lease is free is leased to this run (SKIP LOCKED: two claims never take one job),
 * and every later write applies only while `lease_until` is still the value this run set — a runner
 * whose lease ran out (or whose job was cancelled) writes nothing.
 */
export function leasedJobs<T extends JobTable>(table: T, leaseMs: number) {
  return {
    async claim(db: DbOrTx, now: Date): Promise<Row<T> | undefined> {
      const [job] = await db
        .update(table)
        // Both tables call the field leaseUntil (the JobTable shape): Drizzle's set() takes field names.
        .set({ leaseUntil: new Date(now.getTime() + leaseMs) } as Partial<T["$inferInsert"]>)
        .where(
          eq(
            table.id,
            sql`(select ${table.id} from ${table}
              where ${table.status} in ('QUEUED', 'RUNNING') and (${table.leaseUntil} is null or ${table.leaseUntil} < ${ts(now)})
              order by ${table.createdAt} limit 1 for update skip locked)`,
          ),
        )
        .returning();
      return job as Row<T> | undefined;
    },

    /** `set` applied only while the job's lease is this run's token. Returns whether it still was. */
    async whileHeld(db: DbOrTx, job: Row<T>, set: Partial<T["$inferInsert"]> & { leaseUntil?: Date | null }): Promise<boolean> {
      if (!job.leaseUntil) return false;
      const rows = await db
        .update(table)
        .set(set)
        .where(and(eq(table.id, job.id), eq(table.leaseUntil, job.leaseUntil)))
        .returning({ id: table.id });
      if (rows.length && set.leaseUntil !== undefined) job.leaseUntil = set.leaseUntil;
      return rows.length > 0;
    },
  };
}
