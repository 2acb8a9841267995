"use client";

import { CONFIRMABLE_BLOCKERS, fixLinkOf, splitFix } from "./launch-rules";
import { describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { type LaunchState, useLaunch } from "./launch-state";
import type { Campaign, LaunchEntry } from "./types";

/** One entry: its code and problem, then its fix and a link to the page where it is fixed (launch-rules.ts). */
function EntryItem({ entry, campaignId }: { entry: LaunchEntry; campaignId: string }) {
  const { problem, fix } = splitFix(entry.message);
  const link = fixLinkOf(entry, campaignId);
  return (
    <li data-code={entry.code} data-step-id={entry.stepId} className="space-y-0.5">
      <p>
        <span className="font-mono text-xs">{entry.code}</span> — {problem}
      </p>
      {(fix || link) && (
        <p className="text-xs" data-testid="launch-fix">
          {fix && <span className="font-medium">Fix: {fix} </span>}
          {link && (
            // A full navigation: the campaign page reads its tab from the address only when it loads.
            <a href={link.href} className="font-medium text-indigo-700 underline hover:text-indigo-900">
              {link.label}
            </a>
          )}
        </p>
      )}
    </li>
  );
}

function Entries({
  title,
  entries,
  tone,
  campaignId,
}: {
  title: string;
  entries: LaunchEntry[];
  tone: "red" | "amber";
  campaignId: string;
}) {
  if (entries.length === 0) return null;
  const box = tone === "red" ? "border-red-200 bg-red-50 text-red-800" : "border-yellow-200 bg-yellow-50 text-yellow-900";
  return (
    <section aria-label={title} className={`rounded-md border px-3 py-2 text-sm ${box}`}>
      <h3 className="font-semibold">{title}</h3>
      <ul className="mt-1 space-y-2">
        {entries.map((e) => (
          <EntryItem key={`${e.code}:${e.message}`} entry={e} campaignId={campaignId} />
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

/** Cancel, and Launch, or "Launch anyway" once the server asked for a confirmation. */
function LaunchFooter({ state, onClose }: { state: LaunchState; onClose: () => void }) {
  const { launch, check, blocked, needsConfirm } = state;
  return (
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
  );
}

/** The launch check's outcome: what is still checking or failed, the blockers and warnings, and when sending starts. */
function LaunchReportBody({ state, campaign }: { state: LaunchState; campaign: Campaign }) {
  const { check, launch, confirmReport, report, blocked, needsConfirm } = state;
  return (
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
          <Entries title="Blockers" entries={report.blockers} tone="red" campaignId={campaign.id} />
          <Entries title="Warnings" entries={report.warnings} tone="amber" campaignId={campaign.id} />
        </>
      )}
      <p className="text-xs text-gray-500">
        Sending starts within the send window and days{campaign.startAt ? `, from ${new Date(campaign.startAt).toLocaleString()}` : ""}.
      </p>
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
  const state = useLaunch(campaign, onLaunched);
  return (
    <Dialog open onClose={onClose} title={`Launch ${campaign.name}`} footer={<LaunchFooter state={state} onClose={onClose} />}>
      <LaunchReportBody state={state} campaign={campaign} />
    </Dialog>
  );
}
