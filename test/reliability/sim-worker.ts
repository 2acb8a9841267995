import { readFileSync } from "node:fs";
import { getDb } from "../../db/client";
import type { Clock } from "../../lib/clock";
import { LocalRunner } from "../../inngest/runner";
import { sendCampaignEmailsJob } from "../../inngest/functions/send-campaign-emails";
import { webhookDispatchJob } from "../../inngest/functions/webhook-deliveries";

/**
 * A worker process for the scale-out suite: the local runner with the send and webhook jobs, on the
 * database in DATABASE_URL, on a simulated clock — the time written in SIM_CLOCK_FILE, read at every
 * `now()`, so the test moves several processes through a week together. Prints `listening 0` when
 * started, and `tick <the simulated time it started at>` after each runner tick.
 */
const file = process.env.SIM_CLOCK_FILE;
if (!file) throw new Error("SIM_CLOCK_FILE is not set");
const clock: Clock = { now: () => new Date(readFileSync(file, "utf8").trim()) };
const runner = new LocalRunner(getDb(), clock, [sendCampaignEmailsJob, webhookDispatchJob], (line) => process.stderr.write(`${line}\n`));
let stopped = false;
process.on("SIGTERM", () => {
  stopped = true;
});
process.stdout.write("listening 0\n");
while (!stopped) {
  const at = clock.now().toISOString();
  await runner.tick().catch((e) => process.stderr.write(`tick failed: ${(e as Error).message}\n`));
  process.stdout.write(`tick ${at}\n`);
  await new Promise((r) => setTimeout(r, 20));
}
process.exit(0);
