"use client";

import { type ReactNode, useId } from "react";
import { Bar, BarChart, CartesianGrid, LabelList, Line, LineChart as RLineChart, Tooltip, XAxis, YAxis } from "recharts";

/**
 * The campaign page's charts, drawn with Recharts as the Analytics page and the warmup ramp are (one
 * way to draw a chart): a line chart and a stacked bar chart over the same x axis of
 * labelled buckets (days). The chart is one image to assistive technology, named by `title` and
 * described by a summary of its totals; the legend is plain HTML so it reads as text.
 */
export interface ChartSeries {
  label: string;
  /** A CSS colour. */
  color: string;
  values: number[];
}

interface ChartProps {
  /** Names the chart for screen readers. */
  title: string;
  /** One per bucket, in order. */
  labels: string[];
  series: ChartSeries[];
  /** How a bucket's label is shown on the axis and in tooltips. */
  formatLabel?: (label: string) => string;
  height?: number;
}

/** A key Recharts can read for each series (labels may hold spaces and punctuation). */
const keyOf = (i: number) => `s${i}`;
const TOTAL = "__total";

function rowsOf(labels: string[], series: ChartSeries[], formatLabel: (l: string) => string) {
  return labels.map((l, i) => {
    const row: Record<string, string | number> = { label: formatLabel(l) };
    let total = 0;
    series.forEach((s, k) => {
      const v = s.values[i] ?? 0;
      row[keyOf(k)] = v;
      total += v;
    });
    row[TOTAL] = total;
    return row;
  });
}

export function Legend({ series }: { series: Pick<ChartSeries, "label" | "color">[] }) {
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-gray-700">
      {series.map((s) => (
        <li key={s.label} className="flex items-center gap-1.5">
          <span aria-hidden="true" className="inline-block h-2.5 w-2.5 rounded-sm" style={{ backgroundColor: s.color }} />
          {s.label}
        </li>
      ))}
    </ul>
  );
}

function summary(series: ChartSeries[], labels: string[], formatLabel: (l: string) => string): string {
  if (!labels.length) return "No data";
  const range = `${formatLabel(labels[0])} to ${formatLabel(labels[labels.length - 1])}`;
  const totals = series.map((s) => `${s.values.reduce((a, b) => a + b, 0).toLocaleString()} ${s.label.toLowerCase()}`).join(", ");
  return `${range}: ${totals}`;
}

/** The chart as one named image with its summary (Recharts' own SVG is not an image to screen readers). */
function Figure({ title, desc, children }: { title: string; desc: string; children: ReactNode }) {
  const id = useId();
  return (
    <div role="img" aria-label={title} aria-describedby={`${id}-d`} className="w-full">
      <span id={`${id}-d`} className="sr-only">
        {desc}
      </span>
      {children}
    </div>
  );
}

const axes = (
  <>
    <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e5e7eb" />
    <XAxis dataKey="label" tick={{ fontSize: 11 }} interval="preserveStartEnd" minTickGap={16} />
    <YAxis allowDecimals={false} tick={{ fontSize: 11 }} width={40} />
  </>
);

/** One line per series, a dot per bucket (when they fit). */
export function LineChart({ title, labels, series, formatLabel = (l) => l, height = 220 }: ChartProps) {
  const rows = rowsOf(labels, series, formatLabel);
  const dots = labels.length <= 31;
  return (
    <Figure title={title} desc={summary(series, labels, formatLabel)}>
      <RLineChart responsive style={{ width: "100%", height }} data={rows} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
        {axes}
        <Tooltip />
        {series.map((s, k) => (
          <Line
            key={s.label}
            dataKey={keyOf(k)}
            name={s.label}
            stroke={s.color}
            strokeWidth={2}
            dot={dots ? { r: 2.5, fill: s.color } : false}
            isAnimationActive={false}
          />
        ))}
      </RLineChart>
    </Figure>
  );
}

/** Bars stacked bottom-up in the order of `series`, with each bucket's total above its bar. */
export function StackedBarChart({ title, labels, series, formatLabel = (l) => l, height = 220 }: ChartProps) {
  const rows = rowsOf(labels, series, formatLabel);
  return (
    <Figure title={title} desc={summary(series, labels, formatLabel)}>
      <BarChart responsive style={{ width: "100%", height }} data={rows} margin={{ top: 16, right: 12, bottom: 0, left: 0 }}>
        {axes}
        <Tooltip />
        {series.map((s, k) => (
          <Bar key={s.label} dataKey={keyOf(k)} name={s.label} stackId="all" fill={s.color} maxBarSize={48} isAnimationActive={false}>
            {k === series.length - 1 && (
              <LabelList
                dataKey={TOTAL}
                position="top"
                fontSize={11}
                fill="#374151"
                formatter={(v: unknown) => (Number(v) > 0 ? Number(v).toLocaleString() : "")}
              />
            )}
          </Bar>
        ))}
      </BarChart>
    </Figure>
  );
}
