"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { describeError, data, client } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { plural } from "./labels";
import { keys } from "./queries";
import type { Campaign, DeleteResult } from "./types";

/**
 * Deleting cannot be undone, so the dialog first shows what goes with it (GET delete-preview) and lets
 * the user also delete the leads that are in no other campaign (deleteLeads=true, dashboard only).
 */
export function DeleteCampaignDialog({
  campaign,
  onClose,
  onDone,
}: {
  campaign: Campaign;
  onClose: () => void;
  onDone: (r: DeleteResult) => void;
}) {
  const queryClient = useQueryClient();
  const [deleteLeads, setDeleteLeads] = useState(false);
  const preview = useQuery({
    queryKey: keys.part(campaign.id, "delete-preview"),
    queryFn: ({ signal }) => data(client.GET("/campaigns/{id}/delete-preview", { params: { path: { id: campaign.id } }, signal })),
    staleTime: 0,
  });
  const remove = useMutation({
    mutationFn: () =>
      data(
        client.DELETE("/campaigns/{id}", {
          params: { path: { id: campaign.id }, query: deleteLeads ? { deleteLeads: "true" } : {} },
        }),
      ),
    onSuccess: async (r) => {
      queryClient.removeQueries({ queryKey: keys.campaign(campaign.id) });
      await queryClient.invalidateQueries({ queryKey: keys.list() });
      if (deleteLeads) await queryClient.invalidateQueries({ queryKey: ["leads"] });
      onDone(r);
    },
  });
  const p = preview.data;

  return (
    <Dialog
      open
      onClose={onClose}
      title={`Delete ${campaign.name}?`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="danger" disabled={remove.isPending || !p} onClick={() => remove.mutate()}>
            {remove.isPending ? "Deleting…" : "Delete campaign"}
          </Button>
        </>
      }
    >
      <div className="space-y-3 text-sm text-gray-700">
        <p>The campaign, its steps, settings, mailbox pool and lead links are deleted. Sent emails and the suppression list are kept.</p>
        {preview.isPending && <p className="text-gray-500">Counting what goes with it…</p>}
        {preview.error && <Alert tone="error">Could not load what the delete would remove: {describeError(preview.error)}</Alert>}
        {p && (
          <ul className="space-y-1" data-testid="delete-preview">
            <li>{plural(p.leadsOnlyHere, "lead")} only in this campaign</li>
            <li>{plural(p.leadsInOtherCampaigns, "lead")} also in other campaigns (always kept)</li>
            <li>{plural(p.sends, "email")} sent (kept)</li>
            <li>{plural(p.replies, "reply", "replies")}</li>
          </ul>
        )}
        {p && p.leadsOnlyHere > 0 && (
          <label className="flex items-center gap-2">
            <input type="checkbox" checked={deleteLeads} onChange={(e) => setDeleteLeads(e.target.checked)} />
            Also delete the {plural(p.leadsOnlyHere, "lead")} that {p.leadsOnlyHere === 1 ? "is" : "are"} in no other campaign, with their
            replies and tags
          </label>
        )}
        {remove.error && <Alert tone="error">{describeError(remove.error)}</Alert>}
      </div>
    </Dialog>
  );
}
