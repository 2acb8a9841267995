"use client";

import { useMutation } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { apiFetch, describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Pager } from "@/components/ui/pager";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { dateTime } from "@/components/ui/time";
import { AddLeadsDialog } from "./add-leads-dialog";
import { plural, stepLabel } from "./labels";
import { campaignPath, useCampaignLeads, useRefreshCampaign } from "./queries";
import type { RemoveLeadsResult } from "./types";
import { reassignSummary, useReassignAll } from "./use-reassign";

const PAGE_SIZES = [50, 100, 500, 1000]; // 1,000 is the API's largest page of campaign leads
const COLUMNS = 7;

export function LeadsTab({ campaignId }: { campaignId: string }) {
  const refresh = useRefreshCampaign(campaignId);
  const [paging, setPaging] = useState({ page: 1, limit: 100 });
  const leads = useCampaignLeads(campaignId, paging.page, paging.limit);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [adding, setAdding] = useState(false);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const [notice, setNotice] = useState<string>();
  const reassign = useReassignAll(campaignId);

  useEffect(() => setSelected(new Set()), [paging]);

  const remove = useMutation({
    mutationFn: (leadIds: string[]) => apiFetch<RemoveLeadsResult>(campaignPath(campaignId, "/leads/remove"), { method: "POST", body: { leadIds } }),
    // The notice comes with the refreshed table, not before it.
    onSuccess: async (r) => {
      await refresh();
      setConfirmRemove(false);
      setSelected(new Set());
      setNotice(`Removed ${plural(r.removed, "lead")} from the campaign.`);
    },
  });

  const rows = leads.data?.leads ?? [];
  const total = leads.data?.total ?? 0;
  const allSelected = rows.length > 0 && rows.every((r) => selected.has(r.leadId));
  const unassigned = rows.filter((r) => !r.mailboxId).length;

  function toggle(id: string) {
    setSelected((s) => {
      const n = new Set(s);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });
  }

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-gray-600">{leads.data ? `${plural(total, "lead")} in this campaign` : "\u00a0"}</p>
        <div className="flex gap-2">
          {selected.size > 0 && (
            <Button variant="danger" onClick={() => setConfirmRemove(true)}>
              Remove {selected.size} selected
            </Button>
          )}
          <Button
            variant="secondary"
            disabled={reassign.isPending}
            title="Give every lead not yet emailed that has no mailbox, or one that left the pool or cannot send, a mailbox from the pool"
            onClick={() => reassign.mutate(undefined, { onSuccess: (t) => setNotice(reassignSummary(t)) })}
          >
            {reassign.isPending ? "Reassigning…" : "Reassign"}
          </Button>
          <Button onClick={() => setAdding(true)}>Add leads</Button>
        </div>
      </div>

      {notice && (
        <Alert tone="success" className="flex justify-between">
          <span data-testid="leads-notice">{notice}</span>
          <button type="button" onClick={() => setNotice(undefined)} aria-label="Dismiss">
            ✕
          </button>
        </Alert>
      )}
      {unassigned > 0 && (
        <Alert tone="warning">
          {plural(unassigned, "lead")} on this page {unassigned === 1 ? "has" : "have"} no mailbox and will not be emailed. Add mailboxes that can send to the pool, then Reassign.
        </Alert>
      )}
      {leads.error && <Alert tone="error">Could not load the campaign&apos;s leads: {describeError(leads.error)}</Alert>}
      {reassign.error && <Alert tone="error">Could not reassign: {describeError(reassign.error)}</Alert>}

      <Table aria-label="Campaign leads" aria-busy={leads.isFetching}>
        <THead>
          <tr>
            <Th className="w-8">
              <input type="checkbox" aria-label="Select all on this page" checked={allSelected} onChange={() => setSelected(allSelected ? new Set() : new Set(rows.map((r) => r.leadId)))} />
            </Th>
            <Th>Email</Th>
            <Th>Name</Th>
            <Th>Mailbox</Th>
            <Th>Status</Th>
            <Th>Next step</Th>
            <Th>Added</Th>
          </tr>
        </THead>
        <TBody>
          {rows.map((l) => (
            <Tr key={l.leadId}>
              <Td>
                <input type="checkbox" aria-label={`Select ${l.email}`} checked={selected.has(l.leadId)} onChange={() => toggle(l.leadId)} />
              </Td>
              <Td className="font-medium">{l.email}</Td>
              <Td>{[l.firstName, l.lastName].filter(Boolean).join(" ")}</Td>
              <Td>{l.mailboxEmail ?? <Badge tone="yellow">No mailbox</Badge>}</Td>
              <Td>
                <Badge tone={l.campaignStatus === "ACTIVE" ? "green" : "gray"}>{l.campaignStatus}</Badge>
              </Td>
              <Td className="text-gray-600">
                {stepLabel(l.nextStepOrder)}
                {l.nextSendAt && <span className="block text-xs">{dateTime(l.nextSendAt)}</span>}
              </Td>
              <Td className="whitespace-nowrap text-gray-600">{new Date(l.addedAt).toLocaleDateString()}</Td>
            </Tr>
          ))}
          {leads.data && rows.length === 0 && (
            <tr>
              <td colSpan={COLUMNS} className="px-3 py-10 text-center text-sm text-gray-600">
                No leads in this campaign yet. Add leads from the workspace.
              </td>
            </tr>
          )}
          {leads.isPending && (
            <tr>
              <td colSpan={COLUMNS} className="px-3 py-10 text-center text-sm text-gray-500">
                Loading…
              </td>
            </tr>
          )}
        </TBody>
      </Table>
      <Pager
        page={paging.page}
        limit={paging.limit}
        total={total}
        shown={rows.length}
        sizes={PAGE_SIZES}
        onPage={(page) => setPaging((p) => ({ ...p, page }))}
        onLimit={(limit) => setPaging({ page: 1, limit })}
      />
      {adding && <AddLeadsDialog campaignId={campaignId} onClose={() => setAdding(false)} />}
      <Dialog
        open={confirmRemove}
        onClose={() => {
          setConfirmRemove(false);
          remove.reset();
        }}
        title={`Remove ${plural(selected.size, "lead")} from the campaign?`}
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirmRemove(false)}>
              Cancel
            </Button>
            <Button variant="danger" disabled={remove.isPending} onClick={() => remove.mutate([...selected])}>
              {remove.isPending ? "Removing…" : "Remove"}
            </Button>
          </>
        }
      >
        <div className="space-y-3 text-sm text-gray-700">
          <p>They get no more emails from this campaign and their progress in it is dropped. The leads stay in the workspace; emails already sent are kept.</p>
          {remove.error && <Alert tone="error">{describeError(remove.error)}</Alert>}
        </div>
      </Dialog>
    </div>
  );
}
