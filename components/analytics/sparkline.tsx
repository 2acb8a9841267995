"use client";

import { Line, LineChart } from "recharts";

/**
 * Campaign emails sent per UTC day over the last 14 days, as a small line with no axes; the numbers
 * are in the title for a pointer and in the label for screen readers.
 */
export default function Sparkline({ values, label }: { values: number[]; label: string }) {
  const rows = values.map((v, i) => ({ i, v }));
  const text = `${label}: ${values.join(", ")}`;
  return (
    <div role="img" aria-label={text} title={text} className="h-6 w-24">
      <LineChart width={96} height={24} data={rows} margin={{ top: 2, right: 2, bottom: 2, left: 2 }}>
        <Line dataKey="v" stroke="#4f46e5" strokeWidth={1.5} dot={false} isAnimationActive={false} />
      </LineChart>
    </div>
  );
}
