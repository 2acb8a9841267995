"use client";

import { describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Notice } from "@/components/ui/notice";
import { Pager } from "@/components/ui/pager";
import { SelectAllTh, SelectTd, TableStatusRows } from "@/components/ui/selectable-table";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { dateTime } from "@/components/ui/time";
import { AddLeadsDialog } from "./add-leads-dialog";
import { plural, stepLabel } from "./labels";
import { useSubsequences } from "./sequence/use-branch-rules";
import { type LeadsTabState, useLeadsTab } from "./use-leads-tab";
import { reassignSummary } from "./use-reassign";

const PAGE_SIZES = [50, 100, 500, 1000]; // 1,000 is the API's largest page of campaign leads
const COLUMNS = 7;

export function LeadsTab({ campaignId }: { campaignId: string }) {
  const s = useLeadsTab(campaignId);
  const { leads, reassign, unassigned, notice } = s;

  return (
    <div className="space-y-4">
      <LeadsToolbar s={s} />

      {notice && (
        <Notice testId="leads-notice" onDismiss={() => s.setNotice(undefined)}>
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

      <CampaignLeadsTable s={s} campaignId={campaignId} />
      <Pager {...s.paging} total={s.total} shown={s.rows.length} sizes={PAGE_SIZES} />
      {s.adding && <AddLeadsDialog campaignId={campaignId} onClose={() => s.setAdding(false)} />}
      <RemoveLeadsDialog s={s} />
    </div>
  );
}

/** The count of leads, and the buttons: remove the selected, Reassign, Add leads. */
function LeadsToolbar({ s }: { s: LeadsTabState }) {
  const { leads, selection, reassign } = s;
  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      <p className="text-sm text-gray-600">{leads.data ? `${plural(s.total, "lead")} in this campaign` : "\u00a0"}</p>
      <div className="flex gap-2">
        {selection.size > 0 && (
          <Button variant="danger" onClick={() => s.setConfirmRemove(true)}>
            Remove {selection.size} selected
          </Button>
        )}
        <Button
          variant="secondary"
          disabled={reassign.isPending}
          title="Give every lead not yet emailed that has no mailbox, or one that left the pool or cannot send, a mailbox from the pool"
          onClick={() => reassign.mutate(undefined, { onSuccess: (t) => s.setNotice(reassignSummary(t)) })}
        >
          {reassign.isPending ? "Reassigning…" : "Reassign"}
        </Button>
        <Button onClick={() => s.setAdding(true)}>Add leads</Button>
      </div>
    </div>
  );
}

function CampaignLeadsTable({ s, campaignId }: { s: LeadsTabState; campaignId: string }) {
  const { leads, rows, selection } = s;
  return (
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
              <LeadPlace campaignId={campaignId} lead={l} />
            </Td>
            <Td className="whitespace-nowrap text-gray-600">{new Date(l.addedAt).toLocaleDateString()}</Td>
          </Tr>
        ))}
        <TableStatusRows columns={COLUMNS} empty={!!leads.data && rows.length === 0} loading={leads.isPending}>
          No leads in this campaign yet. Add leads from the workspace.
        </TableStatusRows>
      </TBody>
    </Table>
  );
}

/** Asks before removing the selected leads from the campaign. */
function RemoveLeadsDialog({ s }: { s: LeadsTabState }) {
  const { remove, selection } = s;
  return (
    <Dialog
      open={s.confirmRemove}
      onClose={() => {
        s.setConfirmRemove(false);
        remove.reset();
      }}
      title={`Remove ${plural(selection.size, "lead")} from the campaign?`}
      footer={
        <>
          <Button variant="secondary" onClick={() => s.setConfirmRemove(false)}>
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
  );
}

const PAUSE_REASON: Record<string, string> = { out_of_office: "out of office", wait: "a wait branch" };

/** Where the lead is: its next step (in a subsequence, named), when it is due, and why it is paused. */
function LeadPlace({
  campaignId,
  lead: l,
}: {
  campaignId: string;
  lead: { nextStepOrder: number; nextSendAt: string | null; sequence: string; pausedUntil: string | null; pauseReason: string | null };
}) {
  const subs = useSubsequences(campaignId);
  const sub = l.sequence === "main" ? null : (subs.data?.find((s) => s.id === l.sequence)?.name ?? "a subsequence");
  return (
    <span data-testid="lead-place">
      {stepLabel(l.nextStepOrder)}
      {sub && <span className="ml-1 text-xs text-indigo-700">in {sub}</span>}
      {l.nextSendAt && <span className="block text-xs">{dateTime(l.nextSendAt)}</span>}
      {l.pausedUntil && (
        <span className="block text-xs text-amber-700">
          Paused until {dateTime(l.pausedUntil)}
          {l.pauseReason ? ` (${PAUSE_REASON[l.pauseReason] ?? l.pauseReason})` : ""}
        </span>
      )}
    </span>
  );
}
