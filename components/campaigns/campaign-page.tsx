"use client";

import { useMutation } from "@tanstack/react-query";
import { hardBlockers } from "./launch-rules";
import Link from "next/link";
import { type ReactNode, useState } from "react";
import { describeError, data, client } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Tabs } from "@/components/ui/tabs";
import { useCan } from "@/components/shell/member-context";
import { STATUS } from "./labels";
import { LaunchBlockers, LaunchDialog } from "./launch-dialog";
import { LeadsTab } from "./leads-tab";
import { PoolTab } from "./pool-tab";
import { useCampaign, useCampaignChanged, useLaunchCheck, useSteps } from "./queries";
import { SequenceTab } from "./sequence/sequence-tab";
import { SettingsTab } from "./settings-tab";
import { ActivityTab } from "./stats/activity-tab";
import { OverviewTab } from "./stats/overview-tab";
import { ScheduleTab } from "./stats/schedule-tab";
import type { Campaign } from "./types";

/** The tabs a read-only client seat sees: the numbers, the schedule and the activity, nothing it could edit. */
const CLIENT_TABS: ReadonlySet<CampaignTab> = new Set(["overview", "schedule", "activity"]);

export type CampaignTab = "overview" | "sequence" | "leads" | "mailboxes" | "schedule" | "activity" | "settings";

/**
 * The page's own state: the open tab (kept in ?tab= without a navigation), the open dialog and the notice.
 * Without `initialTab` the tab is decided once the steps are known.
 */
function useCampaignPage(id: string, initialTab: CampaignTab | undefined) {
  const campaign = useCampaign(id);
  const steps = useSteps(id);
  const canWrite = useCan("member");
  const [tab, setTab] = useState<CampaignTab | undefined>(initialTab && (canWrite || CLIENT_TABS.has(initialTab)) ? initialTab : undefined);
  // Decided once, when the steps are known: writing the first email must not switch the page to the Overview.
  if (tab === undefined && (steps.data || steps.error)) setTab(steps.data?.length === 0 && canWrite ? "sequence" : "overview");
  const [dialog, setDialog] = useState<"launch" | "archive">();
  const [notice, setNotice] = useState<string>();

  function changeTab(t: CampaignTab) {
    setTab(t);
    // Next keeps its router in step with the native history API; no navigation, no refetch.
    const url = new URL(window.location.href);
    url.searchParams.set("tab", t);
    window.history.replaceState(null, "", url);
  }

  return { campaign, canWrite, tab, changeTab, dialog, setDialog, notice, setNotice };
}

type PageState = ReturnType<typeof useCampaignPage>;

const BACK_LINK = (
  <Link href="/campaigns" className="text-sm text-indigo-700 hover:underline">
    ← Campaigns
  </Link>
);

/** `initialTab` comes from ?tab=; without it the page opens on the Overview, or on the Sequence while the campaign has no step. */
export function CampaignPage({ id, initialTab }: { id: string; initialTab?: CampaignTab }) {
  const s = useCampaignPage(id, initialTab);
  const { campaign, tab, notice } = s;

  if (campaign.error) {
    return (
      <div className="space-y-4">
        {BACK_LINK}
        <Alert tone="error">Could not load the campaign: {describeError(campaign.error)}</Alert>
      </div>
    );
  }
  const c = campaign.data;
  if (!c || !tab) return <p className="text-sm text-gray-500">Loading…</p>;

  return (
    <div className="space-y-5">
      <CampaignHeader c={c} s={s} />

      {notice && (
        <Alert tone="success" className="flex justify-between">
          <span data-testid="campaign-notice">{notice}</span>
          <button type="button" onClick={() => s.setNotice(undefined)} aria-label="Dismiss">
            ✕
          </button>
        </Alert>
      )}

      <CampaignTabs c={c} tab={tab} s={s} />
      <CampaignDialogs c={c} s={s} />
    </div>
  );
}

function CampaignHeader({ c, s }: { c: Campaign; s: PageState }) {
  return (
    <div className="space-y-3">
      {BACK_LINK}
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <div className="flex items-center gap-2">
            <h1 className="text-xl font-semibold text-gray-900">{c.name}</h1>
            <span data-testid="campaign-status">
              <Badge tone={STATUS[c.status].tone}>{STATUS[c.status].label}</Badge>
            </span>
          </div>
          {c.folder && <p className="text-sm text-gray-600">Folder: {c.folder}</p>}
        </div>
        {s.canWrite && (
          <StatusActions
            campaign={c}
            onLaunch={() => s.setDialog("launch")}
            onArchive={() => s.setDialog("archive")}
            onNotice={s.setNotice}
          />
        )}
      </div>
    </div>
  );
}

/** Every tab for a member; only the read-only ones for a client seat. */
function CampaignTabs({ c, tab, s }: { c: Campaign; tab: CampaignTab; s: PageState }) {
  return (
    <Tabs
      label="Campaign"
      value={tab}
      onChange={s.changeTab}
      tabs={(
        [
          { id: "overview", label: "Overview", content: <OverviewTab campaign={c} /> },
          { id: "sequence", label: "Sequence", content: <SequenceTab campaign={c} /> },
          { id: "leads", label: "Leads", content: <LeadsTab campaignId={c.id} /> },
          { id: "mailboxes", label: "Mailboxes", content: <PoolTab campaignId={c.id} onShowLeads={() => s.changeTab("leads")} /> },
          { id: "schedule", label: "Schedule", content: <ScheduleTab campaign={c} /> },
          { id: "activity", label: "Activity", content: <ActivityTab campaign={c} /> },
          { id: "settings", label: "Settings", content: <SettingsTab campaignId={c.id} /> },
        ] satisfies { id: CampaignTab; label: string; content: ReactNode }[]
      ).filter((t) => s.canWrite || CLIENT_TABS.has(t.id))}
    />
  );
}

function CampaignDialogs({ c, s }: { c: Campaign; s: PageState }) {
  const close = () => s.setDialog(undefined);
  return (
    <>
      {s.dialog === "launch" && (
        <LaunchDialog
          campaign={c}
          onClose={close}
          onLaunched={(launched) => {
            close();
            s.setNotice(`${launched.name} is active: it sends within its window and days.`);
          }}
        />
      )}
      {s.dialog === "archive" && (
        <ArchiveDialog
          campaign={c}
          onClose={close}
          onDone={() => {
            close();
            s.setNotice(`${c.name} is archived.`);
          }}
        />
      )}
    </>
  );
}

function useSetStatus(c: Campaign) {
  const changed = useCampaignChanged(c.id);
  return useMutation({
    mutationFn: (status: "PAUSED" | "ARCHIVED") =>
      data(client.PATCH("/campaigns/{id}/status", { params: { path: { id: c.id } }, body: { status } })),
    onSuccess: changed,
  });
}

/** Launch from any state but ACTIVE (a paused or archived campaign resumes the same way); pause an active one. */
function StatusActions({
  campaign: c,
  onLaunch,
  onArchive,
  onNotice,
}: {
  campaign: Campaign;
  onLaunch: () => void;
  onArchive: () => void;
  onNotice: (m: string) => void;
}) {
  const pause = useSetStatus(c);
  // Asked afresh whenever the campaign changes (a step saved, leads added, the pool changed): the
  // Launch button is only offered while nothing blocks it.
  const check = useLaunchCheck(c.id, c.status !== "ACTIVE");
  const blockers = check.data?.blockers ?? [];
  const blocking = hardBlockers(blockers).length > 0;
  return (
    <div className="flex flex-col gap-2 sm:items-end">
      <div className="flex flex-wrap gap-2">
        {c.status === "ACTIVE" ? (
          <Button
            variant="secondary"
            disabled={pause.isPending}
            onClick={() =>
              pause.mutate("PAUSED", { onSuccess: () => onNotice(`${c.name} is paused: nothing more is sent until you launch it again.`) })
            }
          >
            {pause.isPending ? "Pausing…" : "Pause"}
          </Button>
        ) : (
          <Button onClick={onLaunch} disabled={blocking} aria-describedby={blockers.length ? "launch-blockers" : undefined}>
            {c.status === "DRAFT" ? "Launch" : "Launch again"}
          </Button>
        )}
        {c.status !== "ARCHIVED" && (
          <Button variant="secondary" onClick={onArchive}>
            Archive
          </Button>
        )}
      </div>
      {c.status !== "ACTIVE" && <LaunchBlockers id="launch-blockers" blockers={blockers} />}
      {pause.error && <Alert tone="error">Could not pause: {describeError(pause.error)}</Alert>}
    </div>
  );
}

function ArchiveDialog({ campaign, onClose, onDone }: { campaign: Campaign; onClose: () => void; onDone: () => void }) {
  const archive = useSetStatus(campaign);
  return (
    <Dialog
      open
      onClose={onClose}
      title={`Archive ${campaign.name}?`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button disabled={archive.isPending} onClick={() => archive.mutate("ARCHIVED", { onSuccess: onDone })}>
            {archive.isPending ? "Archiving…" : "Archive"}
          </Button>
        </>
      }
    >
      <div className="space-y-3 text-sm text-gray-700">
        <p>An archived campaign sends nothing. Its leads, steps and stats stay, and it can be launched again.</p>
        {archive.error && <Alert tone="error">{describeError(archive.error)}</Alert>}
      </div>
    </Dialog>
  );
}
