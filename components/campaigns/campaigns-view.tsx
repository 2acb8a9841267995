"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useState } from "react";
import { apiFetch, describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CheckboxGroup } from "@/components/ui/checkbox-group";
import { Dialog } from "@/components/ui/dialog";
import { Input, Select } from "@/components/ui/input";
import { Pager } from "@/components/ui/pager";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { CreateCampaignDialog } from "./create-dialog";
import { DeleteCampaignDialog } from "./delete-dialog";
import { DuplicateDialog } from "./duplicate-dialog";
import { percent, plural, STATUS, STATUSES } from "./labels";
import { keys, useCampaigns, useFolders, type CampaignFilters } from "./queries";
import type { Campaign } from "./types";

const PAGE_SIZES = [25, 50, 100, 200, 500]; // 500 is the API's largest page for this list
const COLUMNS = 10;
/**
 * The folder select's value for "campaigns without a folder" (the API filters those with folder="").
 * It starts with a space, which no folder name can: the API trims them.
 */
const NO_FOLDER = " no folder";

type RowAction = { kind: "duplicate" | "delete"; campaign: Campaign };

export function CampaignsView() {
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const [filters, setFilters] = useState<CampaignFilters>({ q: "", folder: undefined, statuses: [], page: 1, limit: 50 });
  const campaigns = useCampaigns(filters);
  const folders = useFolders();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [creating, setCreating] = useState(false);
  const [archiving, setArchiving] = useState(false);
  const [action, setAction] = useState<RowAction>();
  const [notice, setNotice] = useState<{ text: string; href?: string }>();

  // Search as the user types, but not one request per keystroke.
  useEffect(() => {
    const t = setTimeout(() => setFilters((f) => (f.q === search ? f : { ...f, q: search, page: 1 })), 300);
    return () => clearTimeout(t);
  }, [search]);

  // A selection only makes sense for the rows on screen.
  useEffect(() => setSelected(new Set()), [filters]);

  const archive = useMutation({
    mutationFn: (campaignIds: string[]) => apiFetch<{ archived: number; notFound: string[] }>("/api/v1/campaigns/bulk-archive", { method: "POST", body: { campaignIds } }),
    onSuccess: async (r) => {
      await queryClient.invalidateQueries({ queryKey: keys.list() });
      setArchiving(false);
      setSelected(new Set());
      setNotice({ text: `Archived ${plural(r.archived, "campaign")}.${r.notFound.length ? ` ${r.notFound.length} no longer existed.` : ""}` });
    },
  });

  const rows = campaigns.data?.rows ?? [];
  const total = campaigns.data?.total ?? 0;
  const allSelected = rows.length > 0 && rows.every((r) => selected.has(r.id));
  const filtered = !!filters.q || filters.folder !== undefined || filters.statuses.length > 0;

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
          <h1 className="text-xl font-semibold text-gray-900">Campaigns</h1>
          <p className="text-sm text-gray-600">{campaigns.data ? `${total.toLocaleString()} ${filtered ? "matching" : "in total"}` : "\u00a0"}</p>
        </div>
        <div className="flex gap-2">
          {selected.size > 0 && (
            <Button variant="secondary" onClick={() => setArchiving(true)}>
              Archive {selected.size} selected
            </Button>
          )}
          <Button onClick={() => setCreating(true)}>New campaign</Button>
        </div>
      </div>

      <div className="flex flex-wrap items-center gap-3">
        <Input type="search" aria-label="Search campaigns" placeholder="Search by name…" value={search} onChange={(e) => setSearch(e.target.value)} className="w-64" />
        <Select
          aria-label="Folder"
          className="w-48"
          value={filters.folder === undefined ? "" : filters.folder === "" ? NO_FOLDER : filters.folder}
          onChange={(e) => {
            const v = e.target.value;
            setFilters((f) => ({ ...f, folder: v === "" ? undefined : v === NO_FOLDER ? "" : v, page: 1 }));
          }}
        >
          <option value="">Any folder</option>
          <option value={NO_FOLDER}>No folder</option>
          {folders.data?.map((f) => (
            <option key={f} value={f}>
              {f}
            </option>
          ))}
        </Select>
        <CheckboxGroup
          legend="Status"
          hideLegend
          options={STATUSES.map((s) => ({ value: s, label: STATUS[s].label }))}
          value={filters.statuses}
          onChange={(statuses) => setFilters((f) => ({ ...f, statuses, page: 1 }))}
        />
      </div>

      {notice && (
        <Alert tone="success" className="flex justify-between">
          <span data-testid="campaigns-notice">
            {notice.text}{" "}
            {notice.href && (
              <Link href={notice.href} className="font-medium underline">
                Open it
              </Link>
            )}
          </span>
          <button type="button" onClick={() => setNotice(undefined)} aria-label="Dismiss">
            ✕
          </button>
        </Alert>
      )}
      {campaigns.error && <Alert tone="error">Could not load campaigns: {describeError(campaigns.error)}</Alert>}
      {folders.error && <Alert tone="error">Could not load the folder names: {describeError(folders.error)}</Alert>}

      <Table aria-label="Campaigns" aria-busy={campaigns.isFetching}>
        <THead>
          <tr>
            <Th className="w-8">
              <input type="checkbox" aria-label="Select all on this page" checked={allSelected} onChange={() => setSelected(allSelected ? new Set() : new Set(rows.map((r) => r.id)))} />
            </Th>
            <Th>Name</Th>
            <Th>Status</Th>
            <Th>Folder</Th>
            <Th className="text-right">Sent</Th>
            <Th className="text-right">Contacted</Th>
            <Th className="text-right">Reply rate</Th>
            <Th className="text-right">Bounce rate</Th>
            <Th>Created</Th>
            <Th>
              <span className="sr-only">Actions</span>
            </Th>
          </tr>
        </THead>
        <TBody>
          {rows.map((c) => (
            <Tr key={c.id}>
              <Td>
                <input type="checkbox" aria-label={`Select ${c.name}`} checked={selected.has(c.id)} onChange={() => toggle(c.id)} />
              </Td>
              <Td>
                <Link href={`/campaigns/${encodeURIComponent(c.id)}`} className="font-medium text-indigo-700 hover:underline">
                  {c.name}
                </Link>
              </Td>
              <Td>
                <Badge tone={STATUS[c.status].tone}>{STATUS[c.status].label}</Badge>
              </Td>
              <Td className="text-gray-600">{c.folder ?? ""}</Td>
              <Td className="text-right tabular-nums">{c.sentCount.toLocaleString()}</Td>
              <Td className="text-right tabular-nums">{c.leadsContacted.toLocaleString()}</Td>
              {/* Rates over nobody are not 0 %: a dash until a lead was contacted or an email sent. */}
              <Td className="text-right tabular-nums">{c.leadsContacted ? percent(c.repliedRate) : "—"}</Td>
              <Td className="text-right tabular-nums">{c.sentCount ? percent(c.bouncedRate) : "—"}</Td>
              <Td className="whitespace-nowrap text-gray-600">{new Date(c.createdAt).toLocaleDateString()}</Td>
              <Td className="whitespace-nowrap text-right">
                <Button variant="ghost" size="sm" aria-label={`Duplicate ${c.name}`} onClick={() => setAction({ kind: "duplicate", campaign: c })}>
                  Duplicate
                </Button>
                <Button variant="ghost" size="sm" className="text-red-700" aria-label={`Delete ${c.name}`} onClick={() => setAction({ kind: "delete", campaign: c })}>
                  Delete
                </Button>
              </Td>
            </Tr>
          ))}
          {campaigns.data && rows.length === 0 && (
            <tr>
              <td colSpan={COLUMNS} className="px-3 py-10 text-center text-sm text-gray-600">
                {filtered ? "No campaigns match these filters." : "No campaigns yet. Create one to write a sequence and start sending."}
              </td>
            </tr>
          )}
          {campaigns.isPending && (
            <tr>
              <td colSpan={COLUMNS} className="px-3 py-10 text-center text-sm text-gray-500">
                Loading…
              </td>
            </tr>
          )}
        </TBody>
      </Table>

      <Pager
        page={filters.page}
        limit={filters.limit}
        total={total}
        shown={rows.length}
        sizes={PAGE_SIZES}
        onPage={(page) => setFilters((f) => ({ ...f, page }))}
        onLimit={(limit) => setFilters((f) => ({ ...f, limit, page: 1 }))}
      />

      <CreateCampaignDialog open={creating} onClose={() => setCreating(false)} folders={folders.data ?? []} />
      {action?.kind === "duplicate" && (
        <DuplicateDialog
          campaign={action.campaign}
          onClose={() => setAction(undefined)}
          onDone={(copy) => {
            setAction(undefined);
            setNotice({ text: `Created ${copy.name} as a draft.`, href: `/campaigns/${encodeURIComponent(copy.id)}` });
          }}
        />
      )}
      {action?.kind === "delete" && (
        <DeleteCampaignDialog
          campaign={action.campaign}
          onClose={() => setAction(undefined)}
          onDone={(r) => {
            const name = action.campaign.name;
            setAction(undefined);
            setNotice({ text: `Deleted ${name}.${r.leadsDeleted ? ` ${plural(r.leadsDeleted, "lead")} deleted with it.` : ""}` });
          }}
        />
      )}
      <Dialog
        open={archiving}
        onClose={() => {
          setArchiving(false);
          archive.reset();
        }}
        title={`Archive ${plural(selected.size, "campaign")}?`}
        footer={
          <>
            <Button variant="secondary" onClick={() => setArchiving(false)}>
              Cancel
            </Button>
            <Button disabled={archive.isPending} onClick={() => archive.mutate([...selected])}>
              {archive.isPending ? "Archiving…" : "Archive"}
            </Button>
          </>
        }
      >
        <div className="space-y-3 text-sm text-gray-700">
          <p>Archived campaigns stop sending and move out of the way; their leads, steps and stats are kept, and they can be launched again.</p>
          {archive.error && <Alert tone="error">{describeError(archive.error)}</Alert>}
        </div>
      </Dialog>
    </div>
  );
}
