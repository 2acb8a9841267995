"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { data, client } from "@/components/api-client";
import { usePaging } from "@/components/ui/use-paging";
import { useSelection } from "@/components/ui/use-selection";
import { plural } from "./labels";
import { useCampaignLeads, useRefreshCampaign } from "./queries";
import { useReassignAll } from "./use-reassign";

/**
 * The leads tab's state: the page of campaign leads, the selection on it, the add dialog, the remove
 * confirmation and its call, Reassign, and the notice that reports what the last action did.
 */
export function useLeadsTab(campaignId: string) {
  const refresh = useRefreshCampaign(campaignId);
  const paging = usePaging(100);
  const leads = useCampaignLeads(campaignId, paging.page, paging.limit);
  const rows = leads.data?.leads ?? [];
  const total = leads.data?.total ?? 0;
  const unassigned = rows.filter((r) => !r.mailboxId).length;
  const selection = useSelection(
    rows.map((r) => ({ id: r.leadId })),
    paging.scope,
  );
  const [adding, setAdding] = useState(false);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const [notice, setNotice] = useState<string>();
  const reassign = useReassignAll(campaignId);

  const remove = useMutation({
    mutationFn: (leadIds: string[]) =>
      data(client.POST("/campaigns/{id}/leads/remove", { params: { path: { id: campaignId } }, body: { leadIds } })),
    // The notice comes with the refreshed table, not before it.
    onSuccess: async (r) => {
      await refresh();
      setConfirmRemove(false);
      selection.clear();
      setNotice(`Removed ${plural(r.removed, "lead")} from the campaign.`);
    },
  });

  return {
    paging,
    leads,
    rows,
    total,
    unassigned,
    selection,
    adding,
    setAdding,
    confirmRemove,
    setConfirmRemove,
    notice,
    setNotice,
    reassign,
    remove,
  };
}

export type LeadsTabState = ReturnType<typeof useLeadsTab>;
