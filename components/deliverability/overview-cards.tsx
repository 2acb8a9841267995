"use client";

import type { ReactNode } from "react";
import { describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { dateTime } from "@/components/ui/time";
import { pct } from "./labels";
import { useOverview } from "./queries";

function Card({ title, value, children, testId }: { title: string; value: ReactNode; children?: ReactNode; testId: string }) {
  return (
    <div className="rounded-lg border border-gray-200 bg-white p-4" data-testid={testId}>
      <p className="text-xs font-semibold tracking-wide text-gray-500 uppercase">{title}</p>
      <p className="mt-1 text-2xl font-semibold text-gray-900">{value}</p>
      {children && <div className="mt-1 text-xs text-gray-600">{children}</div>}
    </div>
  );
}

/** The numbers at the top of the page: mailboxes, domains, bounce and spam rates, open alerts, the last placement test. */
export function OverviewCards() {
  const overview = useOverview();
  if (overview.error) return <Alert tone="error">Could not load the overview: {describeError(overview.error)}</Alert>;
  const o = overview.data;
  if (!o) return <p className="text-sm text-gray-500">Loading…</p>;
  const last = o.lastPlacement;
  return (
    <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6">
      <Card title="Mailboxes" value={o.mailboxes.total} testId="card-mailboxes">
        {o.mailboxes.healthy} healthy · {o.mailboxes.warming} warming · {o.mailboxes.paused} paused · {o.mailboxes.failing} failing
      </Card>
      <Card title="Domains" value={o.domains.total} testId="card-domains">
        {o.domains.failing} with DNS problems · {o.domains.blacklisted} blacklisted
      </Card>
      <Card title="Bounce rate (7 days)" value={pct(o.bounceRate7d)} testId="card-bounce">
        Campaign email; mailboxes pause above 1.8%.
      </Card>
      <Card title="Spam rate (30 days)" value={pct(o.spamRate30d)} testId="card-spam">
        From placement tests.
      </Card>
      <Card title="Open alerts" value={o.openAlerts} testId="card-alerts">
        {o.unacknowledgedAlerts} not acknowledged
      </Card>
      <Card title="Last placement test" value={last ? `${last.inboxCount}/${last.seedCount} inbox` : "—"} testId="card-placement">
        {last ? `${last.mailboxEmail}, ${dateTime(last.createdAt)}` : "None yet."}
      </Card>
    </div>
  );
}
