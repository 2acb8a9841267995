"use client";

import { useState } from "react";
import { describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Pager } from "@/components/ui/pager";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { useCan } from "@/components/shell/member-context";
import { ActiveFilters } from "./active-filters";
import { EnrichPanel } from "./enrich-panel";
import { FiltersPanel } from "./filters-panel";
import { FinderImportDialog } from "./import-dialog";
import { type FinderFilters, type PersonView, useFacets, useSearch, useStartEnrich } from "./queries";

const LIMIT = 25;
const nameOf = (p: PersonView) => [p.firstName, p.lastName].filter(Boolean).join(" ") || p.linkedinUrl || p.id;

/** The Finder page: filters with facet counts, the matching directory people, select → enrich → add to a campaign. */
export function FinderView() {
  const [filters, setFilters] = useState<FinderFilters>({});
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Map<string, string>>(new Map());
  const [jobId, setJobId] = useState<string>();
  const [importing, setImporting] = useState(false);
  const canWrite = useCan("member");
  const search = useSearch(filters, page, LIMIT);
  const facets = useFacets(filters);
  const enrich = useStartEnrich(setJobId);
  const people = search.data?.people ?? [];
  const change = (f: FinderFilters) => {
    setFilters(f);
    setPage(1);
  };
  const toggle = (p: PersonView) =>
    setSelected((s) => {
      const next = new Map(s);
      if (next.has(p.id)) next.delete(p.id);
      else next.set(p.id, nameOf(p));
      return next;
    });
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-xl font-semibold text-gray-900">Finder</h1>
        {canWrite && (
          <Button variant="secondary" onClick={() => setImporting(true)}>
            Import people (CSV)
          </Button>
        )}
      </div>
      <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-[18rem_minmax(0,1fr)]">
        <FiltersPanel filters={filters} facets={facets.data?.facets} onChange={change} />
        <div className="min-w-0 space-y-4">
          <ActiveFilters filters={filters} onChange={change} />
          <div className="flex flex-wrap items-center gap-3 text-sm">
            <span data-testid="finder-total">{(search.data?.total ?? 0).toLocaleString()} people</span>
            <Button disabled={selected.size === 0 || enrich.isPending} onClick={() => enrich.mutate([...selected.keys()])}>
              Find emails for {selected.size} selected
            </Button>
          </div>
          {search.error && <Alert tone="error">{describeError(search.error)}</Alert>}
          {enrich.error && <Alert tone="error">The enrichment did not start: {describeError(enrich.error)}</Alert>}
          {jobId && <EnrichPanel jobId={jobId} names={selected} />}
          <PeopleTable people={people} loaded={!!search.data} filters={filters} selected={selected} onToggle={toggle} />
          {search.data && (
            <Pager
              page={page}
              limit={LIMIT}
              total={search.data.total}
              shown={people.length}
              sizes={[LIMIT]}
              onPage={setPage}
              onLimit={() => {}}
            />
          )}
        </div>
      </div>
      <FinderImportDialog open={importing} onClose={() => setImporting(false)} />
    </div>
  );
}

function PeopleTable({
  people,
  loaded,
  filters,
  selected,
  onToggle,
}: {
  people: PersonView[];
  loaded: boolean;
  filters: FinderFilters;
  selected: Map<string, string>;
  onToggle: (p: PersonView) => void;
}) {
  return (
    <Table>
      <THead>
        <Tr>
          <Th className="w-8" />
          <Th>Name</Th>
          <Th>Title</Th>
          <Th>Company</Th>
          <Th>Country</Th>
          <Th>Email</Th>
        </Tr>
      </THead>
      <TBody>
        {people.map((p) => (
          <Tr key={p.id}>
            <Td>
              <input type="checkbox" aria-label={`Select ${nameOf(p)}`} checked={selected.has(p.id)} onChange={() => onToggle(p)} />
            </Td>
            <Td>{nameOf(p)}</Td>
            <Td>{p.title}</Td>
            <Td>{p.companyName ?? p.companyDomain}</Td>
            <Td>{p.country}</Td>
            <Td>{p.email ? `${p.email} (${p.verificationStatus})` : "—"}</Td>
          </Tr>
        ))}
        {loaded && people.length === 0 && (
          <Tr>
            <Td colSpan={6}>
              {Object.values(filters).some((v) => (Array.isArray(v) ? v.length > 0 : Boolean(v)))
                ? "No one matches these filters."
                : "The directory is empty. Import people from a CSV file (Import people above) or with POST /api/v1/finder/directory/import."}
            </Td>
          </Tr>
        )}
      </TBody>
    </Table>
  );
}
