"use client";

import { useCan } from "@/components/shell/member-context";
import dynamic from "next/dynamic";
import { type ReactNode, useState } from "react";
import { describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { BounceLog } from "./bounce-log";
import { OverviewCards } from "./overview-cards";
import { PeriodPicker } from "./period-picker";
import { type PeriodPick, periodParams, seriesParams, useSeries } from "./queries";
import { DomainTable, MailboxTable } from "./sender-tables";

const DailyCharts = dynamic(() => import("./daily-charts"), {
  ssr: false,
  loading: () => <p className="text-sm text-gray-500">Loading charts…</p>,
});

function Section({ title, about, children }: { title: string; about?: string; children: ReactNode }) {
  return (
    <section className="space-y-2">
      <div>
        <h2 className="text-base font-semibold text-gray-900">{title}</h2>
        {about && <p className="text-xs text-gray-600">{about}</p>}
      </div>
      {children}
    </section>
  );
}

function Charts({ period }: { period: PeriodPick }) {
  const q = useSeries(period);
  if (q.error) return <Alert tone="error">Could not load the daily numbers: {describeError(q.error)}</Alert>;
  if (!q.data) return <p className="text-sm text-gray-500">Loading…</p>;
  return (
    <>
      {seriesParams(period).clipped && <p className="text-xs text-gray-600">Charts show the last 90 days of the period.</p>}
      <DailyCharts days={q.data.days} />
    </>
  );
}

function Downloads({ period }: { period: PeriodPick }) {
  // The leads CSV is for owners and admins only (lib/roles.ts): the others are not offered it.
  const canExportLeads = useCan("admin");
  const link =
    "inline-flex items-center rounded-md border border-gray-300 bg-white px-3 py-1.5 text-sm font-medium text-gray-800 hover:bg-gray-50";
  return (
    <div className="flex flex-wrap gap-2" data-testid="downloads">
      <a className={link} href={`/api/v1/reports/analytics.csv?${periodParams(period)}`} download>
        Daily numbers (CSV)
      </a>
      <a className={link} href="/api/v1/reports/campaigns.csv" download>
        Campaigns (CSV)
      </a>
      {canExportLeads && (
        <a className={link} href="/api/v1/reports/leads.csv" download title="Owner or admin; up to 50,000 leads">
          Leads (CSV)
        </a>
      )}
    </div>
  );
}

/** The Analytics page: one period for everything, counted as the campaign stats are. */
export function AnalyticsView() {
  const [period, setPeriod] = useState<PeriodPick>({ days: 30 });
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-xl font-semibold text-gray-900">Analytics</h1>
          <p className="text-sm text-gray-600">Campaign email only; warmup mail is never counted. Days are UTC days.</p>
        </div>
        <Downloads period={period} />
      </div>
      <PeriodPicker value={period} onChange={setPeriod} />
      <OverviewCards period={period} />
      <Section title="Per day">
        <Charts period={period} />
      </Section>
      <Section title="Mailboxes" about="Activity is over the last 7 days, whatever the period.">
        <MailboxTable period={period} />
      </Section>
      <Section title="Domains" about="Leads are counted once per domain, however many of its mailboxes emailed them.">
        <DomainTable period={period} />
      </Section>
      <Section title="Bounces" about="The receiving server's code and message (not recorded before 2 Oct 2026).">
        <BounceLog period={period} />
      </Section>
    </div>
  );
}
