"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import { describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/input";
import { Notice } from "@/components/ui/notice";
import { Pager } from "@/components/ui/pager";
import { SelectAllTh, SelectTd, TableStatusRows } from "@/components/ui/selectable-table";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { type Selection, useSelection } from "@/components/ui/use-selection";
import { ESP_CLASSES, VERIFICATION_STATUSES } from "@/lib/leads/schemas";
import { AddLeadDialog } from "./add-lead-dialog";
import { LeadBulkActions } from "./bulk-actions";
import { ImportDialog } from "./import-dialog";
import { type LeadFilters, type LeadView, useLeads, useTags } from "./queries";

const PAGE_SIZES = [25, 50, 100, 200]; // 200 is the API's maximum

const STATUS_TONE: Record<LeadView["verificationStatus"], BadgeTone> = {
  UNVERIFIED: "gray",
  VALID: "green",
  RISKY: "yellow",
  CATCH_ALL: "yellow",
  INVALID: "red",
  UNKNOWN: "gray",
};

function fullName(l: LeadView): string {
  return [l.firstName, l.lastName].filter(Boolean).join(" ");
}

type FilterKey = "verificationStatus" | "espClass" | "tagId" | "limit";

/** The list's filters and page, with the search box applied as the user types (but not one request per keystroke). */
function useLeadFilters() {
  const [search, setSearch] = useState("");
  const [filters, setFilters] = useState<LeadFilters>({ q: "", verificationStatus: "", espClass: "", tagId: "", page: 1, limit: 50 });

  useEffect(() => {
    const t = setTimeout(() => setFilters((f) => (f.q === search ? f : { ...f, q: search, page: 1 })), 300);
    return () => clearTimeout(t);
  }, [search]);

  const setFilter = (k: FilterKey, v: string) => setFilters((f) => ({ ...f, [k]: k === "limit" ? Number(v) : v, page: 1 }));
  return { search, setSearch, filters, setFilters, setFilter };
}

/** The search box and the verification, provider and tag filters. */
function LeadFilterBar({
  search,
  setSearch,
  filters,
  setFilter,
  tags,
}: {
  search: string;
  setSearch: (q: string) => void;
  filters: LeadFilters;
  setFilter: (k: FilterKey, v: string) => void;
  tags: { id: string; name: string }[] | undefined;
}) {
  return (
    <div className="flex flex-wrap gap-2">
      <Input
        type="search"
        aria-label="Search leads"
        placeholder="Search email, name or company…"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        className="w-full sm:w-72"
      />
      <Select
        aria-label="Verification status"
        value={filters.verificationStatus}
        onChange={(e) => setFilter("verificationStatus", e.target.value)}
        className="w-48"
      >
        <option value="">Any verification</option>
        {VERIFICATION_STATUSES.map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </Select>
      <Select aria-label="Email provider" value={filters.espClass} onChange={(e) => setFilter("espClass", e.target.value)} className="w-44">
        <option value="">Any provider</option>
        {ESP_CLASSES.map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </Select>
      <Select aria-label="Tag" value={filters.tagId} onChange={(e) => setFilter("tagId", e.target.value)} className="w-44">
        <option value="">Any tag</option>
        {tags?.map((t) => (
          <option key={t.id} value={t.id}>
            {t.name}
          </option>
        ))}
      </Select>
    </div>
  );
}

/** One lead in the list: its checkbox, a link to it, and its details. */
function LeadRow({ lead: l, selection }: { lead: LeadView; selection: Selection }) {
  return (
    <Tr>
      <SelectTd label={l.email} checked={selection.has(l.id)} onToggle={() => selection.toggle(l.id)} />
      <Td>
        <Link href={`/leads/${l.id}`} className="font-medium text-indigo-700 hover:underline">
          {l.email}
        </Link>
      </Td>
      <Td>{fullName(l)}</Td>
      <Td>{l.companyName ?? l.companyDomain ?? ""}</Td>
      <Td>{l.jobTitle ?? ""}</Td>
      <Td>
        <Badge tone={STATUS_TONE[l.verificationStatus]}>{l.verificationStatus}</Badge>
      </Td>
      <Td className="text-gray-600">{l.espClass}</Td>
      <Td>
        <div className="flex flex-wrap gap-1">
          {l.tags.map((t) => (
            <Badge key={t.id} tone="indigo">
              {t.name}
            </Badge>
          ))}
        </div>
      </Td>
      <Td className="whitespace-nowrap text-gray-600">{new Date(l.createdAt).toLocaleDateString()}</Td>
    </Tr>
  );
}

/** The leads table, with a row for loading or for an empty page. */
function LeadsTable({
  leads,
  rows,
  selection,
  filtered,
}: {
  leads: ReturnType<typeof useLeads>;
  rows: LeadView[];
  selection: Selection;
  filtered: boolean;
}) {
  return (
    <Table aria-label="Leads" aria-busy={leads.isFetching}>
      <THead>
        <tr>
          <SelectAllTh selection={selection} />
          <Th>Email</Th>
          <Th>Name</Th>
          <Th>Company</Th>
          <Th>Job title</Th>
          <Th>Verification</Th>
          <Th>Provider</Th>
          <Th>Tags</Th>
          <Th>Added</Th>
        </tr>
      </THead>
      <TBody>
        {rows.map((l) => (
          <LeadRow key={l.id} lead={l} selection={selection} />
        ))}
        <TableStatusRows columns={9} empty={!!leads.data && rows.length === 0} loading={leads.isPending}>
          {filtered ? "No leads match these filters." : "No leads yet. Add one, or import a CSV to get started."}
        </TableStatusRows>
      </TBody>
    </Table>
  );
}

export function LeadsView() {
  const tags = useTags();
  const { search, setSearch, filters, setFilters, setFilter } = useLeadFilters();
  const [adding, setAdding] = useState(false);
  const [importing, setImporting] = useState(false);
  const [notice, setNotice] = useState<string>();
  const leads = useLeads(filters);
  const rows = leads.data?.leads ?? [];
  const total = leads.data?.total ?? 0;
  const selection = useSelection(rows, filters);
  const filtered = !!(filters.q || filters.verificationStatus || filters.espClass || filters.tagId);

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h1 className="text-xl font-semibold text-gray-900">Leads</h1>
          <p className="text-sm text-gray-600">{leads.data ? `${total.toLocaleString()} in total` : "\u00a0"}</p>
        </div>
        <div className="flex gap-2">
          <Button onClick={() => setAdding(true)}>Add lead</Button>
          <Button variant="secondary" onClick={() => setImporting(true)}>
            Import CSV
          </Button>
        </div>
      </div>

      <LeadFilterBar search={search} setSearch={setSearch} filters={filters} setFilter={setFilter} tags={tags.data} />

      {notice && (
        <Notice onDismiss={() => setNotice(undefined)} testId="leads-notice">
          {notice}
        </Notice>
      )}
      <LeadBulkActions selection={selection} onDone={setNotice} />
      {leads.error && <Alert tone="error">Could not load leads: {describeError(leads.error)}</Alert>}
      {tags.error && <Alert tone="error">Could not load tags: {describeError(tags.error)}</Alert>}

      <LeadsTable leads={leads} rows={rows} selection={selection} filtered={filtered} />

      <Pager
        page={filters.page}
        limit={filters.limit}
        total={total}
        shown={rows.length}
        sizes={PAGE_SIZES}
        onPage={(page) => setFilters((f) => ({ ...f, page }))}
        onLimit={(limit) => setFilter("limit", String(limit))}
      />

      <AddLeadDialog open={adding} onClose={() => setAdding(false)} />
      <ImportDialog open={importing} onClose={() => setImporting(false)} />
    </div>
  );
}
