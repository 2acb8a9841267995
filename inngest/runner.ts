import { systemCtx } from "../lib/ctx";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client";
import { jobRuns } from "../db/schema";
import type { Clock } from "../lib/clock";
import type { JobDef } from "../lib/jobs/registry";

/** Runs one job and records when and how it went in job_runs (shown by /api/health). */
export async function runJob(db: DbOrTx, clock: Clock, job: JobDef): Promise<Record<string, unknown> | undefined> {
  const started = clock.now();
  await db
    .insert(jobRuns)
    .values({ name: job.name, lastStartedAt: started })
    .onConflictDoUpdate({ target: jobRuns.name, set: { lastStartedAt: started } });
  try {
    const result = await job.run(systemCtx(undefined, { db, clock }));
    await db
      .update(jobRuns)
      .set({ lastFinishedAt: clock.now(), lastError: null, lastResult: result ?? null })
      .where(sql`name = ${job.name}`);
    return result;
  } catch (e) {
    await db
      .update(jobRuns)
      .set({ lastFinishedAt: clock.now(), lastError: String((e as Error)?.stack ?? e) })
      .where(sql`name = ${job.name}`);
    throw e;
  }
}

/**
 * The sidecar's local runner: every tick, runs each job whose interval has passed. With several
 * workers each may run a job; jobs are safe to run concurrently by design.
 */
export class LocalRunner {
  private lastRun = new Map<string, number>();
  constructor(
    private db: DbOrTx,
    private clock: Clock,
    private jobs: JobDef[],
    private log: (line: string) => void = () => {},
  ) {}

  async tick(): Promise<void> {
    const now = this.clock.now().getTime();
    for (const job of this.jobs) {
      const last = this.lastRun.get(job.name);
      if (last !== undefined && now - last < job.everyMs) continue;
      this.lastRun.set(job.name, now);
      try {
        await runJob(this.db, this.clock, job);
      } catch (e) {
        this.log(`[worker] job ${job.name} failed: ${(e as Error).message}`);
      }
    }
    await this.db
      .insert(jobRuns)
      .values({ name: "worker-tick", lastStartedAt: this.clock.now(), lastFinishedAt: this.clock.now() })
      .onConflictDoUpdate({ target: jobRuns.name, set: { lastFinishedAt: this.clock.now() } });
  }
}
