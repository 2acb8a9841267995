import type { JobCtx } from "../ctx";
import { advanceWarmupDays } from "./days";
import { readPoolSeeds } from "./pool-seeds";
import { sendDueAnswers, sendDueWarmup } from "./send";

/**
 * The warmup job, one pass: ramps moved on to today (day index, target, status), then the new
 * conversations that are due, then the planned answers that are due, then the installation seeds'
 * mail (pool-seeds.ts). Safe to run at any time, twice
 * at once (leases, SKIP LOCKED) or after a crash (rows are SENDING before SMTP and never resent).
 */
export async function runWarmup(ctx: JobCtx) {
  const now = () => ctx.clock.now();
  const moved = await advanceWarmupDays(ctx.db, now());
  const sent = await sendDueWarmup(ctx.db, now, ctx.log);
  const answers = await sendDueAnswers(ctx.db, now);
  const poolReceived = await readPoolSeeds(ctx.db, now(), ctx.log);
  return { moved, ...sent, answers, poolReceived };
}
