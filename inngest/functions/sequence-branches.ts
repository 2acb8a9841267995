import type { JobDef } from "../../lib/jobs/registry";
import { decideBranches } from "../../lib/sending/branching";

/**
 * Branch decisions (lib/sending/branching.ts): leads whose step's branch rules can now be answered — a
 * reply arrived, or silence became final — take their branch. Every 5 s in the local runner, every
 * minute under Inngest.
 */
export const sequenceBranchesJob: JobDef = {
  name: "sequence-branches",
  cron: "* * * * *",
  everyMs: 5_000,
  async run({ db, clock }) {
    return { ...(await decideBranches(db, clock)) };
  },
};
