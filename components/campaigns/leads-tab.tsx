"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { describeError, data, client } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Notice } from "@/components/ui/notice";
import { Pager } from "@/components/ui/pager";
import { SelectAllTh, SelectTd, TableStatusRows } from "@/components/ui/selectable-table";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { dateTime } from "@/components/ui/time";
import { usePaging } from "@/components/ui/use-paging";
import { useSelection } from "@/components/ui/use-selection";
import { AddLeadsDialog } from "./add-leads-dialog";
import { plural, stepLabel } from "./labels";
import { useCampaignLeads, useRefreshCampaign } from "./queries";
import { reassignSummary, useReassignAll } from "./use-reassign";

const PAGE_SIZES = [50, 100, 500, 1000]; // 1,000 is the API's largest page of campaign leads
const COLUMNS = 7;

export function LeadsTab({ campaignId }: { campaignId: string }) {
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

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-gray-600">{leads.data ? `${plural(total, "lead")} in this campaign` : "\u00a0"}</p>
        <div className="flex gap-2">
          {selection.size > 0 && (
            <Button variant="danger" onClick={() => setConfirmRemove(true)}>
              Remove {selection.size} selected
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
        <Notice testId="leads-notice" onDismiss={() => setNotice(undefined)}>
          {notice}
        </Notice>
      )}
      {unassigned > 0 && (
        <Alert tone="warning">
          {plural(unassigned, "lead")} on this page {unassigned === 1 ? "has" : "have"} no mailbox and will not be emailed. Add mailboxes
          that can send to the pool, then Reassign.
        </Alert>
      )}
      {leads.error && <Alert tone="error">Could not load the campaign&apos;s leads: {describeError(leads.error)}</Alert>}
      {reassign.error && <Alert tone="error">Could not reassign: {describeError(reassign.error)}</Alert>}

      <Table aria-label="Campaign leads" aria-busy={leads.isFetching}>
        <THead>
          <tr>
            <SelectAllTh selection={selection} />
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
              <SelectTd label={l.email} checked={selection.has(l.leadId)} onToggle={() => selection.toggle(l.leadId)} />
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
          <TableStatusRows columns={COLUMNS} empty={!!leads.data && rows.length === 0} loading={leads.isPending}>
            No leads in this campaign yet. Add leads from the workspace.
          </TableStatusRows>
        </TBody>
      </Table>
      <Pager {...paging} total={total} shown={rows.length} sizes={PAGE_SIZES} />
      {adding && <AddLeadsDialog campaignId={campaignId} onClose={() => setAdding(false)} />}
      <Dialog
        open={confirmRemove}
        onClose={() => {
          setConfirmRemove(false);
          remove.reset();
        }}
        title={`Remove ${plural(selection.size, "lead")} from the campaign?`}
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirmRemove(false)}>
              Cancel
            </Button>
            <Button variant="danger" disabled={remove.isPending} onClick={() => remove.mutate(selection.ids)}>
              {remove.isPending ? "Removing…" : "Remove"}
            </Button>
          </>
        }
      >
        <div className="space-y-3 text-sm text-gray-700">
          <p>
            They get no more emails from this campaign and their progress in it is dropped. The leads stay in the workspace; emails already
            sent are kept.
          </p>
          {remove.error && <Alert tone="error">{describeError(remove.error)}</Alert>}
        </div>
      </Dialog>
    </div>
  );
}
