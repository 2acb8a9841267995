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

export function MailboxesView() {
  const queryClient = useQueryClient();
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

  const toggleSending = useMutation({
    mutationFn: (m: MailboxView) =>
      data(client.PATCH("/mailboxes/{id}", { params: { path: { id: m.id } }, body: { sendingEnabled: !m.sendingEnabled } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["mailboxes"] }),
  });

  const finish = (message: string) => {
    setAction(undefined);
    setNotice(message);
  };

  return (
    <div className="space-y-4">
      <div className="flex items-center justify-between">
        <div>
          <h1 className="text-xl font-semibold text-gray-900">Mailboxes</h1>
          <p className="text-sm text-gray-600">{mailboxes.data ? `${total.toLocaleString()} connected` : "\u00a0"}</p>
        </div>
        <div className="flex gap-2">
          {selection.size > 0 && (
            <Button variant="secondary" onClick={() => setSettingCap(true)}>
              Set daily cap ({selection.size})
            </Button>
          )}
          {selection.size > 0 && (
            <Button variant="secondary" onClick={() => setResumingWarmup(true)}>
              Resume warmup ({selection.size})
            </Button>
          )}
          <Button variant="secondary" onClick={() => setImporting(true)}>
            Import CSV
          </Button>
          <Button onClick={() => setConnecting(true)}>Connect mailbox</Button>
        </div>
      </div>

      {issues.data && <IssuesBanner issues={issues.data.issues} mailboxes={issues.data.mailboxes} />}
      {issues.error && <IssuesError message={describeError(issues.error)} />}

      {notice && (
        <Notice testId="mailboxes-notice" onDismiss={() => setNotice(undefined)}>
          {notice}
        </Notice>
      )}
      {mailboxes.error && <Alert tone="error">Could not load mailboxes: {describeError(mailboxes.error)}</Alert>}
      {toggleSending.error && <Alert tone="error">Could not change sending: {describeError(toggleSending.error)}</Alert>}

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
          {rows.map((m) => {
            return (
              <Tr key={m.id}>
                <SelectTd label={m.email} checked={selection.has(m.id)} onToggle={() => selection.toggle(m.id)} />
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
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => setAction({ kind: "test", mailbox: m })}
                    aria-label={`Test send from ${m.email}`}
                  >
                    Test send
                  </Button>
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => setAction({ kind: "warmup", mailbox: m })}
                    aria-label={`Warmup details of ${m.email}`}
                  >
                    Warmup
                  </Button>
                  <Button variant="ghost" size="sm" onClick={() => setAction({ kind: "edit", mailbox: m })} aria-label={`Edit ${m.email}`}>
                    Edit
                  </Button>
                  <Button
                    variant="ghost"
                    size="sm"
                    className="text-red-700"
                    onClick={() => setAction({ kind: "delete", mailbox: m })}
                    aria-label={`Delete ${m.email}`}
                  >
                    Delete
                  </Button>
                </Td>
              </Tr>
            );
          })}
          <TableStatusRows columns={COLUMNS} empty={!!mailboxes.data && rows.length === 0} loading={mailboxes.isPending}>
            No mailboxes yet. Connect one, or import many from a CSV.
          </TableStatusRows>
        </TBody>
      </Table>

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
      {settingCap && (
        <BulkCapDialog
          mailboxIds={selection.ids}
          onClose={() => setSettingCap(false)}
          onDone={(message) => {
            setSettingCap(false);
            selection.clear();
            setNotice(message);
          }}
        />
      )}
      {resumingWarmup && (
        <BulkResumeWarmupDialog
          mailboxIds={selection.ids}
          onClose={() => setResumingWarmup(false)}
          onDone={(message) => {
            setResumingWarmup(false);
            selection.clear();
            setNotice(message);
          }}
        />
      )}
      {action?.kind === "warmup" && <WarmupPanel key={action.mailbox.id} mailbox={action.mailbox} onClose={() => setAction(undefined)} />}
      {action?.kind === "test" && <TestSendDialog key={action.mailbox.id} mailbox={action.mailbox} onClose={() => setAction(undefined)} />}
      {action?.kind === "edit" && (
        <MailboxEditDialog key={action.mailbox.id} mailbox={action.mailbox} onClose={() => setAction(undefined)} />
      )}
      {action?.kind === "delete" && (
        <DeleteMailboxDialog key={action.mailbox.id} mailbox={action.mailbox} onClose={() => setAction(undefined)} onDone={finish} />
      )}
    </div>
  );
}
