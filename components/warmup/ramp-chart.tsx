"use client";

import { Bar, CartesianGrid, ComposedChart, Legend, Line, Tooltip, XAxis, YAxis } from "recharts";
import type { RampRow } from "./chart-rows";

/** Tailwind's indigo-600, green-600 and gray-500, so the chart matches the rest of the dashboard. */
const COLORS = { target: "#6b7280", sent: "#4f46e5", replied: "#16a34a" };
/** The legend reads target, sent, replied (Recharts sorts it by name otherwise). */
const ORDER: Record<string, number> = { target: 0, sent: 1, replied: 2 };

/**
 * The ramp over 30 days: the day's target as a stepped line, warmup emails sent and answers received
 * as bars. Loaded on demand by the warmup panel (Recharts is only needed once a panel opens).
 */
export default function RampChart({ rows }: { rows: RampRow[] }) {
  return (
    <ComposedChart
      responsive
      style={{ width: "100%", height: 256 }}
      data={rows}
      margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
      title="Warmup ramp: target, sent and replied per day"
      accessibilityLayer
    >
      <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e5e7eb" />
      <XAxis dataKey="label" tick={{ fontSize: 11 }} interval="preserveStartEnd" minTickGap={16} />
      <YAxis allowDecimals={false} tick={{ fontSize: 11 }} width={32} />
      <Tooltip />
      <Legend wrapperStyle={{ fontSize: 12 }} itemSorter={(item) => ORDER[String(item.dataKey)] ?? 9} />
      <Bar dataKey="sent" name="Sent" fill={COLORS.sent} maxBarSize={10} isAnimationActive={false} />
      <Bar dataKey="replied" name="Replied" fill={COLORS.replied} maxBarSize={10} isAnimationActive={false} />
      <Line
        dataKey="target"
        name="Target"
        type="stepAfter"
        stroke={COLORS.target}
        strokeDasharray="4 3"
        strokeWidth={2}
        // A dot per day: a ramp of one day (or a lone day between pauses) is still seen.
        dot={{ r: 2.5, fill: COLORS.target }}
        connectNulls={false}
        isAnimationActive={false}
      />
    </ComposedChart>
  );
}
