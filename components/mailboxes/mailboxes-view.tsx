"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { Pager } from "@/components/ui/pager";
import { SelectAllTh, SelectTd, TableStatusRows } from "@/components/ui/selectable-table";
import { Switch } from "@/components/ui/switch";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { usePaging } from "@/components/ui/use-paging";
import { useSelection } from "@/components/ui/use-selection";
import { WarmupPanel } from "@/components/warmup/warmup-panel";
import { WarmupToggle } from "@/components/warmup/warmup-toggle";
import type { MailboxView } from "@/lib/mailboxes/schemas";
import { client, data } from "@/components/api-client";
import { BulkCapDialog } from "./bulk-cap-dialog";
import { BulkResumeWarmupDialog } from "./bulk-resume-warmup-dialog";
import { ConnectDialog } from "./connect-dialog";
import { DeleteMailboxDialog } from "./delete-dialog";
import { MailboxEditDialog } from "./edit-dialog";
import { HealthBadge } from "./health-badge";
import { MailboxImportDialog } from "./import-dialog";
import { OAuthReconnect } from "./oauth-reconnect";
import { IssuesBanner, IssuesError } from "./issues-banner";
import { providerLabel } from "./labels";
import { useMailboxes, useMailboxIssues } from "./queries";
import { TestSendDialog } from "./test-send-dialog";

const PAGE_SIZES = [25, 50, 100, 200];
const COLUMNS = 10;

/** Which row dialog is open, and for which mailbox. */
type RowAction = { kind: "test" | "edit" | "delete" | "warmup"; mailbox: MailboxView };

/** Turning sending from one mailbox on or off. */
function useToggleSending() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (m: MailboxView) =>
      data(client.PATCH("/mailboxes/{id}", { params: { path: { id: m.id } }, body: { sendingEnabled: !m.sendingEnabled } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["mailboxes"] }),
  });
}

export function MailboxesView() {
  const paging = usePaging();
  const mailboxes = useMailboxes(paging.page, paging.limit);
  const issues = useMailboxIssues();
  const rows = mailboxes.data?.rows ?? [];
  const total = mailboxes.data?.total ?? 0;
  const selection = useSelection(rows, paging.scope);
  const [action, setAction] = useState<RowAction>();
  const [connecting, setConnecting] = useState(false);
  const [importing, setImporting] = useState(false);
  const [settingCap, setSettingCap] = useState(false);
  const [resumingWarmup, setResumingWarmup] = useState(false);
  const [notice, setNotice] = useState<string>();

  const toggleSending = useToggleSending();

  // A bulk dialog that finished closes, clears the selection and says what it did.
  const bulkDone = (close: (open: boolean) => void) => (message: string) => {
    close(false);
    selection.clear();
    setNotice(message);
  };
  const finish = (message: string) => {
    setAction(undefined);
    setNotice(message);
  };

  return (
    <div className="space-y-4">
      <MailboxesHeader
        count={mailboxes.data ? total : undefined}
        selected={selection.size}
        onCap={() => setSettingCap(true)}
        onResumeWarmup={() => setResumingWarmup(true)}
        onImport={() => setImporting(true)}
        onConnect={() => setConnecting(true)}
      />

      {issues.data && <IssuesBanner issues={issues.data.issues} mailboxes={issues.data.mailboxes} />}
      {issues.error && <IssuesError message={describeError(issues.error)} />}

      {notice && (
        <Notice testId="mailboxes-notice" onDismiss={() => setNotice(undefined)}>
          {notice}
        </Notice>
      )}
      {mailboxes.error && <Alert tone="error">Could not load mailboxes: {describeError(mailboxes.error)}</Alert>}
      {toggleSending.error && <Alert tone="error">Could not change sending: {describeError(toggleSending.error)}</Alert>}

      <MailboxesTable mailboxes={mailboxes} rows={rows} selection={selection} toggleSending={toggleSending} onAction={setAction} />

      <Pager {...paging} total={total} shown={rows.length} sizes={PAGE_SIZES} />

      <ConnectDialog
        open={connecting}
        onClose={() => setConnecting(false)}
        onConnected={(message) => {
          setConnecting(false);
          setNotice(message);
        }}
      />
      <MailboxImportDialog open={importing} onClose={() => setImporting(false)} />
      {settingCap && <BulkCapDialog mailboxIds={selection.ids} onClose={() => setSettingCap(false)} onDone={bulkDone(setSettingCap)} />}
      {resumingWarmup && (
        <BulkResumeWarmupDialog mailboxIds={selection.ids} onClose={() => setResumingWarmup(false)} onDone={bulkDone(setResumingWarmup)} />
      )}
      <RowDialogs action={action} onClose={() => setAction(undefined)} onDone={finish} />
    </div>
  );
}

function MailboxRow({
  m,
  selected,
  onSelect,
  toggleSending,
  onAction,
}: {
  m: MailboxView;
  selected: boolean;
  onSelect: () => void;
  toggleSending: ReturnType<typeof useToggleSending>;
  onAction: (a: RowAction) => void;
}) {
  return (
    <Tr>
      <SelectTd label={m.email} checked={selected} onToggle={onSelect} />
      <Td className="font-medium">{m.email}</Td>
      <Td>{m.senderName ?? ""}</Td>
      <Td
        className="text-gray-600"
        title={`${m.smtpHost}:${m.smtpPort} (${m.smtpSecurity}) · IMAP ${m.imapHost}:${m.imapPort} (${m.imapSecurity})`}
      >
        {providerLabel(m)}
      </Td>
      <Td>
        <HealthBadge mailbox={m} />
        <OAuthReconnect mailbox={m} />
      </Td>
      <Td className="tabular-nums">{m.dailySendCap}</Td>
      <Td>
        <Switch
          checked={m.sendingEnabled}
          aria-label={`Sending from ${m.email}`}
          disabled={toggleSending.isPending && toggleSending.variables?.id === m.id}
          onClick={() => toggleSending.mutate(m)}
        />
      </Td>
      <Td>
        <WarmupToggle mailbox={m} />
      </Td>
      <Td>
        <div className="flex flex-wrap gap-1">
          {m.tags.map((t) => (
            <Badge key={t.id} tone="indigo">
              {t.name}
            </Badge>
          ))}
        </div>
      </Td>
      <Td className="text-right whitespace-nowrap">
        <RowButtons m={m} onAction={onAction} />
      </Td>
    </Tr>
  );
}

function RowButtons({ m, onAction }: { m: MailboxView; onAction: (a: RowAction) => void }) {
  return (
    <>
      <Button variant="ghost" size="sm" onClick={() => onAction({ kind: "test", mailbox: m })} aria-label={`Test send from ${m.email}`}>
        Test send
      </Button>
      <Button
        variant="ghost"
        size="sm"
        onClick={() => onAction({ kind: "warmup", mailbox: m })}
        aria-label={`Warmup details of ${m.email}`}
      >
        Warmup
      </Button>
      <Button variant="ghost" size="sm" onClick={() => onAction({ kind: "edit", mailbox: m })} aria-label={`Edit ${m.email}`}>
        Edit
      </Button>
      <Button
        variant="ghost"
        size="sm"
        className="text-red-700"
        onClick={() => onAction({ kind: "delete", mailbox: m })}
        aria-label={`Delete ${m.email}`}
      >
        Delete
      </Button>
    </>
  );
}

/** The dialog a row's button opened, for its mailbox. */
function RowDialogs({ action, onClose, onDone }: { action?: RowAction; onClose: () => void; onDone: (message: string) => void }) {
  return (
    <>
      {action?.kind === "warmup" && <WarmupPanel key={action.mailbox.id} mailbox={action.mailbox} onClose={onClose} />}
      {action?.kind === "test" && <TestSendDialog key={action.mailbox.id} mailbox={action.mailbox} onClose={onClose} />}
      {action?.kind === "edit" && <MailboxEditDialog key={action.mailbox.id} mailbox={action.mailbox} onClose={onClose} />}
      {action?.kind === "delete" && (
        <DeleteMailboxDialog key={action.mailbox.id} mailbox={action.mailbox} onClose={onClose} onDone={onDone} />
      )}
    </>
  );
}

function MailboxesHeader({
  count,
  selected,
  onCap,
  onResumeWarmup,
  onImport,
  onConnect,
}: {
  count?: number;
  selected: number;
  onCap: () => void;
  onResumeWarmup: () => void;
  onImport: () => void;
  onConnect: () => void;
}) {
  return (
    <div className="flex items-center justify-between">
      <div>
        <h1 className="text-xl font-semibold text-gray-900">Mailboxes</h1>
        <p className="text-sm text-gray-600">{count !== undefined ? `${count.toLocaleString()} connected` : "\u00a0"}</p>
      </div>
      <div className="flex gap-2">
        {selected > 0 && (
          <Button variant="secondary" onClick={onCap}>
            Set daily cap ({selected})
          </Button>
        )}
        {selected > 0 && (
          <Button variant="secondary" onClick={onResumeWarmup}>
            Resume warmup ({selected})
          </Button>
        )}
        <Button variant="secondary" onClick={onImport}>
          Import CSV
        </Button>
        <Button onClick={onConnect}>Connect mailbox</Button>
      </div>
    </div>
  );
}

function MailboxesTable({
  mailboxes,
  rows,
  selection,
  toggleSending,
  onAction,
}: {
  mailboxes: ReturnType<typeof useMailboxes>;
  rows: MailboxView[];
  selection: ReturnType<typeof useSelection>;
  toggleSending: ReturnType<typeof useToggleSending>;
  onAction: (a: RowAction) => void;
}) {
  return (
    <Table aria-label="Mailboxes" aria-busy={mailboxes.isFetching}>
      <THead>
        <tr>
          <SelectAllTh selection={selection} />
          <Th>Email</Th>
          <Th>Sender name</Th>
          <Th>Provider</Th>
          <Th>Health</Th>
          <Th>Daily cap</Th>
          <Th>Sending</Th>
          <Th>Warmup</Th>
          <Th>Tags</Th>
          <Th>
            <span className="sr-only">Actions</span>
          </Th>
        </tr>
      </THead>
      <TBody>
        {rows.map((m) => (
          <MailboxRow
            key={m.id}
            m={m}
            selected={selection.has(m.id)}
            onSelect={() => selection.toggle(m.id)}
            toggleSending={toggleSending}
            onAction={onAction}
          />
        ))}
        <TableStatusRows columns={COLUMNS} empty={!!mailboxes.data && rows.length === 0} loading={mailboxes.isPending}>
          No mailboxes yet. Connect one, or import many from a CSV.
        </TableStatusRows>
      </TBody>
    </Table>
  );
}
