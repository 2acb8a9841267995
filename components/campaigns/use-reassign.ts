"use client";

import { useMutation } from "@tanstack/react-query";
import { data, client } from "@/components/api-client";
import { useRefreshCampaign } from "./queries";

export interface ReassignTotals {
  reassigned: number;
  leftUnassigned: number;
  skippedAlreadyEmailed: number;
  unchanged: number;
  calls: number;
}

/** The API moves at most 1,000 leads per call and says `more` while others remain. */
const MAX_CALLS = 1000;

/**
 * "Reassign": `all: true` again and again while the server answers `more`, adding up the counts.
 * A batch where nothing moved ends the loop too, so a pool that cannot take the rest does not spin.
 */
export function useReassignAll(campaignId: string) {
  const refresh = useRefreshCampaign(campaignId);
  return useMutation({
    mutationFn: async (): Promise<ReassignTotals> => {
      const t: ReassignTotals = { reassigned: 0, leftUnassigned: 0, skippedAlreadyEmailed: 0, unchanged: 0, calls: 0 };
      for (;;) {
        const r = await data(client.POST("/campaigns/{id}/leads/reassign", { params: { path: { id: campaignId } }, body: { all: true } }));
        t.calls++;
        t.reassigned += r.reassigned;
        t.leftUnassigned += r.leftUnassigned;
        t.skippedAlreadyEmailed += r.skippedAlreadyEmailed;
        t.unchanged += r.unchanged;
        if (!r.more || r.reassigned === 0 || t.calls >= MAX_CALLS) return t;
      }
    },
    onSettled: () => refresh(),
  });
}

export function reassignSummary(t: ReassignTotals): string {
  const parts = [`Reassigned ${t.reassigned.toLocaleString()} lead${t.reassigned === 1 ? "" : "s"}`];
  if (t.leftUnassigned) parts.push(`${t.leftUnassigned.toLocaleString()} left without a mailbox (no pool mailbox can take them)`);
  if (t.skippedAlreadyEmailed)
    parts.push(`${t.skippedAlreadyEmailed.toLocaleString()} kept on their mailbox because they were already emailed`);
  return parts.join("; ") + ".";
}
