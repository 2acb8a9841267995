"use client";

import { useState } from "react";
import { describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Field, Select } from "@/components/ui/input";
import { Progress } from "@/components/ui/progress";
import { useAddToLeads, useCampaigns, useCancelEnrich, useEnrichJob } from "./queries";

const TONE = { VALID: "green", CATCH_ALL: "yellow", INVALID: "red", UNKNOWN: "gray", UNVERIFIED: "gray", RISKY: "yellow" } as const;

/** An enrichment job: its progress bar, each person's address and verdict, and "add to a campaign". */
export function EnrichPanel({ jobId, names }: { jobId: string; names: Map<string, string> }) {
  const job = useEnrichJob(jobId);
  const cancel = useCancelEnrich();
  const campaigns = useCampaigns();
  const add = useAddToLeads();
  const [campaignId, setCampaignId] = useState("");
  const j = job.data;
  if (job.error) return <Alert tone="error">Could not load the enrichment: {describeError(job.error)}</Alert>;
  if (!j) return <p className="text-sm text-gray-600">Starting…</p>;
  const running = j.status === "QUEUED" || j.status === "RUNNING";
  return (
    <section className="space-y-3 rounded-lg border border-gray-200 bg-white p-4" data-testid="enrich-job" aria-label="Enrichment">
      <div className="flex items-center gap-2 text-sm">
        <Badge tone={running ? "blue" : j.status === "COMPLETED" ? "green" : "gray"}>{j.status}</Badge>
        <span data-testid="enrich-summary">
          {j.found} found · {j.verified} verified of {j.total}
        </span>
        {running && (
          <Button variant="secondary" onClick={() => cancel.mutate(j.id, { onSuccess: () => job.refetch() })}>
            Cancel
          </Button>
        )}
      </div>
      <Progress value={j.done} max={j.total} label="people" />
      {/* Why nothing could be verified (the SMTP port unreachable from this server) and what to do about it. */}
      {j.error && (
        <Alert tone="warning" className="text-sm">
          <span data-testid="enrich-error">{j.error}</span>
        </Alert>
      )}
      <ul className="space-y-1 text-sm">
        {j.results.map((r) => (
          <li key={r.personId ?? r.leadId} className="flex items-center gap-2" title={r.detail ?? undefined}>
            <span className="w-40 truncate">{names.get(r.personId ?? "") ?? r.personId}</span>
            <span className="font-mono">{r.email ?? "—"}</span>
            <Badge tone={TONE[r.verificationStatus]}>{r.pending ? "PENDING" : r.verificationStatus}</Badge>
          </li>
        ))}
      </ul>
      {!running && (
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            add.mutate({ jobId: j.id, campaignId: campaignId || undefined });
          }}
        >
          <Field label="Campaign">
            <Select value={campaignId} onChange={(e) => setCampaignId(e.target.value)}>
              <option value="">Leads only (no campaign)</option>
              {(campaigns.data ?? []).map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </Select>
          </Field>
          <Button type="submit" disabled={add.isPending}>
            {campaignId ? "Add to campaign" : "Add to leads"}
          </Button>
        </form>
      )}
      {add.error && <Alert tone="error">{describeError(add.error)}</Alert>}
      {add.data && (
        <Alert tone="success">
          {add.data.created} lead{add.data.created === 1 ? "" : "s"} created, {add.data.updated} updated
          {add.data.suppressedEmails.length > 0 && `, ${add.data.suppressedEmails.length} suppressed`}
          {add.data.campaign && `; ${add.data.campaign.added} added to the campaign`}.
        </Alert>
      )}
    </section>
  );
}
