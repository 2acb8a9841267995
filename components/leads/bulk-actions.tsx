"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { client, data, describeError } from "@/components/api-client";
import { useCan } from "@/components/shell/member-context";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDeleteDialog } from "@/components/ui/confirm-delete-dialog";
import { Select } from "@/components/ui/input";
import type { Selection } from "@/components/ui/use-selection";
import { useCampaignChoices, useTags } from "./queries";

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

type Action = "tag" | "untag" | "campaign";

/** What one bulk action did, in words for the notice above the list. */
async function run(action: Action, target: string, leadIds: string[]): Promise<string> {
  if (action === "tag") {
    const r = await data(client.POST("/leads/bulk-tag", { body: { leadIds, tagId: target } }));
    const had = r.alreadyTagged ? ` (${plural(r.alreadyTagged, "lead")} had it already)` : "";
    return `Tagged ${plural(r.tagged, "lead")} with “${r.tag.name}”${had}.`;
  }
  if (action === "untag") {
    const r = await data(client.POST("/leads/bulk-untag", { body: { leadIds, tagId: target } }));
    const had = r.notTagged ? ` (${plural(r.notTagged, "lead")} did not have it)` : "";
    return `Removed the tag from ${plural(r.untagged, "lead")}${had}.`;
  }
  const r = await data(client.POST("/campaigns/{id}/leads", { params: { path: { id: target } }, body: { leadIds } }));
  const count = (result: string) => r.results.filter((x) => x.result === result).length;
  const parts = [`Added ${plural(r.added, "lead")} to the campaign`];
  const assigned = count("assigned");
  if (assigned) parts.push(`${plural(assigned, "lead")} with a sending mailbox`);
  const unassigned = count("no_eligible_mailbox") + count("seg_blocked");
  if (unassigned) parts.push(`${plural(unassigned, "lead")} waiting for a mailbox`);
  const suppressed = count("suppressed");
  if (suppressed) parts.push(`${plural(suppressed, "suppressed lead")} skipped`);
  const errors = count("error");
  if (errors) parts.push(`${plural(errors, "lead")} not found`);
  return `${parts.join("; ")}.`;
}

/** The bulk actions' state and calls: the chosen action and target, applying it, and deleting the checked leads. */
function useBulkActions(selection: Selection, onDone: (message: string) => void) {
  const queryClient = useQueryClient();
  const tags = useTags();
  const campaigns = useCampaignChoices(selection.size > 0);
  const [action, setAction] = useState<Action>("tag");
  const [target, setTarget] = useState("");
  const [confirmDelete, setConfirmDelete] = useState(false);

  const apply = useMutation({
    mutationFn: () => run(action, target, selection.ids),
    onSuccess: async (message) => {
      onDone(message);
      await Promise.all([queryClient.invalidateQueries({ queryKey: ["leads"] }), queryClient.invalidateQueries({ queryKey: ["lead"] })]);
    },
  });
  const remove = useMutation({
    mutationFn: (leadIds: string[]) => data(client.POST("/leads/bulk-delete", { body: { leadIds } })),
    onSuccess: async (r) => {
      setConfirmDelete(false);
      selection.clear();
      onDone(`Deleted ${plural(r.deleted, "lead")}.`);
      await queryClient.invalidateQueries({ queryKey: ["leads"] });
    },
  });
  const choices =
    action === "campaign"
      ? (campaigns.data ?? []).filter((c) => c.status !== "ARCHIVED").map((c) => ({ id: c.id, name: c.name }))
      : (tags.data ?? []).map((t) => ({ id: t.id, name: t.name }));
  const chooseAction = (next: Action) => {
    setAction(next);
    setTarget("");
    apply.reset();
  };
  return { tags, action, chooseAction, target, setTarget, confirmDelete, setConfirmDelete, apply, remove, choices };
}

/** The action and target pickers, the apply and clear buttons, and delete for those who may. */
function BulkActionBar({
  bulk,
  selection,
  canDelete,
}: {
  bulk: ReturnType<typeof useBulkActions>;
  selection: Selection;
  canDelete: boolean;
}) {
  const { action, target, apply } = bulk;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <p className="text-sm font-medium text-gray-800">{plural(selection.size, "lead")} selected</p>
      <Select aria-label="Bulk action" value={action} onChange={(e) => bulk.chooseAction(e.target.value as Action)} className="w-44">
        <option value="tag">Add a tag</option>
        <option value="untag">Remove a tag</option>
        <option value="campaign">Add to a campaign</option>
      </Select>
      <Select
        aria-label={action === "campaign" ? "Campaign" : "Tag to apply"}
        value={target}
        onChange={(e) => bulk.setTarget(e.target.value)}
        className="w-48"
      >
        <option value="">{action === "campaign" ? "Choose a campaign…" : "Choose a tag…"}</option>
        {bulk.choices.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </Select>
      <Button onClick={() => apply.mutate()} disabled={!target || apply.isPending}>
        {apply.isPending ? "Applying…" : "Apply"}
      </Button>
      <Button variant="ghost" onClick={() => selection.clear()}>
        Clear selection
      </Button>
      {canDelete && (
        <Button variant="danger" className="sm:ml-auto" onClick={() => bulk.setConfirmDelete(true)}>
          Delete {selection.size} selected
        </Button>
      )}
    </div>
  );
}

/**
 * The actions on the checked rows of the leads list: add or remove a tag, add to a campaign, and —
 * for owners and admins — delete. Each answers in `onDone` with what it did.
 */
export function LeadBulkActions({ selection, onDone }: { selection: Selection; onDone: (message: string) => void }) {
  const canDelete = useCan("admin");
  const bulk = useBulkActions(selection, onDone);
  const { apply, remove } = bulk;

  if (selection.size === 0) return null;
  return (
    <section aria-label="Bulk actions" className="space-y-2 rounded-lg border border-indigo-200 bg-indigo-50/60 px-3 py-2">
      <BulkActionBar bulk={bulk} selection={selection} canDelete={canDelete} />
      {bulk.action !== "campaign" && bulk.tags.data?.length === 0 && (
        <p className="text-xs text-gray-600">No tags yet: add one on a lead, or in Settings → Tags.</p>
      )}
      {apply.error && <Alert tone="error">{describeError(apply.error)}</Alert>}
      <ConfirmDeleteDialog
        open={bulk.confirmDelete}
        title={`Delete ${plural(selection.size, "lead")}?`}
        pending={remove.isPending}
        error={remove.error ? describeError(remove.error) : undefined}
        onConfirm={() => remove.mutate(selection.ids)}
        onCancel={() => bulk.setConfirmDelete(false)}
        onClose={() => {
          bulk.setConfirmDelete(false);
          remove.reset();
        }}
      >
        The leads and their replies are deleted. Emails already sent to them are kept for sending limits and bounce health.
      </ConfirmDeleteDialog>
    </section>
  );
}
