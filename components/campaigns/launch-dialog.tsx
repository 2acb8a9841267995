"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { ApiError, describeError, data, client } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { useCampaignChanged, useLaunchCheck } from "./queries";
import type { Campaign, LaunchEntry, LaunchReport } from "./types";

/** The report a 409 LAUNCH_NEEDS_CONFIRMATION carries next to `error` and `code` (spec 3.1). */
function reportOf(e: unknown): LaunchReport | undefined {
  if (!(e instanceof ApiError) || e.code !== "LAUNCH_NEEDS_CONFIRMATION") return undefined;
  const b = e.body as Partial<LaunchReport>;
  return Array.isArray(b.blockers) && Array.isArray(b.warnings)
    ? { ready: !!b.ready, blockers: b.blockers, warnings: b.warnings }
    : undefined;
}

function Entries({ title, entries, tone }: { title: string; entries: LaunchEntry[]; tone: "red" | "amber" }) {
  if (entries.length === 0) return null;
  const box = tone === "red" ? "border-red-200 bg-red-50 text-red-800" : "border-yellow-200 bg-yellow-50 text-yellow-900";
  return (
    <section aria-label={title} className={`rounded-md border px-3 py-2 text-sm ${box}`}>
      <h3 className="font-semibold">{title}</h3>
      <ul className="mt-1 space-y-1">
        {entries.map((e) => (
          <li key={e.code} data-code={e.code}>
            <span className="font-mono text-xs">{e.code}</span> — {e.message}
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * Launch = PATCH status ACTIVE. The dialog shows the launch check first; the server decides whether
 * the launch needs confirmation (blockers or warming mailboxes → 409 with the report), and only then
 * does "Launch anyway" repeat the call with confirm: true.
 */
export function LaunchDialog({
  campaign,
  onClose,
  onLaunched,
}: {
  campaign: Campaign;
  onClose: () => void;
  onLaunched: (c: Campaign) => void;
}) {
  const changed = useCampaignChanged(campaign.id);
  const check = useLaunchCheck(campaign.id, true);
  const [confirmReport, setConfirmReport] = useState<LaunchReport>();
  const launch = useMutation({
    mutationFn: (confirm: boolean) =>
      data(
        client.PATCH("/campaigns/{id}/status", {
          params: { path: { id: campaign.id } },
          body: { status: "ACTIVE", ...(confirm ? { confirm } : {}) },
        }),
      ),
    onSuccess: (c) => {
      changed(c);
      onLaunched(c);
    },
    onError: (e) => setConfirmReport(reportOf(e)),
  });
  // After a 409 the server's own report is the one that counts: it was made at the moment of the launch.
  const report = confirmReport ?? check.data;
  const needsConfirm = !!confirmReport;

  return (
    <Dialog
      open
      onClose={onClose}
      title={`Launch ${campaign.name}`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          {needsConfirm ? (
            <Button variant="danger" disabled={launch.isPending} onClick={() => launch.mutate(true)}>
              {launch.isPending ? "Launching…" : "Launch anyway"}
            </Button>
          ) : (
            <Button disabled={launch.isPending || check.isPending} onClick={() => launch.mutate(false)}>
              {launch.isPending ? "Launching…" : "Launch"}
            </Button>
          )}
        </>
      }
    >
      <div className="space-y-3 text-sm text-gray-700" data-testid="launch-report">
        {check.isPending && <p className="text-gray-500">Checking the campaign…</p>}
        {check.error && <Alert tone="error">Could not run the launch check: {describeError(check.error)}</Alert>}
        {needsConfirm && launch.error && <Alert tone="error">{launch.error.message}</Alert>}
        {!needsConfirm && launch.error && <Alert tone="error">Could not launch: {describeError(launch.error)}</Alert>}
        {report && (
          <>
            {report.blockers.length === 0 && report.warnings.length === 0 && <Alert tone="success">Ready to launch: nothing to fix.</Alert>}
            {report.blockers.length === 0 && report.warnings.length > 0 && <p>Ready to launch; check the warnings first.</p>}
            <Entries title="Blockers" entries={report.blockers} tone="red" />
            <Entries title="Warnings" entries={report.warnings} tone="amber" />
          </>
        )}
        <p className="text-xs text-gray-500">
          Sending starts within the send window and days{campaign.startAt ? `, from ${new Date(campaign.startAt).toLocaleString()}` : ""}.
        </p>
      </div>
    </Dialog>
  );
}
