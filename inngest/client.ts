import { systemCtx } from "../lib/ctx";
import { Inngest } from "inngest";
import { getDb, resolveDatabaseUrl } from "../db/client";
import { currentClock } from "../lib/clock";
import { jobs } from "./functions";
import { runJob } from "./runner";

export const inngest = new Inngest({ id: "outreach" });

const system = () => systemCtx(undefined, { db: getDb(), clock: currentClock() });

/**
 * The same job list as the local runner, as Inngest functions. A plain job is one cron function (one
 * run at a time: jobs claim their own work, so this only saves wasted runs). A fan-out job is a cron
 * that sends one event per key (per mailbox) and a function per event with concurrency keyed by it.
 */
export const inngestFunctions = jobs.flatMap((job) => {
  const fan = job.fanOut;
  if (!fan) {
    return [
      inngest.createFunction({ id: job.name, triggers: [{ cron: job.cron }], concurrency: { limit: 1 } }, async () => {
        await resolveDatabaseUrl();
        return (await runJob(getDb(), currentClock(), job)) ?? {};
      }),
    ];
  }
  return [
    inngest.createFunction({ id: `${job.name}-fan-out`, triggers: [{ cron: job.cron }], concurrency: { limit: 1 } }, async ({ step }) => {
      await resolveDatabaseUrl();
      const keys = await step.run("list", () => fan.list(system()));
      for (let i = 0; i < keys.length; i += 500) {
        await step.sendEvent(
          `fan-out-${i}`,
          keys.slice(i, i + 500).map((key) => ({ name: fan.event, data: { key } })),
        );
      }
      return { keys: keys.length };
    }),
    inngest.createFunction(
      { id: job.name, triggers: [{ event: fan.event }], concurrency: { key: "event.data.key", limit: 1 } },
      async ({ event }) => {
        await resolveDatabaseUrl();
        return (await fan.runOne(system(), String((event.data as { key: string }).key))) ?? {};
      },
    ),
  ];
});
