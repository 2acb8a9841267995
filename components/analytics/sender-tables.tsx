"use client";

import dynamic from "next/dynamic";
import { describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { dateTime } from "@/components/ui/time";
import { ACTIVITY, type Activity, num, pct } from "./labels";
import { type PeriodPick, useDomainStats, useMailboxStats } from "./queries";

// Recharts is loaded with the charts' chunk, not with the page.
const Sparkline = dynamic(() => import("./sparkline"), { ssr: false, loading: () => <span className="inline-block h-6 w-24" /> });

function ActivityBadge({ activity, sent7 }: { activity: Activity; sent7: number }) {
  const a = ACTIVITY[activity];
  return (
    <span title={`${a.about} (${sent7} in 7 days)`}>
      <Badge tone={a.tone}>{a.label}</Badge>
    </span>
  );
}

interface Numbers {
  sent: number;
  leadsContacted: number;
  opened: number;
  replied: number;
  replyRate: number;
  positive: number;
  bounced: number;
  bouncedHard: number;
  bouncedSoft: number;
  bounceRate: number;
  failed: number;
  activity: Activity;
  sentLast7Days: number;
  sentDaily: number[];
}

const NUMBER_HEADS = ["Activity (7 days)", "Sent, 14 days", "Sent", "Leads", "Opened", "Replied", "Positive", "Bounced", "Failed"];

function NumberCells({ r }: { r: Numbers }) {
  return (
    <>
      <Td>
        <ActivityBadge activity={r.activity} sent7={r.sentLast7Days} />
      </Td>
      <Td>
        <Sparkline values={r.sentDaily} label="Campaign emails sent per day, last 14 days" />
      </Td>
      <Td className="text-right tabular-nums">{num(r.sent)}</Td>
      <Td className="text-right tabular-nums">{num(r.leadsContacted)}</Td>
      <Td className="text-right tabular-nums">{num(r.opened)}</Td>
      <Td className="text-right tabular-nums">
        {num(r.replied)} <span className="text-xs text-gray-500">({pct(r.replyRate)})</span>
      </Td>
      <Td className="text-right tabular-nums">{num(r.positive)}</Td>
      <Td className="text-right tabular-nums" title={`${r.bouncedHard} hard, ${r.bouncedSoft} soft`}>
        {num(r.bounced)} <span className="text-xs text-gray-500">({pct(r.bounceRate)})</span>
      </Td>
      <Td className="text-right tabular-nums">{num(r.failed)}</Td>
    </>
  );
}

/** Per mailbox: the period's numbers and its activity over the last 7 days. */
export function MailboxTable({ period }: { period: PeriodPick }) {
  const q = useMailboxStats(period);
  if (q.error) return <Alert tone="error">Could not load mailbox stats: {describeError(q.error)}</Alert>;
  if (!q.data) return <p className="text-sm text-gray-500">Loading…</p>;
  if (q.data.mailboxes.length === 0) return <p className="text-sm text-gray-500">No mailboxes yet.</p>;
  return (
    <Table data-testid="mailbox-stats">
      <THead>
        <Tr>
          <Th>Mailbox</Th>
          {NUMBER_HEADS.map((h) => (
            <Th key={h} className={h.startsWith("Activity") || h.includes("14") ? "" : "text-right"}>
              {h}
            </Th>
          ))}
          <Th>Last sent</Th>
        </Tr>
      </THead>
      <TBody>
        {q.data.mailboxes.map((m) => (
          <Tr key={m.id} data-testid={`mailbox-row-${m.emailAddress}`}>
            <Td>
              <div className="font-medium">{m.emailAddress}</div>
              <div className="text-xs text-gray-500">
                cap {m.dailySendCap}/day · {m.healthStatus.toLowerCase().replace("_", " ")}
              </div>
            </Td>
            <NumberCells r={m} />
            <Td className="text-xs text-gray-600">{dateTime(m.lastSentAt)}</Td>
          </Tr>
        ))}
      </TBody>
    </Table>
  );
}

/** Per sending domain: the same numbers counted per domain, its DNS checks and the best activity of its mailboxes. */
export function DomainTable({ period }: { period: PeriodPick }) {
  const q = useDomainStats(period);
  if (q.error) return <Alert tone="error">Could not load domain stats: {describeError(q.error)}</Alert>;
  if (!q.data) return <p className="text-sm text-gray-500">Loading…</p>;
  if (q.data.domains.length === 0) return <p className="text-sm text-gray-500">No sending domains yet.</p>;
  const check = (s: string) => (
    <Badge tone={s === "PASS" ? "green" : s === "UNCHECKED" ? "gray" : s === "WARN" ? "yellow" : "red"}>{s}</Badge>
  );
  return (
    <Table data-testid="domain-stats">
      <THead>
        <Tr>
          <Th>Domain</Th>
          {NUMBER_HEADS.map((h) => (
            <Th key={h} className={h.startsWith("Activity") || h.includes("14") ? "" : "text-right"}>
              {h}
            </Th>
          ))}
          <Th>SPF / DKIM / DMARC</Th>
        </Tr>
      </THead>
      <TBody>
        {q.data.domains.map((d) => (
          <Tr key={d.domain} data-testid={`domain-row-${d.domain}`}>
            <Td>
              <div className="font-medium">{d.domain}</div>
              <div className="text-xs text-gray-500">
                {d.mailboxes} mailbox{d.mailboxes === 1 ? "" : "es"}
              </div>
            </Td>
            <NumberCells r={d} />
            <Td className="space-x-1 whitespace-nowrap">
              {check(d.spfStatus)}
              {check(d.dkimStatus)}
              {check(d.dmarcStatus)}
            </Td>
          </Tr>
        ))}
      </TBody>
    </Table>
  );
}
