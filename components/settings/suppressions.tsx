"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, type ReactNode, useEffect, useState } from "react";
import { client, data, describeError } from "@/components/api-client";
import { useCan } from "@/components/shell/member-context";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDeleteDialog } from "@/components/ui/confirm-delete-dialog";
import { Field, Input, Select } from "@/components/ui/input";
import { Pager } from "@/components/ui/pager";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { usePaging } from "@/components/ui/use-paging";
import type { ResponseOf } from "@/lib/client";
import { SettingsNav } from "./settings-nav";
import { SuppressionsImport } from "./suppressions-import";

type Entry = ResponseOf<"/suppressions", "get">["suppressions"][number];
type Kind = "email" | "domain";

const REASON_LABEL: Record<string, string> = {
  manual: "Added by hand",
  import: "CSV import",
  unsubscribe_link: "Unsubscribed (link)",
  unsubscribe_reply: "Unsubscribed (reply)",
  hard_bounce: "Hard bounce",
};

function KindBadge({ kind }: { kind: Kind }) {
  return kind === "domain" ? <Badge tone="blue">Domain</Badge> : <Badge tone="gray">Address</Badge>;
}

/** Add one address or one domain; a malformed one is refused with the API's reason under the field. */
function AddSuppression() {
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<Kind>("email");
  const [value, setValue] = useState("");
  const add = useMutation({
    mutationFn: () =>
      data(client.POST("/suppressions", { body: kind === "email" ? { emails: [value.trim()] } : { domains: [value.trim()] } })),
    onSuccess: (r) => {
      if (r.added > 0) setValue("");
      return queryClient.invalidateQueries({ queryKey: ["suppressions"] });
    },
  });
  const result = add.data;
  const invalid = result?.invalid.map((i) => i.reason);
  function submit(e: FormEvent) {
    e.preventDefault();
    if (value.trim()) add.mutate();
  }
  return (
    <form onSubmit={submit} className="min-w-0 space-y-3 rounded-lg border border-gray-200 bg-white p-4" noValidate>
      <h2 className="text-sm font-semibold text-gray-900">Add to the list</h2>
      <div className="grid grid-cols-1 items-start gap-3 sm:grid-cols-[10rem_1fr_auto]">
        <Field label="Type">
          <Select
            value={kind}
            onChange={(e) => {
              add.reset();
              setKind(e.target.value as Kind);
            }}
          >
            <option value="email">Address</option>
            <option value="domain">Domain</option>
          </Select>
        </Field>
        <Field
          label={kind === "email" ? "Email address" : "Domain"}
          errors={invalid?.length ? invalid : undefined}
          hint={kind === "domain" ? "Every address at this domain is skipped, e.g. competitor.com." : undefined}
        >
          <Input
            value={value}
            maxLength={kind === "email" ? 254 : 253}
            placeholder={kind === "email" ? "someone@example.com" : "example.com"}
            aria-invalid={invalid?.length ? true : undefined}
            onChange={(e) => {
              add.reset();
              setValue(e.target.value);
            }}
          />
        </Field>
        <div className="sm:pt-6">
          <Button type="submit" disabled={add.isPending || !value.trim()}>
            {add.isPending ? "Adding…" : "Add"}
          </Button>
        </div>
      </div>
      {add.error && <Alert tone="error">{describeError(add.error)}</Alert>}
      {result && result.added > 0 && <Alert tone="success">Added {result.suppressions[0]?.value}: it will not be emailed.</Alert>}
      {result && result.existing > 0 && <Alert tone="info">That {kind === "email" ? "address" : "domain"} is already on the list.</Alert>}
    </form>
  );
}

function useSuppressions(query: { page: number; limit: number; q: string; kind: "" | Kind }) {
  return useQuery({
    queryKey: ["suppressions", query],
    queryFn: ({ signal }) =>
      data(
        client.GET("/suppressions", {
          params: { query: { page: query.page, limit: query.limit, q: query.q || undefined, kind: query.kind || undefined } },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

function MessageRow({ children }: { children: ReactNode }) {
  return (
    <tr>
      <Td colSpan={5} className="text-gray-500">
        {children}
      </Td>
    </tr>
  );
}

function SuppressionRow({ s, canEdit, onRemove }: { s: Entry; canEdit: boolean; onRemove: () => void }) {
  return (
    <Tr data-testid="suppression-row">
      <Td className="max-w-64 truncate font-mono text-xs" title={s.value}>
        {s.kind === "domain" ? `*@${s.value}` : s.value}
      </Td>
      <Td>
        <KindBadge kind={s.kind} />
      </Td>
      <Td className="whitespace-nowrap text-gray-600">{REASON_LABEL[s.reason] ?? s.reason}</Td>
      <Td className="whitespace-nowrap text-gray-600">{new Date(s.createdAt).toLocaleDateString()}</Td>
      {canEdit && (
        <Td className="text-right">
          <Button variant="ghost" size="sm" aria-label={`Remove ${s.value}`} onClick={onRemove}>
            Remove
          </Button>
        </Td>
      )}
    </Tr>
  );
}

/** The list's paging, the debounced search, and removing an entry. */
function useSuppressionList() {
  const queryClient = useQueryClient();
  const paging = usePaging(50, { kind: "" as "" | Kind });
  const [search, setSearch] = useState("");
  // The search is sent once typing pauses; a new search starts at page 1.
  const [q, setQ] = useState("");
  useEffect(() => {
    const t = setTimeout(() => setQ(search.trim()), 300);
    return () => clearTimeout(t);
  }, [search]);
  const [removing, setRemoving] = useState<Entry>();
  const list = useSuppressions({ ...paging.query, q });
  const remove = useMutation({
    mutationFn: (id: string) => data(client.DELETE("/suppressions/{id}", { params: { path: { id } } })),
    onSuccess: () => {
      setRemoving(undefined);
      return queryClient.invalidateQueries({ queryKey: ["suppressions"] });
    },
  });
  return { paging, search, setSearch, q, removing, setRemoving, list, remove };
}

function SuppressionList({ canEdit }: { canEdit: boolean }) {
  const { paging, search, setSearch, q, removing, setRemoving, list, remove } = useSuppressionList();
  const rows = list.data?.suppressions ?? [];
  return (
    <section className="min-w-0 space-y-3" aria-label="Suppression list">
      <div className="grid grid-cols-1 items-end gap-3 sm:grid-cols-[1fr_15rem]">
        <Field label="Search">
          <Input
            type="search"
            placeholder="Address or domain contains…"
            value={search}
            onChange={(e) => {
              setSearch(e.target.value);
              paging.onPage(1);
            }}
          />
        </Field>
        <Field label="Show">
          <Select value={paging.query.kind} onChange={(e) => paging.filter({ kind: e.target.value as "" | Kind })}>
            <option value="">Addresses and domains</option>
            <option value="email">Addresses only</option>
            <option value="domain">Domains only</option>
          </Select>
        </Field>
      </div>
      {list.error && <Alert tone="error">Could not load the list: {describeError(list.error)}</Alert>}
      <Table>
        <THead>
          <tr>
            <Th>Entry</Th>
            <Th>Type</Th>
            <Th>Why</Th>
            <Th>Added</Th>
            {canEdit && <Th className="text-right">Actions</Th>}
          </tr>
        </THead>
        <TBody>
          {list.isPending && <MessageRow>Loading…</MessageRow>}
          {list.data && rows.length === 0 && (
            <MessageRow>{q || paging.query.kind ? "Nothing matches." : "The list is empty: every lead can be emailed."}</MessageRow>
          )}
          {rows.map((s) => (
            <SuppressionRow key={s.id} s={s} canEdit={canEdit} onRemove={() => setRemoving(s)} />
          ))}
        </TBody>
      </Table>
      {list.data && (
        <Pager
          page={paging.page}
          limit={paging.limit}
          total={list.data.total}
          shown={rows.length}
          sizes={[25, 50, 100, 200]}
          onPage={paging.onPage}
          onLimit={paging.onLimit}
        />
      )}
      <ConfirmDeleteDialog
        open={!!removing}
        title={`Remove ${removing?.value ?? ""}?`}
        pending={remove.isPending}
        error={remove.error ? describeError(remove.error) : undefined}
        onConfirm={() => removing && remove.mutate(removing.id)}
        onCancel={() => setRemoving(undefined)}
        onClose={() => setRemoving(undefined)}
      >
        {removing?.kind === "domain"
          ? `Addresses at ${removing.value} can be emailed again by campaigns.`
          : `${removing?.value ?? "This address"} can be emailed again by campaigns.`}
      </ConfirmDeleteDialog>
    </section>
  );
}

/**
 * Settings → Suppressions: the addresses and domains no campaign emails. Unsubscribes and hard bounces
 * land here by themselves; add more by hand or from a CSV, search, and remove an entry.
 */
export function SuppressionsSettings() {
  const canEdit = useCan("member");
  return (
    <div className="space-y-6">
      <div>
        <p className="text-sm text-gray-500">Settings</p>
        <h1 className="text-xl font-semibold text-gray-900">Suppressions</h1>
        <div className="my-3">
          <SettingsNav active="suppressions" />
        </div>
        <p className="text-sm text-gray-600">
          Addresses and domains on this list are never emailed: leads with them are skipped when added and at every send. Unsubscribes and
          hard bounces are added automatically.
        </p>
      </div>
      {canEdit && (
        <div className="grid grid-cols-1 gap-6 xl:grid-cols-2">
          <AddSuppression />
          <SuppressionsImport />
        </div>
      )}
      <SuppressionList canEdit={canEdit} />
    </div>
  );
}
