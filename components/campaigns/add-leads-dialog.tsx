"use client";

import { describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Pager } from "@/components/ui/pager";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { ADD_RESULTS, plural } from "./labels";
import type { AddLeadResultKind } from "./types";
import { type AddLeadsState, type Outcome, useAddLeads } from "./use-add-leads";

const PAGE_SIZES = [25, 50, 100, 200];

/**
 * Pick leads of the workspace (search + checkboxes; the picks survive paging and new searches), add
 * them, and read what happened to each: assigned a mailbox, added without one, or not added.
 */
export function AddLeadsDialog({ campaignId, onClose }: { campaignId: string; onClose: () => void }) {
  const s = useAddLeads(campaignId);
  const { picked, add, leads, rows, paging, setPaging } = s;

  if (add.data) return <AddLeadsResultDialog outcome={add.data} onClose={onClose} />;

  return (
    <Dialog
      open
      wide
      onClose={onClose}
      title="Add leads to the campaign"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button disabled={picked.size === 0 || add.isPending} onClick={() => add.mutate()}>
            {add.isPending ? "Adding…" : `Add ${plural(picked.size, "lead")}`}
          </Button>
        </>
      }
    >
      <div className="space-y-3">
        <Input
          type="search"
          aria-label="Search leads to add"
          placeholder="Search email, name or company…"
          value={s.search}
          onChange={(e) => s.setSearch(e.target.value)}
        />
        {leads.error && <Alert tone="error">Could not load leads: {describeError(leads.error)}</Alert>}
        {add.error && <Alert tone="error">Could not add the leads: {describeError(add.error)}</Alert>}
        <LeadPickTable s={s} />
        <Pager
          page={paging.page}
          limit={paging.limit}
          total={leads.data?.total ?? 0}
          shown={rows.length}
          sizes={PAGE_SIZES}
          onPage={(page) => setPaging((p) => ({ ...p, page }))}
          onLimit={(limit) => setPaging({ page: 1, limit })}
        />
        <p className="text-sm text-gray-700" data-testid="picked-count">
          {plural(picked.size, "lead")} picked{picked.size > 0 && picked.size <= 5 ? `: ${[...picked.values()].join(", ")}` : ""}
        </p>
      </div>
    </Dialog>
  );
}

/** The page of workspace leads with a checkbox each, and one in the header for the whole page. */
function LeadPickTable({ s }: { s: AddLeadsState }) {
  const { leads, rows, picked } = s;
  return (
    <Table aria-label="Workspace leads" aria-busy={leads.isFetching}>
      <THead>
        <tr>
          <Th className="w-8">
            <input type="checkbox" aria-label="Pick all on this page" checked={s.allPicked} onChange={s.togglePage} />
          </Th>
          <Th>Email</Th>
          <Th>Name</Th>
          <Th>Company</Th>
        </tr>
      </THead>
      <TBody>
        {rows.map((l) => (
          <Tr key={l.id}>
            <Td>
              <input type="checkbox" aria-label={`Pick ${l.email}`} checked={picked.has(l.id)} onChange={() => s.toggle(l.id, l.email)} />
            </Td>
            <Td>{l.email}</Td>
            <Td>{[l.firstName, l.lastName].filter(Boolean).join(" ")}</Td>
            <Td className="text-gray-600">{l.companyName ?? ""}</Td>
          </Tr>
        ))}
        {leads.data && rows.length === 0 && (
          <tr>
            <td colSpan={4} className="px-3 py-8 text-center text-sm text-gray-600">
              {s.q ? "No leads match." : "The workspace has no leads yet: import them on the Leads page."}
            </td>
          </tr>
        )}
      </TBody>
    </Table>
  );
}

const ORDER: AddLeadResultKind[] = ["assigned", "no_eligible_mailbox", "seg_blocked", "suppressed", "error"];

function AddLeadsResultDialog({ outcome, onClose }: { outcome: Outcome; onClose: () => void }) {
  const counts = new Map<string, number>();
  for (const r of outcome.results) counts.set(r.result, (counts.get(r.result) ?? 0) + 1);
  const notAssigned = outcome.results.filter((r) => r.result !== "assigned");
  return (
    <Dialog open wide onClose={onClose} title="Leads added" footer={<Button onClick={onClose}>Done</Button>}>
      <div className="space-y-3 text-sm text-gray-700">
        <p>{plural(outcome.added, "lead")} newly added to the campaign.</p>
        <dl className="grid grid-cols-5 gap-2">
          {ORDER.map((k) => (
            <div key={k} className="rounded-md border border-gray-200 px-3 py-2" data-testid={`add-${k}`} title={ADD_RESULTS[k].about}>
              <dt className="text-xs text-gray-500">{ADD_RESULTS[k].label}</dt>
              <dd className="text-lg font-semibold text-gray-900">{counts.get(k) ?? 0}</dd>
            </div>
          ))}
        </dl>
        {notAssigned.length > 0 && (
          <ul className="max-h-60 space-y-1 overflow-y-auto" aria-label="Leads without a mailbox">
            {notAssigned.map((r) => {
              const kind = ADD_RESULTS[r.result as AddLeadResultKind];
              return (
                <li key={r.leadId}>
                  <span className="font-medium">{r.email ?? r.leadId}</span>: {kind?.label ?? r.result} — {r.error ?? kind?.about}
                </li>
              );
            })}
          </ul>
        )}
        {(counts.get("no_eligible_mailbox") ?? 0) + (counts.get("seg_blocked") ?? 0) > 0 && (
          <p className="text-xs text-gray-600">
            Leads added without a mailbox get one from Reassign once the pool has a mailbox that can send.
          </p>
        )}
      </div>
    </Dialog>
  );
}
