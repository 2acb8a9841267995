import type { Ctx } from "../ctx";

/**
 * A background job: a plain function that finds due work in Postgres, claims it, does it and
 * records the result. Safe to run at any time, twice at once, or after a crash (architecture).
 */
export interface JobDef {
  /** Stable id, also the Inngest function id. */
  name: string;
  /** Cron for Inngest; the local runner uses everyMs. */
  cron: string;
  everyMs: number;
  /** Runs with a system actor across all workspaces. */
  run(ctx: Omit<Ctx, "workspaceId">): Promise<Record<string, unknown> | undefined>;
  /**
   * Optional per-key fan-out for Inngest (e.g. one run per mailbox, concurrency keyed by mailbox):
   * the cron lists the keys, an event per key triggers runOne. The local runner just calls run.
   */
  fanOut?: {
    event: string;
    list(ctx: Omit<Ctx, "workspaceId">): Promise<string[]>;
    runOne(ctx: Omit<Ctx, "workspaceId">, key: string): Promise<Record<string, unknown> | undefined>;
  };
}
