"use client";

import { describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/input";
import { Pager } from "@/components/ui/pager";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { dateTime } from "@/components/ui/time";
import { stepLabel, variantLabel } from "../labels";
import type { Campaign } from "../types";
import { LIVE_MS } from "./queries";
import type { ActivityEmail, EmailStatus } from "./types";
import { type ActivityView, useActivityView } from "./use-activity-view";

const PAGE_SIZES = [25, 50, 100, 200]; // 200 is the API's largest page
const COLUMNS = 8;

export const EMAIL_STATUS: Record<EmailStatus, { label: string; tone: BadgeTone; about: string }> = {
  SENDING: { label: "Sending", tone: "blue", about: "handed to the mail server; the outcome is not recorded yet" },
  SENT: { label: "Sent", tone: "green", about: "accepted by the mail server" },
  BOUNCED: { label: "Bounced", tone: "red", about: "refused for good (hard) or for now (soft)" },
  FAILED: { label: "Failed", tone: "yellow", about: "not sent: refused without being a bounce; tried again later" },
};
const FILTERS: EmailStatus[] = ["SENDING", "SENT", "BOUNCED", "FAILED"];

function isStatus(s: string): s is EmailStatus {
  return s in EMAIL_STATUS;
}

/** What the log holds (and how often it updates), the status filter and Refresh. */
function ActivityToolbar({ view }: { view: ActivityView }) {
  const { live, f, setF, activity } = view;
  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      <p className="text-xs text-gray-500">
        Every email of the campaign, newest first.{live && ` Updated every ${LIVE_MS / 1000} s while the campaign is active.`}
      </p>
      <div className="flex items-center gap-2">
        <Select
          aria-label="Status"
          className="w-40"
          value={f.status ?? ""}
          onChange={(e) => setF((p) => ({ ...p, page: 1, status: isStatus(e.target.value) ? e.target.value : undefined }))}
        >
          <option value="">Any status</option>
          {FILTERS.map((s) => (
            <option key={s} value={s}>
              {EMAIL_STATUS[s].label}
            </option>
          ))}
        </Select>
        <Button variant="secondary" disabled={activity.isFetching} onClick={() => void activity.refetch()}>
          {activity.isFetching ? "Refreshing…" : "Refresh"}
        </Button>
      </div>
    </div>
  );
}

/** The log's table: a loading or empty row, else one row per email. */
function ActivityTable({ view, campaign }: { view: ActivityView; campaign: Campaign }) {
  const { f, activity, current, rows } = view;
  return (
    <Table aria-label="Campaign activity" aria-busy={activity.isFetching}>
      <THead>
        <tr>
          <Th>Time</Th>
          <Th>Lead</Th>
          <Th>Step</Th>
          <Th>Mailbox</Th>
          <Th>Subject</Th>
          <Th>Status</Th>
          <Th>Opened</Th>
          <Th>Clicked</Th>
        </tr>
      </THead>
      <TBody>
        {!activity.data && !activity.error && (
          <tr>
            <Td colSpan={COLUMNS} className="py-6 text-center text-gray-500">
              Loading…
            </Td>
          </tr>
        )}
        {current && rows.length === 0 && (
          <tr>
            <Td colSpan={COLUMNS} className="py-6 text-center text-gray-500" data-testid="activity-empty">
              {f.status
                ? `No ${EMAIL_STATUS[f.status].label.toLowerCase()} emails.`
                : campaign.status === "ACTIVE"
                  ? "No emails sent yet: the first ones go out within the send window."
                  : "No emails sent yet."}
            </Td>
          </tr>
        )}
        {rows.map((e) => (
          <Row key={e.id} e={e} opensTracked={campaign.trackOpens} clicksTracked={campaign.trackClicks} />
        ))}
      </TBody>
    </Table>
  );
}

/** Activity: every email of the campaign, newest first, with its outcome, the server's reason and opens/clicks. */
export function ActivityTab({ campaign }: { campaign: Campaign }) {
  const view = useActivityView(campaign);
  const { f, setF, activity, rows, total } = view;

  return (
    <div className="space-y-4">
      <ActivityToolbar view={view} />
      {activity.error && <Alert tone="error">Could not load the activity: {describeError(activity.error)}</Alert>}

      <ActivityTable view={view} campaign={campaign} />
      {total > 0 && (
        <Pager
          page={f.page}
          limit={f.limit}
          total={total}
          shown={rows.length}
          sizes={PAGE_SIZES}
          onPage={(page) => setF((p) => ({ ...p, page }))}
          onLimit={(limit) => setF((p) => ({ ...p, page: 1, limit }))}
        />
      )}
    </div>
  );
}

function Row({ e, opensTracked, clicksTracked }: { e: ActivityEmail; opensTracked: boolean; clicksTracked: boolean }) {
  const status = isStatus(e.status) ? EMAIL_STATUS[e.status] : { label: e.status, tone: "gray" as const, about: "" };
  const failed = e.status === "BOUNCED" || e.status === "FAILED";
  return (
    <Tr data-testid="activity-row" data-status={e.status}>
      <Td className="whitespace-nowrap">
        <time dateTime={e.sentAt ?? e.createdAt ?? undefined}>{dateTime(e.sentAt ?? e.createdAt)}</time>
      </Td>
      <Td className="font-medium">{e.leadEmail}</Td>
      <Td className="whitespace-nowrap">
        {e.stepOrder === null ? "—" : stepLabel(e.stepOrder)}
        {e.variantGroup && <span className="text-gray-500"> · {variantLabel(e.variantGroup)}</span>}
      </Td>
      <Td>{e.mailboxEmail}</Td>
      <Td className="max-w-xs truncate" title={e.subject ?? undefined}>
        {e.subject || <span className="text-gray-400">(no subject)</span>}
      </Td>
      <Td>
        <div className="space-y-1">
          <span className="inline-flex flex-wrap items-center gap-1" title={status.about}>
            <Badge tone={status.tone}>{status.label}</Badge>
            {e.bounceType && (
              <Badge tone={e.bounceType === "HARD" ? "red" : "yellow"}>{e.bounceType === "HARD" ? "Hard" : "Soft"} bounce</Badge>
            )}
          </span>
          {failed && (e.smtpCode || e.smtpResponse) && (
            <p className="max-w-sm text-xs break-words text-gray-700" data-testid="smtp-reason">
              {e.smtpCode && <span className="font-mono font-medium">SMTP {e.smtpCode}</span>}
              {e.smtpCode && e.smtpResponse && ": "}
              {e.smtpResponse}
            </p>
          )}
        </div>
      </Td>
      <Td className="whitespace-nowrap">
        {e.openedAt ? dateTime(e.openedAt) : <span className="text-gray-400">{opensTracked ? "—" : "not tracked"}</span>}
      </Td>
      <Td className="whitespace-nowrap">
        {e.clickedAt ? dateTime(e.clickedAt) : <span className="text-gray-400">{clicksTracked ? "—" : "not tracked"}</span>}
      </Td>
    </Tr>
  );
}
