import { Inngest } from "inngest";
import { getDb, resolveDatabaseUrl } from "../db/client";
import { currentClock } from "../lib/clock";
import { jobs } from "./functions";
import { runJob } from "./runner";

export const inngest = new Inngest({ id: "outreach" });

/**
 * The same job list as the local runner, as Inngest cron functions. One run at a time per job: jobs
 * claim their own work, so this only saves wasted runs.
 */
export const inngestFunctions = jobs.map((job) =>
  inngest.createFunction({ id: job.name, triggers: [{ cron: job.cron }], concurrency: { limit: 1 } }, async () => {
    await resolveDatabaseUrl();
    return (await runJob(getDb(), currentClock(), job)) ?? {};
  }),
);
