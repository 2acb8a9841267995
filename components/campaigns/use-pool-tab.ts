"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { data, client } from "@/components/api-client";
import { useSelection } from "@/components/ui/use-selection";
import { plural } from "./labels";
import { usePool, useRefreshCampaign } from "./queries";
import { useReassignAll } from "./use-reassign";

/**
 * The pool tab's state: the pool and the leads sitting outside it, the selection, the add dialog, the
 * remove call, Reassign, and the notice that reports what the last action did.
 */
export function usePoolTab(campaignId: string) {
  const refresh = useRefreshCampaign(campaignId);
  const pool = usePool(campaignId);
  const rows = pool.data?.mailboxes ?? [];
  const outside = pool.data?.leadsOutsidePool ?? 0;
  const selection = useSelection(rows, campaignId); // one page: the whole pool
  const [adding, setAdding] = useState(false);
  const [notice, setNotice] = useState<string>();
  const reassign = useReassignAll(campaignId);

  const remove = useMutation({
    mutationFn: (mailboxIds: string[]) =>
      data(client.POST("/campaigns/{id}/mailboxes/remove", { params: { path: { id: campaignId } }, body: { mailboxIds } })),
    onSuccess: async (r) => {
      await refresh();
      selection.clear();
      setNotice(`Removed ${plural(r.removed, "mailbox", "mailboxes")} from the pool.`);
    },
  });

  return { pool, rows, outside, selection, adding, setAdding, notice, setNotice, reassign, remove };
}

export type PoolTabState = ReturnType<typeof usePoolTab>;
