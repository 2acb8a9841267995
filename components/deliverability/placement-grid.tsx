"use client";

import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { dateTime } from "@/components/ui/time";
import type { PlacementDetailView, PlacementTestView } from "./placement-queries";

type Placement = PlacementDetailView["results"][number]["placement"];

const PLACEMENT: Record<Placement, { label: string; tone: BadgeTone }> = {
  INBOX: { label: "Inbox", tone: "green" },
  SPAM: { label: "Spam", tone: "red" },
  MISSING: { label: "Missing", tone: "gray" },
  PENDING: { label: "Waiting…", tone: "yellow" },
};

const STATUS: Record<PlacementTestView["status"], { label: string; tone: BadgeTone }> = {
  RUNNING: { label: "Running", tone: "blue" },
  COMPLETED: { label: "Completed", tone: "green" },
  FAILED: { label: "Failed", tone: "red" },
  NO_SEED_POOL: { label: "No seeds", tone: "yellow" },
};

export function PlacementStatus({ status }: { status: PlacementTestView["status"] }) {
  return <Badge tone={STATUS[status].tone}>{STATUS[status].label}</Badge>;
}

/** "3 of 5 in the inbox (60 %)" — the number a person reads first. */
export function inboxShare(t: Pick<PlacementTestView, "inboxCount" | "seedCount">): string {
  if (!t.seedCount) return "—";
  return `${t.inboxCount} of ${t.seedCount} in the inbox (${Math.round((t.inboxCount * 100) / t.seedCount)} %)`;
}

function Tabs({ tabs }: { tabs: Record<string, number> }) {
  const entries = Object.entries(tabs);
  if (!entries.length) return null;
  return (
    <p className="text-sm text-gray-600">
      Gmail tabs:{" "}
      {entries.map(([tab, n], i) => (
        <span key={tab}>
          {i > 0 && ", "}
          {tab.charAt(0) + tab.slice(1).toLowerCase()} {n}
        </span>
      ))}
    </p>
  );
}

/** One test: its summary and a row per seed (inbox / spam / missing, folder, tab), filling in while it runs. */
export function PlacementGrid({ test }: { test: PlacementDetailView }) {
  return (
    <section className="space-y-2" aria-label="Placement test result" data-testid="placement-result" data-status={test.status}>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
        <PlacementStatus status={test.status} />
        <span className="text-sm font-medium text-gray-900">{test.mailboxEmail}</span>
        <span className="text-sm text-gray-700" data-testid="placement-share">
          {inboxShare(test)}
        </span>
        <span className="text-sm text-gray-600">
          Spam {test.spamCount} · Missing {test.missingCount}
        </span>
        {test.status === "RUNNING" && <span className="text-xs text-gray-500">Seeds are read until {dateTime(test.deadlineAt)}</span>}
      </div>
      {test.error && <p className="text-sm text-red-700">{test.error}</p>}
      <Tabs tabs={test.gmailTabs} />
      {test.results.length > 0 && (
        <Table aria-label="Placement per seed">
          <THead>
            <tr>
              <Th>Seed</Th>
              <Th>Provider</Th>
              <Th>Placement</Th>
              <Th>Folder</Th>
              <Th>Tab</Th>
              <Th>Received</Th>
            </tr>
          </THead>
          <TBody>
            {test.results.map((r) => (
              <Tr key={r.seedEmail}>
                <Td>{r.seedEmail}</Td>
                <Td>{r.provider}</Td>
                <Td>
                  <Badge tone={PLACEMENT[r.placement].tone}>{PLACEMENT[r.placement].label}</Badge>
                  {r.sendError && <span className="ml-2 text-xs text-red-700">{r.sendError}</span>}
                </Td>
                <Td>{r.folder ?? "—"}</Td>
                <Td>{r.tab ? r.tab.charAt(0) + r.tab.slice(1).toLowerCase() : "—"}</Td>
                <Td>{dateTime(r.receivedAt)}</Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      )}
    </section>
  );
}
