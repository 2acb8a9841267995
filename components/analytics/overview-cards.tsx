"use client";

import type { ReactNode } from "react";
import { describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { num, pct } from "./labels";
import { type PeriodPick, useAnalyticsOverview } from "./queries";

function Card({ title, value, children, testId }: { title: string; value: ReactNode; children?: ReactNode; testId: string }) {
  return (
    <div className="rounded-lg border border-gray-200 bg-white p-4" data-testid={testId}>
      <p className="text-xs font-semibold tracking-wide text-gray-500 uppercase">{title}</p>
      <p className="mt-1 text-2xl font-semibold text-gray-900" data-testid={`${testId}-value`}>
        {value}
      </p>
      {children && <div className="mt-1 text-xs text-gray-600">{children}</div>}
    </div>
  );
}

/** The period's totals: emails for sent and bounced, leads once for the rest, rates over leads contacted. */
export function OverviewCards({ period }: { period: PeriodPick }) {
  const q = useAnalyticsOverview(period);
  if (q.error) return <Alert tone="error">Could not load the overview: {describeError(q.error)}</Alert>;
  const o = q.data;
  if (!o) return <p className="text-sm text-gray-500">Loading…</p>;
  const untracked = (on: boolean) => (on ? null : <span className="text-amber-700"> · no campaign tracks these</span>);
  return (
    <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6">
      <Card title="Sent" value={num(o.totalSent)} testId="card-sent">
        emails to {num(o.leadsContacted)} leads
      </Card>
      <Card title="Opened" value={num(o.totalOpened)} testId="card-opened">
        {pct(o.openRate)} of leads contacted{untracked(o.opensTracked)}
      </Card>
      <Card title="Clicked" value={num(o.totalClicked)} testId="card-clicked">
        {pct(o.clickRate)} of leads contacted{untracked(o.clicksTracked)}
      </Card>
      <Card title="Replied" value={num(o.totalReplied)} testId="card-replied">
        {pct(o.replyRate)} of leads contacted
      </Card>
      <Card title="Positive" value={num(o.totalPositive)} testId="card-positive">
        {pct(o.positiveRate)} of leads contacted
      </Card>
      <Card title="Bounced" value={num(o.totalBounced)} testId="card-bounced">
        {pct(o.bounceRate)} of emails sent
      </Card>
    </div>
  );
}
