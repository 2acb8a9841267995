"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { client, data, describeError } from "@/components/api-client";
import type { ResponseOf } from "@/lib/client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDeleteDialog } from "@/components/ui/confirm-delete-dialog";
import { Notice } from "@/components/ui/notice";
import { Pager } from "@/components/ui/pager";
import { SelectAllTh, TableStatusRows } from "@/components/ui/selectable-table";
import { Table, TBody, Th, THead } from "@/components/ui/table";
import { usePaging } from "@/components/ui/use-paging";
import { useSelection } from "@/components/ui/use-selection";
import { CHECKS, DOMAIN_COLUMNS } from "./checks";
import { DomainRow } from "./domain-row";
import { useDomains } from "./queries";

const PAGE_SIZES = [25, 50, 100, 200];

type Conflicts = ResponseOf<"/domains/bulk-delete", "post">["conflicts"];

/** Re-checking and deleting the selected domains, with what was done and what could not be deleted. */
function useBulkDomains(selection: ReturnType<typeof useSelection>) {
  const queryClient = useQueryClient();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [notice, setNotice] = useState<string>();
  const [conflicts, setConflicts] = useState<Conflicts>([]);

  const refresh = () => queryClient.invalidateQueries({ queryKey: ["domains"] });

  const bulkCheck = useMutation({
    mutationFn: (domainIds: string[]) => data(client.POST("/domains/bulk-check", { body: { domainIds } })),
    onSuccess: async (r) => {
      setNotice(
        `Re-checked ${r.checked} domain${r.checked === 1 ? "" : "s"}.${r.notFound.length ? ` ${r.notFound.length} no longer exist.` : ""}`,
      );
      await refresh();
    },
  });

  const bulkDelete = useMutation({
    mutationFn: (domainIds: string[]) => data(client.POST("/domains/bulk-delete", { body: { domainIds } })),
    onSuccess: async (r) => {
      setConfirmDelete(false);
      selection.clear();
      setNotice(`Deleted ${r.deleted} domain${r.deleted === 1 ? "" : "s"}.`);
      setConflicts(r.conflicts);
      await refresh();
    },
  });
  return { confirmDelete, setConfirmDelete, notice, setNotice, conflicts, setConflicts, bulkCheck, bulkDelete };
}

export function DomainsView() {
  const paging = usePaging();
  const domains = useDomains(paging.page, paging.limit);
  const rows = domains.data?.rows ?? [];
  const total = domains.data?.total ?? 0;
  const selection = useSelection(rows, paging.scope);
  const { confirmDelete, setConfirmDelete, notice, setNotice, conflicts, setConflicts, bulkCheck, bulkDelete } = useBulkDomains(selection);

  return (
    <div className="space-y-4">
      <div className="flex items-center justify-between">
        <div>
          <h1 className="text-xl font-semibold text-gray-900">Domains</h1>
          <p className="text-sm text-gray-600">Sending domains are added from your mailboxes&apos; addresses and checked daily.</p>
        </div>
        {selection.size > 0 && (
          <div className="flex gap-2">
            <Button variant="secondary" disabled={bulkCheck.isPending} onClick={() => bulkCheck.mutate(selection.ids)}>
              {bulkCheck.isPending ? "Checking…" : `Re-check ${selection.size} selected`}
            </Button>
            <Button variant="danger" onClick={() => setConfirmDelete(true)}>
              Delete {selection.size} selected
            </Button>
          </div>
        )}
      </div>

      {notice && (
        <Notice testId="domains-notice" onDismiss={() => setNotice(undefined)}>
          {notice}
        </Notice>
      )}
      {conflicts.length > 0 && <ConflictsAlert conflicts={conflicts} onDismiss={() => setConflicts([])} />}
      {bulkCheck.error && <Alert tone="error">Re-check failed: {describeError(bulkCheck.error)}</Alert>}
      {domains.error && <Alert tone="error">Could not load domains: {describeError(domains.error)}</Alert>}

      <Table aria-label="Domains" aria-busy={domains.isFetching}>
        <THead>
          <tr>
            <SelectAllTh selection={selection} />
            <Th>Domain</Th>
            {CHECKS.map((c) => (
              <Th key={c.key}>{c.label}</Th>
            ))}
            <Th>Mailboxes</Th>
            <Th>Last checked</Th>
            <Th>
              <span className="sr-only">Actions</span>
            </Th>
          </tr>
        </THead>
        <TBody>
          {rows.map((d) => (
            <DomainRow key={d.id} domain={d} selected={selection.has(d.id)} onToggle={() => selection.toggle(d.id)} />
          ))}
          <TableStatusRows columns={DOMAIN_COLUMNS} empty={!!domains.data && rows.length === 0} loading={domains.isPending}>
            No domains yet. They appear when you connect a mailbox.
          </TableStatusRows>
        </TBody>
      </Table>

      <Pager {...paging} total={total} shown={rows.length} sizes={PAGE_SIZES} />

      <ConfirmDeleteDialog
        open={confirmDelete}
        title={`Delete ${selection.size} domain${selection.size === 1 ? "" : "s"}?`}
        pending={bulkDelete.isPending}
        error={bulkDelete.error ? describeError(bulkDelete.error) : undefined}
        onConfirm={() => bulkDelete.mutate(selection.ids)}
        onCancel={() => setConfirmDelete(false)}
        onClose={() => {
          setConfirmDelete(false);
          bulkDelete.reset();
        }}
      >
        Domains that still have mailboxes are kept and listed. A domain comes back when a mailbox with its address is connected.
      </ConfirmDeleteDialog>
    </div>
  );
}

/** The domains a bulk delete kept because mailboxes still use them. */
function ConflictsAlert({ conflicts, onDismiss }: { conflicts: Conflicts; onDismiss: () => void }) {
  return (
    <Alert tone="warning">
      <div className="flex justify-between">
        <p className="font-medium">Not deleted: these domains still have mailboxes. Delete the mailboxes first.</p>
        <button type="button" onClick={onDismiss} aria-label="Dismiss">
          ✕
        </button>
      </div>
      <ul className="mt-1 list-disc pl-5">
        {conflicts.map((c) => (
          <li key={c.id}>
            {c.domain}: {c.reason}
          </li>
        ))}
      </ul>
    </Alert>
  );
}
