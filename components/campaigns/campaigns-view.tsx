"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useState } from "react";
import { describeError, data, client } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { useCan } from "@/components/shell/member-context";
import { CheckboxGroup } from "@/components/ui/checkbox-group";
import { Dialog } from "@/components/ui/dialog";
import { Input, Select } from "@/components/ui/input";
import { Notice } from "@/components/ui/notice";
import { Pager } from "@/components/ui/pager";
import { SelectAllTh, SelectTd, TableStatusRows } from "@/components/ui/selectable-table";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { usePaging } from "@/components/ui/use-paging";
import { useSelection } from "@/components/ui/use-selection";
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
const NO_FILTERS: Omit<CampaignFilters, "page" | "limit"> = { q: "", folder: undefined, statuses: [] };

type RowAction = { kind: "duplicate" | "delete"; campaign: Campaign };

export function CampaignsView() {
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const paging = usePaging(50, NO_FILTERS);
  const filters = paging.query;
  const campaigns = useCampaigns(filters);
  const folders = useFolders();
  const rows = campaigns.data?.rows ?? [];
  const total = campaigns.data?.total ?? 0;
  const selection = useSelection(rows, paging.scope);
  const [creating, setCreating] = useState(false);
  const [archiving, setArchiving] = useState(false);
  const [action, setAction] = useState<RowAction>();
  const [notice, setNotice] = useState<{ text: string; href?: string }>();

  // Search as the user types, but not one request per keystroke (filter sets state through an updater:
  // a stale one is fine, and an unchanged query keeps the page and the selection).
  // biome-ignore lint/correctness/useExhaustiveDependencies: paging.filter is an updater; only the typed search restarts the timer
  useEffect(() => {
    const t = setTimeout(() => paging.filter({ q: search }), 300);
    return () => clearTimeout(t);
  }, [search]);

  const archive = useMutation({
    mutationFn: (campaignIds: string[]) => data(client.POST("/campaigns/bulk-archive", { body: { campaignIds } })),
    onSuccess: async (r) => {
      await queryClient.invalidateQueries({ queryKey: keys.list() });
      setArchiving(false);
      selection.clear();
      setNotice({
        text: `Archived ${plural(r.archived, "campaign")}.${r.notFound.length ? ` ${r.notFound.length} no longer existed.` : ""}`,
      });
    },
  });

  // A client seat reads campaigns only; deleting is for owners and admins (lib/roles.ts).
  const canWrite = useCan("member");
  const canDelete = useCan("admin");
  const filtered = !!filters.q || filters.folder !== undefined || filters.statuses.length > 0;

  return (
    <div className="space-y-4">
      <div className="flex items-center justify-between">
        <div>
          <h1 className="text-xl font-semibold text-gray-900">Campaigns</h1>
          <p className="text-sm text-gray-600">
            {campaigns.data ? `${total.toLocaleString()} ${filtered ? "matching" : "in total"}` : "\u00a0"}
          </p>
        </div>
        {canWrite && (
          <div className="flex gap-2">
            {selection.size > 0 && (
              <Button variant="secondary" onClick={() => setArchiving(true)}>
                Archive {selection.size} selected
              </Button>
            )}
            <Button onClick={() => setCreating(true)}>New campaign</Button>
          </div>
        )}
      </div>

      <div className="flex flex-wrap items-center gap-3">
        <Input
          type="search"
          aria-label="Search campaigns"
          placeholder="Search by name…"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          className="w-64"
        />
        <Select
          aria-label="Folder"
          className="w-48"
          value={filters.folder === undefined ? "" : filters.folder === "" ? NO_FOLDER : filters.folder}
          onChange={(e) => {
            const v = e.target.value;
            paging.filter({ folder: v === "" ? undefined : v === NO_FOLDER ? "" : v });
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
          onChange={(statuses) => paging.filter({ statuses })}
        />
      </div>

      {notice && (
        <Notice testId="campaigns-notice" onDismiss={() => setNotice(undefined)}>
          {notice.text}{" "}
          {notice.href && (
            <Link href={notice.href} className="font-medium underline">
              Open it
            </Link>
          )}
        </Notice>
      )}
      {campaigns.error && <Alert tone="error">Could not load campaigns: {describeError(campaigns.error)}</Alert>}
      {folders.error && <Alert tone="error">Could not load the folder names: {describeError(folders.error)}</Alert>}

      <Table aria-label="Campaigns" aria-busy={campaigns.isFetching}>
        <THead>
          <tr>
            {canWrite ? <SelectAllTh selection={selection} /> : <Th className="w-0" />}
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
              {canWrite ? <SelectTd label={c.name} checked={selection.has(c.id)} onToggle={() => selection.toggle(c.id)} /> : <Td />}
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
                {canWrite && (
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Duplicate ${c.name}`}
                    onClick={() => setAction({ kind: "duplicate", campaign: c })}
                  >
                    Duplicate
                  </Button>
                )}
                {canDelete && (
                  <Button
                    variant="ghost"
                    size="sm"
                    className="text-red-700"
                    aria-label={`Delete ${c.name}`}
                    onClick={() => setAction({ kind: "delete", campaign: c })}
                  >
                    Delete
                  </Button>
                )}
              </Td>
            </Tr>
          ))}
          <TableStatusRows columns={COLUMNS} empty={!!campaigns.data && rows.length === 0} loading={campaigns.isPending}>
            {filtered ? "No campaigns match these filters." : "No campaigns yet. Create one to write a sequence and start sending."}
          </TableStatusRows>
        </TBody>
      </Table>

      <Pager {...paging} total={total} shown={rows.length} sizes={PAGE_SIZES} />

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
        title={`Archive ${plural(selection.size, "campaign")}?`}
        footer={
          <>
            <Button variant="secondary" onClick={() => setArchiving(false)}>
              Cancel
            </Button>
            <Button disabled={archive.isPending} onClick={() => archive.mutate(selection.ids)}>
              {archive.isPending ? "Archiving…" : "Archive"}
            </Button>
          </>
        }
      >
        <div className="space-y-3 text-sm text-gray-700">
          <p>
            Archived campaigns stop sending and move out of the way; their leads, steps and stats are kept, and they can be launched again.
          </p>
          {archive.error && <Alert tone="error">{describeError(archive.error)}</Alert>}
        </div>
      </Dialog>
    </div>
  );
}
