"use client";

import { describeError } from "@/components/api-client";
import { Select } from "@/components/ui/input";
import { useCampaignLeads, usePool } from "../queries";

/** Leads offered by the pickers: the campaign's first page (the preview and test send take any of them). */
const LEADS_SHOWN = 200;

/** A select of the campaign's leads; "" = the API's default (the campaign's first lead). */
export function LeadPicker({
  campaignId,
  value,
  onChange,
  label,
}: {
  campaignId: string;
  value: string;
  onChange: (id: string) => void;
  label: string;
}) {
  const leads = useCampaignLeads(campaignId, 1, LEADS_SHOWN);
  const rows = leads.data?.leads ?? [];
  return (
    <div className="space-y-1">
      <Select aria-label={label} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{rows.length ? "The campaign's first lead" : "No leads yet: a sample lead"}</option>
        {rows.map((l) => (
          <option key={l.leadId} value={l.leadId}>
            {[l.firstName, l.lastName].filter(Boolean).join(" ") || "(no name)"} — {l.email}
          </option>
        ))}
      </Select>
      {leads.error && <p className="text-xs text-red-600">Could not load the leads: {describeError(leads.error)}</p>}
    </div>
  );
}

/** A select of the pool's mailboxes; "" = the lead's assigned mailbox (else the pool's first). */
export function MailboxPicker({
  campaignId,
  value,
  onChange,
  label,
}: {
  campaignId: string;
  value: string;
  onChange: (id: string) => void;
  label: string;
}) {
  const pool = usePool(campaignId);
  const rows = pool.data?.mailboxes ?? [];
  return (
    <div className="space-y-1">
      <Select aria-label={label} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{rows.length ? "The lead's assigned mailbox" : "No pool mailbox yet"}</option>
        {rows.map((m) => (
          <option key={m.id} value={m.id}>
            {m.senderName ? `${m.senderName} <${m.email}>` : m.email}
          </option>
        ))}
      </Select>
      {pool.error && <p className="text-xs text-red-600">Could not load the pool: {describeError(pool.error)}</p>}
    </div>
  );
}
