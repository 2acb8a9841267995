"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Pager } from "@/components/ui/pager";
import { Table, TBody, Th, THead } from "@/components/ui/table";
import type { DomainView } from "@/lib/domains/domains";
import { apiRequest } from "../mailboxes/api";
import { CHECKS, DOMAIN_COLUMNS } from "./checks";
import { DomainRow } from "./domain-row";
import { useDomains } from "./queries";

const PAGE_SIZES = [25, 50, 100, 200];

interface BulkDeleteResult {
  deleted: number;
  notFound: string[];
  conflicts: { id: string; domain: string; reason: string }[];
}

export function DomainsView() {
  const queryClient = useQueryClient();
  const [paging, setPaging] = useState({ page: 1, limit: 50 });
  const domains = useDomains(paging.page, paging.limit);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [notice, setNotice] = useState<string>();
  const [conflicts, setConflicts] = useState<BulkDeleteResult["conflicts"]>([]);

  useEffect(() => setSelected(new Set()), [paging]);

  const refresh = () => queryClient.invalidateQueries({ queryKey: ["domains"] });

  const bulkCheck = useMutation({
    mutationFn: (domainIds: string[]) =>
      apiRequest<{ checked: number; notFound: string[]; domains: DomainView[] }>("/api/v1/domains/bulk-check", { method: "POST", body: { domainIds } }).then((r) => r.data),
    onSuccess: async (r) => {
      setNotice(`Re-checked ${r.checked} domain${r.checked === 1 ? "" : "s"}.${r.notFound.length ? ` ${r.notFound.length} no longer exist.` : ""}`);
      await refresh();
    },
  });

  const bulkDelete = useMutation({
    mutationFn: (domainIds: string[]) => apiRequest<BulkDeleteResult>("/api/v1/domains/bulk-delete", { method: "POST", body: { domainIds } }).then((r) => r.data),
    onSuccess: async (r) => {
      setConfirmDelete(false);
      setSelected(new Set());
      setNotice(`Deleted ${r.deleted} domain${r.deleted === 1 ? "" : "s"}.`);
      setConflicts(r.conflicts);
      await refresh();
    },
  });

  const rows = domains.data?.rows ?? [];
  const total = domains.data?.total ?? 0;
  const allSelected = rows.length > 0 && rows.every((r) => selected.has(r.id));

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
      <div className="flex items-center justify-between">
        <div>
          <h1 className="text-xl font-semibold text-gray-900">Domains</h1>
          <p className="text-sm text-gray-600">Sending domains are added from your mailboxes&apos; addresses and checked daily.</p>
        </div>
        {selected.size > 0 && (
          <div className="flex gap-2">
            <Button variant="secondary" disabled={bulkCheck.isPending} onClick={() => bulkCheck.mutate([...selected])}>
              {bulkCheck.isPending ? "Checking…" : `Re-check ${selected.size} selected`}
            </Button>
            <Button variant="danger" onClick={() => setConfirmDelete(true)}>
              Delete {selected.size} selected
            </Button>
          </div>
        )}
      </div>

      {notice && (
        <Alert tone="success" className="flex justify-between">
          <span data-testid="domains-notice">{notice}</span>
          <button type="button" onClick={() => setNotice(undefined)} aria-label="Dismiss">
            ✕
          </button>
        </Alert>
      )}
      {conflicts.length > 0 && (
        <Alert tone="warning">
          <div className="flex justify-between">
            <p className="font-medium">Not deleted: these domains still have mailboxes. Delete the mailboxes first.</p>
            <button type="button" onClick={() => setConflicts([])} aria-label="Dismiss">
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
      )}
      {bulkCheck.error && <Alert tone="error">Re-check failed: {describeError(bulkCheck.error)}</Alert>}
      {domains.error && <Alert tone="error">Could not load domains: {describeError(domains.error)}</Alert>}

      <Table aria-label="Domains" aria-busy={domains.isFetching}>
        <THead>
          <tr>
            <Th className="w-8">
              <input
                type="checkbox"
                aria-label="Select all on this page"
                checked={allSelected}
                onChange={() => setSelected(allSelected ? new Set() : new Set(rows.map((r) => r.id)))}
              />
            </Th>
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
            <DomainRow key={d.id} domain={d} selected={selected.has(d.id)} onToggle={() => toggle(d.id)} />
          ))}
          {domains.data && rows.length === 0 && (
            <tr>
              <td colSpan={DOMAIN_COLUMNS} className="px-3 py-10 text-center text-sm text-gray-600">
                No domains yet. They appear when you connect a mailbox.
              </td>
            </tr>
          )}
          {domains.isPending && (
            <tr>
              <td colSpan={DOMAIN_COLUMNS} className="px-3 py-10 text-center text-sm text-gray-500">
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

      <Dialog
        open={confirmDelete}
        onClose={() => {
          setConfirmDelete(false);
          bulkDelete.reset();
        }}
        title={`Delete ${selected.size} domain${selected.size === 1 ? "" : "s"}?`}
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirmDelete(false)}>
              Cancel
            </Button>
            <Button variant="danger" disabled={bulkDelete.isPending} onClick={() => bulkDelete.mutate([...selected])}>
              {bulkDelete.isPending ? "Deleting…" : "Delete"}
            </Button>
          </>
        }
      >
        <div className="space-y-3 text-sm text-gray-700">
          <p>Domains that still have mailboxes are kept and listed. A domain comes back when a mailbox with its address is connected.</p>
          {bulkDelete.error && <Alert tone="error">{describeError(bulkDelete.error)}</Alert>}
        </div>
      </Dialog>
    </div>
  );
}
