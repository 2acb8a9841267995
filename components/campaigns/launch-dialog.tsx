"use client";

import { useMutation } from "@tanstack/react-query";
import { CONFIRMABLE_BLOCKERS, hardBlockers } from "./launch-rules";
import { useState } from "react";
import { ApiError, describeError, data, client } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { useCampaignChanged, useLaunchCheck } from "./queries";
import type { Campaign, LaunchEntry, LaunchReport } from "./types";

/** The report a 409 LAUNCH_NEEDS_CONFIRMATION carries next to `error` and `code`. */
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
 * The launch check's blockers, beside the button. Those under which nothing could be sent keep Launch
 * disabled; raw template tokens may be launched past after a confirmation (launch-rules.ts).
 */
export function LaunchBlockers({ id, blockers }: { id?: string; blockers: LaunchEntry[] }) {
  if (blockers.length === 0) return null;
  return (
    <div id={id} data-testid="launch-blockers" className="max-w-md text-xs text-red-700 sm:text-right">
      <p className="font-medium">Cannot launch yet:</p>
      <ul>
        {blockers.map((b) => (
          <li key={b.code} data-code={b.code}>
            {b.message}
            {CONFIRMABLE_BLOCKERS.has(b.code) && " Launching asks you to confirm this."}
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * Launch = PATCH status ACTIVE. The dialog shows the launch check first, and Launch stays disabled
 * while it lists a blocker. Warnings that need a confirmation (warming mailboxes) are the server's
 * call: it answers 409 with the report, and only then does "Launch anyway" repeat the call with
 * confirm: true.
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
  const blocked = hardBlockers(report?.blockers ?? []).length > 0;
  const needsConfirm = !!confirmReport && !blocked;

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
            <Button
              disabled={launch.isPending || check.isPending || blocked}
              aria-describedby={blocked ? "launch-dialog-blocked" : undefined}
              onClick={() => launch.mutate(false)}
            >
              {launch.isPending ? "Launching…" : "Launch"}
            </Button>
          )}
        </>
      }
    >
      <div className="space-y-3 text-sm text-gray-700" data-testid="launch-report">
        {check.isPending && <p className="text-gray-500">Checking the campaign…</p>}
        {check.error && <Alert tone="error">Could not run the launch check: {describeError(check.error)}</Alert>}
        {needsConfirm && launch.error && <Alert tone="warning">{launch.error.message}</Alert>}
        {!confirmReport && launch.error && <Alert tone="error">Could not launch: {describeError(launch.error)}</Alert>}
        {blocked && (
          <p id="launch-dialog-blocked" className="font-medium text-red-700">
            Fix the blockers below to launch.
          </p>
        )}
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
