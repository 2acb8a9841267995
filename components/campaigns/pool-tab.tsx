"use client";

import { describeError } from "@/components/api-client";
import { HEALTH, WARMUP } from "@/components/mailboxes/labels";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { SelectAllTh, SelectTd, TableStatusRows } from "@/components/ui/selectable-table";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { AddMailboxesDialog } from "./add-mailboxes-dialog";
import { plural } from "./labels";
import { type PoolTabState, usePoolTab } from "./use-pool-tab";
import { reassignSummary } from "./use-reassign";

const COLUMNS = 8;

type PoolMailbox = PoolTabState["rows"][number];

/**
 * The campaign's mailbox pool. Changing it never moves leads already assigned, so when
 * leads sit on a mailbox that left the pool the tab says how many and offers Reassign right there.
 */
export function PoolTab({ campaignId, onShowLeads }: { campaignId: string; onShowLeads: () => void }) {
  const s = usePoolTab(campaignId);
  const { pool, selection, remove, reassign, notice } = s;

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-gray-600" data-testid="pool-summary">
          {pool.data
            ? `${plural(pool.data.poolSize, "mailbox", "mailboxes")} in the pool, ${pool.data.activelySending.toLocaleString()} actively sending`
            : "\u00a0"}
        </p>
        <div className="flex gap-2">
          {selection.size > 0 && (
            <Button variant="danger" disabled={remove.isPending} onClick={() => remove.mutate(selection.ids)}>
              {remove.isPending ? "Removing…" : `Remove ${selection.size} selected`}
            </Button>
          )}
          <Button onClick={() => s.setAdding(true)}>Add mailboxes</Button>
        </div>
      </div>

      {notice && (
        <Notice testId="pool-notice" onDismiss={() => s.setNotice(undefined)}>
          {notice}
        </Notice>
      )}
      {s.outside > 0 && <OutsidePoolAlert s={s} onShowLeads={onShowLeads} />}
      {pool.error && <Alert tone="error">Could not load the pool: {describeError(pool.error)}</Alert>}
      {remove.error && <Alert tone="error">Could not remove mailboxes: {describeError(remove.error)}</Alert>}
      {reassign.error && <Alert tone="error">Could not reassign: {describeError(reassign.error)}</Alert>}

      <PoolTable s={s} />
      {s.adding && (
        <AddMailboxesDialog
          campaignId={campaignId}
          inPool={new Set(s.rows.map((r) => r.id))}
          onClose={() => s.setAdding(false)}
          onDone={(message) => {
            s.setAdding(false);
            s.setNotice(message);
          }}
        />
      )}
    </div>
  );
}

/** How many leads sit on mailboxes that left the pool, with a way to see them and to reassign them. */
function OutsidePoolAlert({ s, onShowLeads }: { s: PoolTabState; onShowLeads: () => void }) {
  const { outside, reassign } = s;
  return (
    <Alert tone="warning" className="flex flex-wrap items-center justify-between gap-2">
      <span data-testid="leads-outside-pool">
        {plural(outside, "lead")} {outside === 1 ? "is" : "are"} assigned to a mailbox that is no longer in the pool. Reassign moves those
        not yet emailed to pool mailboxes; leads already in conversation keep their mailbox.
      </span>
      <span className="flex gap-2">
        <Button size="sm" variant="secondary" onClick={onShowLeads}>
          See leads
        </Button>
        <Button
          size="sm"
          disabled={reassign.isPending}
          onClick={() => reassign.mutate(undefined, { onSuccess: (t) => s.setNotice(reassignSummary(t)) })}
        >
          {reassign.isPending ? "Reassigning…" : "Reassign leads"}
        </Button>
      </span>
    </Alert>
  );
}

function PoolTable({ s }: { s: PoolTabState }) {
  const { pool, rows, selection } = s;
  return (
    <Table aria-label="Mailbox pool" aria-busy={pool.isFetching}>
      <THead>
        <tr>
          <SelectAllTh selection={selection} label="Select all in the pool" />
          <Th>Mailbox</Th>
          <Th>Health</Th>
          <Th>Warmup</Th>
          <Th>Can send</Th>
          <Th className="text-right">Assigned leads</Th>
          <Th className="text-right">Daily cap</Th>
          <Th>Actively sending</Th>
        </tr>
      </THead>
      <TBody>
        {rows.map((m) => (
          <PoolRow key={m.id} m={m} checked={selection.has(m.id)} onToggle={() => selection.toggle(m.id)} />
        ))}
        <TableStatusRows columns={COLUMNS} empty={!!pool.data && rows.length === 0} loading={pool.isPending}>
          The pool is empty: add the mailboxes this campaign sends from.
        </TableStatusRows>
      </TBody>
    </Table>
  );
}

function PoolRow({ m, checked, onToggle }: { m: PoolMailbox; checked: boolean; onToggle: () => void }) {
  const health = HEALTH[m.healthStatus];
  const warmup = WARMUP[m.warmupStatus] ?? { label: m.warmupStatus, tone: "gray" as const };
  return (
    <Tr>
      <SelectTd label={m.email} checked={checked} onToggle={onToggle} />
      <Td>
        <span className="font-medium">{m.email}</span>
        {m.senderName && <span className="block text-xs text-gray-500">{m.senderName}</span>}
      </Td>
      <Td>
        <span title={health.about}>
          <Badge tone={health.tone}>{health.label}</Badge>
        </span>
        {m.spamFor.length > 0 && (
          <span
            className="ml-1"
            title="Its latest placement test landed in spam at these providers: with ESP matching PREFER it gets none of their leads until a clean test."
          >
            <Badge tone="yellow">Spam at {m.spamFor.join(", ")}</Badge>
          </span>
        )}
      </Td>
      <Td>
        <Badge tone={warmup.tone}>{warmup.label}</Badge>
      </Td>
      <Td>{m.canSend ? <Badge tone="green">Yes</Badge> : <Badge tone="red">No</Badge>}</Td>
      <Td className="text-right tabular-nums">{m.assignedLeads.toLocaleString()}</Td>
      <Td className="text-right tabular-nums">{m.dailySendCap.toLocaleString()}</Td>
      <Td>{m.activelySending ? <Badge tone="green">Sending</Badge> : <span className="text-xs text-gray-500">{idleReason(m)}</span>}</Td>
    </Tr>
  );
}

/** Why a pool mailbox is not sending: the API's activelySending needs an active campaign, a sendable mailbox and leads on it. */
function idleReason(m: { canSend: boolean; assignedLeads: number }): string {
  if (!m.canSend) return "cannot send";
  if (m.assignedLeads === 0) return "no leads assigned";
  return "campaign not active";
}
