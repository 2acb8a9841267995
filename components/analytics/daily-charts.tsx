"use client";

import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from "recharts";

export interface DayRow {
  date: string;
  sent: number;
  opened: number;
  clicked: number;
  replied: number;
  positive: number;
  bounced: number;
}

/** Tailwind's indigo-600, sky-500, green-600, emerald-400, red-600, amber-500: the dashboard's colours. */
const CHARTS: { title: string; bars: { key: keyof DayRow; name: string; color: string }[] }[] = [
  { title: "Sent", bars: [{ key: "sent", name: "Emails sent", color: "#4f46e5" }] },
  {
    title: "Opens and clicks",
    bars: [
      { key: "opened", name: "Leads opened", color: "#0ea5e9" },
      { key: "clicked", name: "Leads clicked", color: "#f59e0b" },
    ],
  },
  {
    title: "Replies",
    bars: [
      { key: "replied", name: "Leads replied", color: "#16a34a" },
      { key: "positive", name: "Positive", color: "#34d399" },
    ],
  },
  { title: "Bounces", bars: [{ key: "bounced", name: "Emails bounced", color: "#dc2626" }] },
];

const short = (d: string) => new Date(`${d}T00:00:00Z`).toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

/** The period's daily numbers (UTC days) as four bar charts; loaded on demand (Recharts is only needed here). */
export default function DailyCharts({ days }: { days: DayRow[] }) {
  const rows = days.map((d) => ({ ...d, label: short(d.date) }));
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      {CHARTS.map((c) => (
        <figure key={c.title} className="rounded-lg border border-gray-200 bg-white p-3" data-testid={`chart-${c.bars[0].key}`}>
          <figcaption className="mb-1 text-sm font-medium text-gray-800">{c.title}</figcaption>
          <BarChart
            responsive
            style={{ width: "100%", height: 200 }}
            data={rows}
            margin={{ top: 4, right: 8, bottom: 0, left: 0 }}
            title={`${c.title} per day`}
            accessibilityLayer
          >
            <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e5e7eb" />
            <XAxis dataKey="label" tick={{ fontSize: 11 }} interval="preserveStartEnd" minTickGap={16} />
            <YAxis allowDecimals={false} tick={{ fontSize: 11 }} width={32} />
            <Tooltip />
            {c.bars.length > 1 && <Legend wrapperStyle={{ fontSize: 12 }} />}
            {c.bars.map((b) => (
              <Bar key={b.key} dataKey={b.key} name={b.name} fill={b.color} maxBarSize={14} isAnimationActive={false} />
            ))}
          </BarChart>
        </figure>
      ))}
    </div>
  );
}
