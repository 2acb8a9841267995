"use client";

import { useState } from "react";
import { describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Select } from "@/components/ui/input";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { plural, stepLabel } from "../labels";
import type { Campaign } from "../types";
import { Legend, StackedBarChart, type ChartSeries } from "./charts";
import { dayLabel, localZone } from "./format";
import { useSchedule } from "./queries";
import type { Schedule } from "./types";

/** What the forecast counts a day: the chart's series and the per-day table's rows. */
const KINDS = [
  { key: "firstEmails", label: "First emails", color: "#4f46e5" },
  { key: "followUps", label: "Follow-ups", color: "#f59e0b" },
] as const;
const RANGES = [7, 14, 30]; // the forecast covers 30 days at most
const UPCOMING = [50, 200, 500];

function when(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { weekday: "short", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}

/**
 * Schedule: the server's forecast of what the campaign sends — per day, per pool mailbox against its
 * daily cap, and the next sends one by one — by the send engine's own rules.
 */
export function ScheduleTab({ campaign }: { campaign: Campaign }) {
  const [days, setDays] = useState(7);
  const [leads, setLeads] = useState(50);
  const schedule = useSchedule(campaign.id, days, leads, campaign.status === "ACTIVE");
  const s = schedule.data;
  return (
    <div className="space-y-6" aria-busy={schedule.isFetching}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="max-w-3xl text-xs text-gray-500">
          A forecast by the send engine&apos;s rules (send window and days in each lead&apos;s zone, start date, daily caps, the average gap
          between emails, follow-up delays), assuming no replies or bounces and counting only this campaign&apos;s use of each mailbox. Days
          are UTC days.
        </p>
        <div className="flex items-center gap-2">
          <Select aria-label="Days forecast" className="w-40" value={String(days)} onChange={(e) => setDays(Number(e.target.value))}>
            {RANGES.map((d) => (
              <option key={d} value={d}>
                Next {d} days
              </option>
            ))}
          </Select>
          <Button variant="secondary" disabled={schedule.isFetching} onClick={() => void schedule.refetch()}>
            {schedule.isFetching ? "Refreshing…" : "Refresh"}
          </Button>
        </div>
      </div>
      {schedule.error && <Alert tone="error">Could not load the forecast: {describeError(schedule.error)}</Alert>}
      {!s && !schedule.error && <p className="text-sm text-gray-500">Forecasting…</p>}
      {s && (
        <>
          {s.notes.length > 0 && (
            <Alert tone="info">
              <ul className="list-disc space-y-0.5 pl-4" data-testid="schedule-notes" aria-label="Notes on the forecast">
                {s.notes.map((n) => (
                  <li key={n}>{n}</li>
                ))}
              </ul>
            </Alert>
          )}
          <SkippedDays s={s} />
          <PerDay s={s} />
          <PerMailbox s={s} />
          <Upcoming s={s} leads={leads} onLeads={setLeads} />
        </>
      )}
    </div>
  );
}

/** Days on which nothing is sent to some leads: the campaign's blackout dates, and each lead country's public holidays. */
function SkippedDays({ s }: { s: Schedule }) {
  const { blackout, holidays } = s.skippedDays;
  if (blackout.length === 0 && holidays.length === 0) return null;
  return (
    <section aria-label="Skipped days" className="rounded-lg border border-gray-200 bg-white p-4 text-sm">
      <h3 className="mb-2 font-semibold text-gray-900">Skipped days</h3>
      <ul className="space-y-1 text-gray-700" data-testid="skipped-days">
        {blackout.length > 0 && <li>Blackout dates (every lead): {blackout.map((d) => dayLabel(d, true)).join(", ")}</li>}
        {holidays.map((h) => (
          <li key={h.country}>
            {h.country} ({plural(h.leads, "lead")}): {h.days.map((d) => `${dayLabel(d.date, true)} ${d.name}`).join(", ")}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A forecast table's header: `first` over the row names, then a column a forecast day. */
function DaysHead({ first, s }: { first: string; s: Schedule }) {
  return (
    <THead>
      <tr>
        <Th>{first}</Th>
        {s.totals.map((d) => (
          <Th key={d.date} className="text-right whitespace-nowrap">
            {dayLabel(d.date, true)}
          </Th>
        ))}
      </tr>
    </THead>
  );
}

function PerDay({ s }: { s: Schedule }) {
  const series: ChartSeries[] = KINDS.map((k) => ({ label: k.label, color: k.color, values: s.totals.map((d) => d[k.key]) }));
  const first = s.totals.reduce((a, d) => a + d.firstEmails, 0);
  const follow = s.totals.reduce((a, d) => a + d.followUps, 0);
  const firstDay = s.totals.find((d) => d.firstEmails + d.followUps > 0);
  return (
    <section aria-labelledby="forecast-heading" className="space-y-3 rounded-lg border border-gray-200 bg-white p-4">
      <div>
        <h2 id="forecast-heading" className="text-sm font-semibold text-gray-900">
          Per day
        </h2>
        <p className="text-sm text-gray-700" data-testid="forecast-summary">
          {first + follow === 0
            ? `Nothing would be sent in the next ${plural(s.days, "day")}.`
            : `${plural(first, "first email")} and ${plural(follow, "follow-up")} in the next ${plural(s.days, "day")}; the first on ${dayLabel(firstDay!.date, true)}.`}
        </p>
      </div>
      <Legend series={series} />
      <StackedBarChart
        title={`Forecast sends per day, next ${s.days} days`}
        labels={s.totals.map((d) => d.date)}
        series={series}
        formatLabel={(d) => dayLabel(d, true)}
      />
      <Table aria-label="Forecast per day">
        <DaysHead first="Day" s={s} />
        <TBody>
          {KINDS.map(({ label, key }) => (
            <Tr key={key}>
              <Td className="whitespace-nowrap">{label}</Td>
              {s.totals.map((d) => (
                <Td key={d.date} className="text-right tabular-nums" data-date={d.date}>
                  {d[key].toLocaleString()}
                </Td>
              ))}
            </Tr>
          ))}
        </TBody>
      </Table>
    </section>
  );
}

function PerMailbox({ s }: { s: Schedule }) {
  return (
    <section aria-labelledby="mailbox-forecast-heading" className="space-y-2">
      <div>
        <h2 id="mailbox-forecast-heading" className="text-sm font-semibold text-gray-900">
          Per mailbox
        </h2>
        <p className="text-xs text-gray-500">
          Emails each pool mailbox that can send would send per day, against its daily cap (highlighted when it reaches it).
        </p>
      </div>
      <Table aria-label="Forecast per mailbox">
        <DaysHead first="Mailbox" s={s} />
        <TBody>
          {s.mailboxes.length === 0 && (
            <tr>
              <Td colSpan={s.totals.length + 1} className="py-6 text-center text-gray-500">
                No pool mailbox can send: add one on the Mailboxes tab.
              </Td>
            </tr>
          )}
          {s.mailboxes.map((m) => (
            <Tr key={m.mailboxId}>
              <Td className="font-medium whitespace-nowrap">
                {m.email}
                <span className="block text-xs font-normal text-gray-500">cap {m.dailySendCap.toLocaleString()} / day</span>
              </Td>
              {m.perDay.map((d) => {
                const n = d.firstEmails + d.followUps;
                const full = n >= m.dailySendCap;
                return (
                  <Td
                    key={d.date}
                    className={cn("text-right whitespace-nowrap tabular-nums", full && "bg-yellow-50 font-medium text-yellow-900")}
                    title={`${plural(d.firstEmails, "first email")}, ${plural(d.followUps, "follow-up")}${full ? " — at the daily cap" : ""}`}
                  >
                    {n.toLocaleString()}
                    <span className="text-xs text-gray-500"> / {m.dailySendCap.toLocaleString()}</span>
                  </Td>
                );
              })}
            </Tr>
          ))}
        </TBody>
      </Table>
    </section>
  );
}

function Upcoming({ s, leads, onLeads }: { s: Schedule; leads: number; onLeads: (n: number) => void }) {
  return (
    <section aria-labelledby="upcoming-heading" className="space-y-2">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <div>
          <h2 id="upcoming-heading" className="text-sm font-semibold text-gray-900">
            Upcoming sends
          </h2>
          <p className="text-xs text-gray-500">In order; times in your time zone ({localZone()}), to the nearest 5 minutes.</p>
        </div>
        <Select aria-label="Upcoming sends shown" className="w-36" value={String(leads)} onChange={(e) => onLeads(Number(e.target.value))}>
          {UPCOMING.map((n) => (
            <option key={n} value={n}>
              First {n}
            </option>
          ))}
        </Select>
      </div>
      <Table aria-label="Upcoming sends">
        <THead>
          <tr>
            <Th>Lead</Th>
            <Th>Step</Th>
            <Th>When</Th>
            <Th>Mailbox</Th>
          </tr>
        </THead>
        <TBody>
          {s.upcoming.length === 0 && (
            <tr>
              <Td colSpan={4} className="py-6 text-center text-gray-500">
                Nothing is due in the next {plural(s.days, "day")}.
              </Td>
            </tr>
          )}
          {s.upcoming.map((u) => (
            <Tr key={`${u.leadId}-${u.stepOrder}`}>
              <Td className="font-medium">{u.email}</Td>
              <Td>{stepLabel(u.stepOrder)}</Td>
              <Td className="whitespace-nowrap">
                <time dateTime={u.at} title={u.at}>
                  {when(u.at)}
                </time>
              </Td>
              <Td>{u.mailboxEmail}</Td>
            </Tr>
          ))}
        </TBody>
      </Table>
      {s.upcoming.length === leads && <p className="text-xs text-gray-500">Showing the first {leads.toLocaleString()}; more follow.</p>}
    </section>
  );
}
