"use client";

import Link from "next/link";
import { type ReactNode, useState } from "react";
import { ApiError, describeError } from "@/components/api-client";
import { useCan } from "@/components/shell/member-context";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { RelativeTime } from "@/components/ui/relative-time";
import { dateTime } from "@/components/ui/time";
import { LEAD_FIELDS } from "./csv-mapping";
import { LeadEditDialog } from "./lead-edit-dialog";
import { LeadTags } from "./lead-tags";
import { LeadTimeline } from "./lead-timeline";
import { type LeadCampaign, type LeadView, useLeadById, useLeadCampaigns } from "./queries";

const LEAD_STATUS: Record<LeadCampaign["leadStatus"], string> = {
  ACTIVE: "In sequence",
  COMPLETED: "Sequence done",
  REPLIED: "Replied",
  BOUNCED: "Bounced",
  UNSUBSCRIBED: "Unsubscribed",
  STOPPED: "Stopped",
};

function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="space-y-2 rounded-lg border border-gray-200 bg-white px-4 py-3">
      <h2 className="text-sm font-semibold text-gray-900">{title}</h2>
      {children}
    </section>
  );
}

function Details({ lead }: { lead: LeadView }) {
  const rows: [string, string][] = [
    ...LEAD_FIELDS.filter((f) => f.key !== "email").map(({ key, label }): [string, string] => [label, lead[key] ?? ""]),
    ["Verification", lead.verificationStatus],
    ["Email provider", lead.espClass],
    ["Added", dateTime(lead.createdAt)],
    ["Updated", dateTime(lead.updatedAt)],
  ];
  const custom = Object.entries(lead.customFields);
  return (
    <Card title="Details">
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        {rows.map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="text-gray-500">{k}</dt>
            <dd className="min-w-0 break-words text-gray-900">{v || <span className="text-gray-400">—</span>}</dd>
          </div>
        ))}
      </dl>
      {custom.length > 0 && (
        <>
          <h3 className="pt-1 text-xs font-semibold tracking-wide text-gray-600 uppercase">Custom fields</h3>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm" aria-label="Custom fields">
            {custom.map(([k, v]) => (
              <div key={k} className="contents">
                <dt className="break-all text-gray-500">{k}</dt>
                <dd className="min-w-0 break-words text-gray-900">{v}</dd>
              </div>
            ))}
          </dl>
        </>
      )}
    </Card>
  );
}

function Campaigns({ leadId }: { leadId: string }) {
  const campaigns = useLeadCampaigns(leadId);
  return (
    <Card title="Campaigns">
      {campaigns.error && <Alert tone="error">{describeError(campaigns.error)}</Alert>}
      {campaigns.data?.length === 0 && <p className="text-sm text-gray-600">Not in any campaign.</p>}
      <ul className="divide-y divide-gray-100">
        {campaigns.data?.map((c) => (
          <li key={c.id} className="space-y-0.5 py-2 text-sm">
            <div className="flex flex-wrap items-center gap-2">
              <Link href={`/campaigns/${c.id}`} className="font-medium text-indigo-700 hover:underline">
                {c.name}
              </Link>
              <Badge tone={c.leadStatus === "ACTIVE" ? "green" : c.leadStatus === "REPLIED" ? "blue" : "gray"}>
                {LEAD_STATUS[c.leadStatus]}
              </Badge>
              {c.status !== "ACTIVE" && <Badge>{c.status}</Badge>}
            </div>
            <p className="text-xs break-words text-gray-600">
              {c.mailbox ? `From ${c.mailbox.email}` : "No sending mailbox yet"}
              {c.leadStatus === "ACTIVE" ? ` · next step ${c.nextStepOrder + 1}` : ""} · added <RelativeTime iso={c.addedAt} />
            </p>
            <WhereAndWhy c={c} />
          </li>
        ))}
      </ul>
    </Card>
  );
}

const ACTION_WORDS: Record<string, string> = {
  continue: "continued",
  stop: "stopped",
  subsequence: "moved to a subsequence",
  wait: "waited",
  waitUntilReturn: "waited until back",
  tag: "tagged",
  assign: "assigned",
};

/** Where the lead is in the campaign (a subsequence, a pause, a branch waiting) and the latest branch that put it there. */
function WhereAndWhy({ c }: { c: NonNullable<ReturnType<typeof useLeadCampaigns>["data"]>[number] }) {
  const parts = [
    c.subsequence && `In subsequence ${c.subsequence.name}`,
    c.pausedUntil &&
      `Paused until ${new Date(c.pausedUntil).toLocaleString()}${c.pauseReason === "out_of_office" ? " (out of office)" : ""}`,
    c.waitingOnBranch && "Waiting for its branch rules (a reply or the step's delay decides)",
    c.lastBranch && `Last branch: ${c.lastBranch.rule} → ${ACTION_WORDS[c.lastBranch.action.type] ?? c.lastBranch.action.type}`,
  ].filter(Boolean);
  if (parts.length === 0) return null;
  return (
    <p className="text-xs text-indigo-800" data-testid="lead-where">
      {parts.join(" · ")}
    </p>
  );
}

/** A lead's page: who they are, their tags and campaigns, and everything that happened to them. */
export function LeadPage({ id }: { id: string }) {
  const lead = useLeadById(id);
  const canWrite = useCan("member");
  const [editing, setEditing] = useState(false);

  if (lead.error) {
    const missing = lead.error instanceof ApiError && lead.error.status === 404;
    return (
      <div className="space-y-3">
        <Link href="/leads" className="text-sm text-indigo-700 hover:underline">
          ← Leads
        </Link>
        <Alert tone="error">
          {missing ? "There is no such lead in this workspace (it may have been deleted)." : describeError(lead.error)}
        </Alert>
      </div>
    );
  }
  if (!lead.data) return <p className="text-sm text-gray-500">Loading…</p>;
  const l = lead.data;
  const name = [l.firstName, l.lastName].filter(Boolean).join(" ");
  const about = [l.jobTitle, l.companyName ?? l.companyDomain].filter(Boolean).join(" at ");
  return (
    <div className="space-y-4">
      <Link href="/leads" className="text-sm text-indigo-700 hover:underline">
        ← Leads
      </Link>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h1 className="text-xl font-semibold break-all text-gray-900">{l.email}</h1>
          {(name || about) && <p className="text-sm text-gray-600">{[name, about].filter(Boolean).join(" · ")}</p>}
        </div>
        {canWrite && (
          <Button variant="secondary" onClick={() => setEditing(true)}>
            Edit lead
          </Button>
        )}
      </div>
      <div className="grid gap-4 lg:grid-cols-3">
        <div className="min-w-0 space-y-4">
          <Details lead={l} />
          <section aria-label="Tags" className="rounded-lg border border-gray-200 bg-white px-4 py-3">
            <LeadTags lead={l} />
          </section>
          <Campaigns leadId={l.id} />
        </div>
        <div className="min-w-0 lg:col-span-2">
          <LeadTimeline leadId={l.id} />
        </div>
      </div>
      {editing && <LeadEditDialog key={l.id} lead={l} onClose={() => setEditing(false)} />}
    </div>
  );
}
