import type { JobDef } from "../../lib/jobs/registry";
import { settleAllDue } from "../../lib/analytics/tracking-settle";

/**
 * Tracking hits' settling pass (lib/analytics/tracking-settle.ts): the web process settles its own hits
 * a few seconds after writing them; this job settles what a process left behind (it stopped, or died,
 * between writing hits and settling them). Every 15 s in the local runner, every minute under Inngest.
 */
export const trackingSettleJob: JobDef = {
  name: "tracking-settle",
  cron: "* * * * *",
  everyMs: 15_000,
  async run({ db, clock }) {
    const r = await settleAllDue(db, clock.now());
    return { settled: r.settled, opened: r.opened, clicked: r.clicked, ...r.byClass };
  },
};
