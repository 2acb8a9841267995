import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { selectRows } from "../../db/bulk";

/** The clean-up's lease: one job_runs row, held while its finish time is empty and its start is recent. */
const LEASE_ROW = "maintenance-cleanup:lease";
/** A holder that crashed frees the lease after this long (a run takes seconds; the job runs every 5 minutes). */
export const CLEANUP_LEASE_MS = 10 * 60_000;

/**
 * Takes the clean-up's lease, or returns undefined while another run holds it. The local runner lets
 * every worker run every job, and Inngest's cron may run beside them: the lease keeps the clean-up to
 * one run at a time. The start time this run wrote is its token (one upsert: two takers are serialised
 * on the row, and the second sees it held).
 */
export async function takeCleanupLease(db: DbOrTx, now: Date): Promise<Date | undefined> {
  const at = now.toISOString();
  const freeBefore = new Date(now.getTime() - CLEANUP_LEASE_MS).toISOString();
  const rows = await selectRows<{ name: string }>(
    db,
    sql`insert into job_runs (name, last_started_at) values (${LEASE_ROW}, ${at}::timestamptz)
      on conflict (name) do update set last_started_at = excluded.last_started_at, last_finished_at = null
      where job_runs.last_finished_at is not null or job_runs.last_started_at < ${freeBefore}::timestamptz
      returning name`,
  );
  return rows.length ? now : undefined;
}

/** Frees the lease if it is still this run's (a run whose lease ran out and was taken writes nothing). */
export async function releaseCleanupLease(db: DbOrTx, token: Date, now: Date): Promise<void> {
  await db.execute(
    sql`update job_runs set last_finished_at = ${now.toISOString()}::timestamptz
      where name = ${LEASE_ROW} and last_finished_at is null and last_started_at = ${token.toISOString()}::timestamptz`,
  );
}
