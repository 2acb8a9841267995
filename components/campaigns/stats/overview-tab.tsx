"use client";

import { useState } from "react";
import { describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { Select } from "@/components/ui/input";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { percent, plural, stepLabel, variantLabel } from "../labels";
import type { Campaign } from "../types";
import { Legend, LineChart, type ChartSeries } from "./charts";
import { dayLabel, rateOf } from "./format";
import { LIVE_MS, useCampaignStats, useTimeseries } from "./queries";
import type { CampaignStatsView, VariantResult } from "./types";

const COLORS = { sent: "#4f46e5", opened: "#10b981", clicked: "#0ea5e9", bounced: "#ef4444" };
const RANGES = [7, 14, 30, 90]; // the API allows up to 90 days

/** Overview: the campaign's counts and rates (live while the campaign is ACTIVE), sends per day, and per step × variant results. */
export function OverviewTab({ campaign }: { campaign: Campaign }) {
  const live = campaign.status === "ACTIVE";
  const stats = useCampaignStats(campaign.id, live);
  return (
    <div className="space-y-6">
      {stats.error && <Alert tone="error">Could not load the stats: {describeError(stats.error)}</Alert>}
      {stats.data ? <StatCards s={stats.data} /> : !stats.error && <p className="text-sm text-gray-500">Loading the stats…</p>}
      <p className="text-xs text-gray-500" data-testid="stats-freshness">
        {live
          ? `Live: updated every ${LIVE_MS / 1000} s while the campaign is active${stats.dataUpdatedAt ? ` (last ${new Date(stats.dataUpdatedAt).toLocaleTimeString()})` : ""}.`
          : campaign.status === "DRAFT"
            ? "The campaign has not been launched yet: these numbers move once it sends."
            : "The campaign is not active, so these numbers only change once it sends again."}{" "}
        Sends and bounces count emails; opens, clicks, replies and positive replies count each lead once, over the leads contacted.
      </p>
      <DailyChart campaignId={campaign.id} live={live} stats={stats.data} />
      {stats.data && <VariantTable s={stats.data} />}
    </div>
  );
}

function Card({ id, label, value, detail, muted }: { id: string; label: string; value: string; detail: string; muted?: boolean }) {
  return (
    <div className="rounded-lg border border-gray-200 bg-white px-4 py-3" data-testid={`stat-${id}`}>
      <dt className="text-xs font-medium text-gray-500">{label}</dt>
      <dd
        className={cn("mt-1 font-semibold tabular-nums", muted ? "py-1 text-lg text-gray-400" : "text-2xl text-gray-900")}
        data-testid="stat-value"
      >
        {value}
      </dd>
      <dd className="mt-0.5 text-xs text-gray-600" data-testid="stat-detail">
        {detail}
      </dd>
    </div>
  );
}

/**
 * "12 leads opened", and beside it the leads only machines reached (Apple's privacy prefetch, security
 * scanners): never in the rate, shown so a user sees what a tracker that counts every hit would claim.
 */
function withMachines(people: number, verb: string, machines: number): string {
  const own = `${plural(people, "lead")} ${verb}`;
  return machines > 0 ? `${own} · ${machines.toLocaleString()} more by machines only` : own;
}

function StatCards({ s }: { s: CampaignStatsView }) {
  const over = s.leadsContacted;
  return (
    <dl aria-label="Campaign stats" className="grid grid-cols-2 gap-3 sm:grid-cols-4 xl:grid-cols-7">
      <Card
        id="sent"
        label="Emails sent"
        value={s.sentCount.toLocaleString()}
        detail={s.sentCount === 1 ? "email" : "emails, bounces included"}
      />
      <Card id="contacted" label="Leads contacted" value={s.leadsContacted.toLocaleString()} detail="got at least one email" />
      {s.opensTracked ? (
        <Card
          id="opened"
          label="Open rate"
          value={rateOf(s.openedRate, over)}
          detail={withMachines(s.openedCount, "opened", s.machineOpenedCount)}
        />
      ) : (
        <Card id="opened" label="Open rate" value="Not tracked" detail="open tracking is off (Settings)" muted />
      )}
      {s.clicksTracked ? (
        <Card
          id="clicked"
          label="Click rate"
          value={rateOf(s.clickedRate, over)}
          detail={withMachines(s.clickedCount, "clicked", s.machineClickedCount)}
        />
      ) : (
        <Card id="clicked" label="Click rate" value="Not tracked" detail="click tracking is off (Settings)" muted />
      )}
      <Card id="replied" label="Reply rate" value={rateOf(s.repliedRate, over)} detail={`${plural(s.repliedCount, "lead")} replied`} />
      <Card
        id="positive"
        label="Positive rate"
        value={rateOf(s.positiveRate, over)}
        detail={`${plural(s.positiveCount, "positive reply", "positive replies")}`}
      />
      <Card
        id="bounced"
        label="Bounce rate"
        value={rateOf(s.bouncedRate, s.sentCount)}
        detail={`${plural(s.bouncedCount, "email")} bounced`}
      />
    </dl>
  );
}

function DailyChart({ campaignId, live, stats }: { campaignId: string; live: boolean; stats?: CampaignStatsView }) {
  const [days, setDays] = useState(30);
  const ts = useTimeseries(campaignId, days, live);
  const rows = ts.data?.series ?? [];
  const opens = stats?.opensTracked ?? false;
  const clicks = stats?.clicksTracked ?? false;
  const series: ChartSeries[] = [
    { label: "Sent", color: COLORS.sent, values: rows.map((r) => r.sent) },
    ...(opens ? [{ label: "Opened", color: COLORS.opened, values: rows.map((r) => r.opened) }] : []),
    ...(clicks ? [{ label: "Clicked", color: COLORS.clicked, values: rows.map((r) => r.clicked) }] : []),
    { label: "Bounced", color: COLORS.bounced, values: rows.map((r) => r.bounced) },
  ];
  const untracked = [!opens && "opens", !clicks && "clicks"].filter(Boolean).join(" and ");
  const sentInRange = rows.reduce((a, r) => a + r.sent, 0);
  return (
    <section aria-labelledby="daily-heading" className="space-y-3 rounded-lg border border-gray-200 bg-white p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h2 id="daily-heading" className="text-sm font-semibold text-gray-900">
            Per day
          </h2>
          <p className="text-xs text-gray-500">
            Emails by the day they were sent (UTC days); opens and clicks are counted on the day of the email they belong to.
          </p>
        </div>
        <Select aria-label="Days shown" className="w-36" value={String(days)} onChange={(e) => setDays(Number(e.target.value))}>
          {RANGES.map((d) => (
            <option key={d} value={d}>
              Last {d} days
            </option>
          ))}
        </Select>
      </div>
      {ts.error && <Alert tone="error">Could not load the daily numbers: {describeError(ts.error)}</Alert>}
      {ts.data && (
        <>
          <Legend series={series} />
          <LineChart
            title={`Emails per day, last ${days} days`}
            labels={rows.map((r) => r.date)}
            series={series}
            formatLabel={(d) => dayLabel(d)}
          />
          <p className="text-xs text-gray-600" data-testid="daily-summary">
            {sentInRange === 0
              ? `Nothing sent in the last ${days} days.`
              : `${plural(sentInRange, "email")} sent in the last ${days} days.`}
            {untracked && ` ${untracked[0].toUpperCase()}${untracked.slice(1)} are not tracked for this campaign.`}
          </p>
        </>
      )}
    </section>
  );
}

/**
 * The leading variant of a step (two or more variants with sends): the best reply rate if any variant
 * has a reply, else the best open rate if opens are tracked and any were opened. A tie leads nobody.
 */
export function leaders(variants: VariantResult[], opensTracked: boolean): Set<string> {
  const out = new Set<string>();
  const byStep = new Map<number, VariantResult[]>();
  for (const v of variants) byStep.set(v.stepOrder, [...(byStep.get(v.stepOrder) ?? []), v]);
  for (const vs of byStep.values()) {
    const sent = vs.filter((v) => v.sent > 0);
    if (vs.length < 2 || sent.length === 0) continue;
    const metric: keyof VariantResult | undefined = sent.some((v) => v.replied > 0)
      ? "repliedRate"
      : opensTracked && sent.some((v) => v.opened > 0)
        ? "openedRate"
        : undefined;
    if (!metric) continue;
    const best = Math.max(...sent.map((v) => v[metric] as number));
    const top = sent.filter((v) => v[metric] === best);
    if (top.length === 1) out.add(top[0].stepId);
  }
  return out;
}

function RateCell({ rate, count, sent, tracked = true }: { rate: number; count: number; sent: number; tracked?: boolean }) {
  if (!tracked) return <span className="text-gray-400">not tracked</span>;
  if (sent === 0) return <span className="text-gray-400">—</span>;
  return (
    <span className="tabular-nums">
      {percent(rate)} <span className="text-xs text-gray-500">({count.toLocaleString()})</span>
    </span>
  );
}

function VariantTable({ s }: { s: CampaignStatsView }) {
  const lead = leaders(s.variants, s.opensTracked);
  const multi = new Set(s.variants.map((v) => v.stepOrder).filter((o, i, all) => all.indexOf(o) !== i));
  return (
    <section aria-labelledby="variants-heading" className="space-y-2">
      <div>
        <h2 id="variants-heading" className="text-sm font-semibold text-gray-900">
          Steps and variants
        </h2>
        <p className="text-xs text-gray-500">
          Rates over the emails each variant sent. The leading variant of a step has the best reply rate, or the best open rate while nobody
          has replied.
        </p>
      </div>
      <Table aria-label="Results per step and variant">
        <THead>
          <tr>
            <Th>Step</Th>
            <Th>Variant</Th>
            <Th className="text-right">Sent</Th>
            <Th className="text-right">Open rate</Th>
            <Th className="text-right">Click rate</Th>
            <Th className="text-right">Reply rate</Th>
            <Th className="text-right">Bounce rate</Th>
          </tr>
        </THead>
        <TBody>
          {s.variants.length === 0 && (
            <tr>
              <Td colSpan={7} className="py-6 text-center text-gray-500">
                The campaign has no steps yet.
              </Td>
            </tr>
          )}
          {s.variants.map((v, i) => {
            const leading = lead.has(v.stepId);
            const firstOfStep = i === 0 || s.variants[i - 1].stepOrder !== v.stepOrder;
            return (
              <Tr
                key={v.stepId}
                className={cn(leading && "bg-green-50 hover:bg-green-50", !firstOfStep && "border-t-0")}
                data-testid="variant-row"
                data-leading={leading || undefined}
              >
                <Td className="font-medium">{firstOfStep ? stepLabel(v.stepOrder) : ""}</Td>
                <Td>
                  <span className="inline-flex items-center gap-2">
                    {multi.has(v.stepOrder) ? variantLabel(v.variantGroup) : "—"}
                    {leading && <Badge tone="green">Leading</Badge>}
                  </span>
                </Td>
                <Td className="text-right tabular-nums">{v.sent.toLocaleString()}</Td>
                <Td className="text-right">
                  <RateCell rate={v.openedRate} count={v.opened} sent={v.sent} tracked={s.opensTracked} />
                </Td>
                <Td className="text-right">
                  <RateCell rate={v.clickedRate} count={v.clicked} sent={v.sent} tracked={s.clicksTracked} />
                </Td>
                <Td className="text-right">
                  <RateCell rate={v.repliedRate} count={v.replied} sent={v.sent} />
                </Td>
                <Td className="text-right">
                  <RateCell rate={v.bouncedRate} count={v.bounced} sent={v.sent} />
                </Td>
              </Tr>
            );
          })}
        </TBody>
      </Table>
    </section>
  );
}
