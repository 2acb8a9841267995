"use client";

import Link from "next/link";
import { describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CheckboxGroup } from "@/components/ui/checkbox-group";
import { Dialog } from "@/components/ui/dialog";
import { Input, Select } from "@/components/ui/input";
import { Notice } from "@/components/ui/notice";
import { Pager } from "@/components/ui/pager";
import { SelectAllTh, SelectTd, TableStatusRows } from "@/components/ui/selectable-table";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { CreateCampaignDialog } from "./create-dialog";
import { DeleteCampaignDialog } from "./delete-dialog";
import { DuplicateDialog } from "./duplicate-dialog";
import { percent, plural, STATUS, STATUSES } from "./labels";
import type { Campaign } from "./types";
import { type CampaignsViewState, useCampaignsView } from "./use-campaigns-view";

const PAGE_SIZES = [25, 50, 100, 200, 500]; // 500 is the API's largest page for this list
const COLUMNS = 10;
/**
 * The folder select's value for "campaigns without a folder" (the API filters those with folder="").
 * It starts with a space, which no folder name can: the API trims them.
 */
const NO_FOLDER = " no folder";

type S = { s: CampaignsViewState };

export function CampaignsView() {
  const s = useCampaignsView();
  const { notice, campaigns, folders } = s;

  return (
    <div className="space-y-4">
      <div className="flex items-center justify-between">
        <div>
          <h1 className="text-xl font-semibold text-gray-900">Campaigns</h1>
          <p className="text-sm text-gray-600">
            {campaigns.data ? `${s.total.toLocaleString()} ${s.filtered ? "matching" : "in total"}` : "\u00a0"}
          </p>
        </div>
        {s.canWrite && (
          <div className="flex gap-2">
            {s.selection.size > 0 && (
              <Button variant="secondary" onClick={() => s.setArchiving(true)}>
                Archive {s.selection.size} selected
              </Button>
            )}
            <Button onClick={() => s.setCreating(true)}>New campaign</Button>
          </div>
        )}
      </div>

      <CampaignFilterBar s={s} />

      {notice && (
        <Notice testId="campaigns-notice" onDismiss={() => s.setNotice(undefined)}>
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

      <CampaignsTable s={s} />

      <Pager {...s.paging} total={s.total} shown={s.rows.length} sizes={PAGE_SIZES} />

      <CreateCampaignDialog open={s.creating} onClose={() => s.setCreating(false)} folders={folders.data ?? []} />
      <RowActionDialog s={s} />
      <ArchiveCampaignsDialog s={s} />
    </div>
  );
}

/** Search by name, one folder (or none), and any of the statuses. */
function CampaignFilterBar({ s }: S) {
  const { filters, paging } = s;
  return (
    <div className="flex flex-wrap items-center gap-3">
      <Input
        type="search"
        aria-label="Search campaigns"
        placeholder="Search by name…"
        value={s.search}
        onChange={(e) => s.setSearch(e.target.value)}
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
        {s.folders.data?.map((f) => (
          <option key={f} value={f}>
            {f}
          </option>
        ))}
      </Select>
      <CheckboxGroup
        legend="Status"
        hideLegend
        options={STATUSES.map((st) => ({ value: st, label: STATUS[st].label }))}
        value={filters.statuses}
        onChange={(statuses) => paging.filter({ statuses })}
      />
    </div>
  );
}

function CampaignsTable({ s }: S) {
  const { campaigns, rows } = s;
  return (
    <Table aria-label="Campaigns" aria-busy={campaigns.isFetching}>
      <THead>
        <tr>
          {s.canWrite ? <SelectAllTh selection={s.selection} /> : <Th className="w-0" />}
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
          <CampaignRow key={c.id} c={c} s={s} />
        ))}
        <TableStatusRows columns={COLUMNS} empty={!!campaigns.data && rows.length === 0} loading={campaigns.isPending}>
          {s.filtered ? "No campaigns match these filters." : "No campaigns yet. Create one to write a sequence and start sending."}
        </TableStatusRows>
      </TBody>
    </Table>
  );
}

function CampaignRow({ c, s }: { c: Campaign } & S) {
  return (
    <Tr>
      {s.canWrite ? <SelectTd label={c.name} checked={s.selection.has(c.id)} onToggle={() => s.selection.toggle(c.id)} /> : <Td />}
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
        {s.canWrite && (
          <Button
            variant="ghost"
            size="sm"
            aria-label={`Duplicate ${c.name}`}
            onClick={() => s.setAction({ kind: "duplicate", campaign: c })}
          >
            Duplicate
          </Button>
        )}
        {s.canDelete && (
          <Button
            variant="ghost"
            size="sm"
            className="text-red-700"
            aria-label={`Delete ${c.name}`}
            onClick={() => s.setAction({ kind: "delete", campaign: c })}
          >
            Delete
          </Button>
        )}
      </Td>
    </Tr>
  );
}

/** The duplicate or delete dialog a row's button opened. */
function RowActionDialog({ s }: S) {
  const { action, setAction, setNotice } = s;
  if (action?.kind === "duplicate")
    return (
      <DuplicateDialog
        campaign={action.campaign}
        onClose={() => setAction(undefined)}
        onDone={(copy) => {
          setAction(undefined);
          setNotice({ text: `Created ${copy.name} as a draft.`, href: `/campaigns/${encodeURIComponent(copy.id)}` });
        }}
      />
    );
  if (action?.kind === "delete")
    return (
      <DeleteCampaignDialog
        campaign={action.campaign}
        onClose={() => setAction(undefined)}
        onDone={(r) => {
          const name = action.campaign.name;
          setAction(undefined);
          setNotice({ text: `Deleted ${name}.${r.leadsDeleted ? ` ${plural(r.leadsDeleted, "lead")} deleted with it.` : ""}` });
        }}
      />
    );
  return null;
}

function ArchiveCampaignsDialog({ s }: S) {
  const { archive, selection } = s;
  return (
    <Dialog
      open={s.archiving}
      onClose={() => {
        s.setArchiving(false);
        archive.reset();
      }}
      title={`Archive ${plural(selection.size, "campaign")}?`}
      footer={
        <>
          <Button variant="secondary" onClick={() => s.setArchiving(false)}>
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
  );
}
