import { useId } from "react";

/**
 * Small inline-SVG charts (no chart library): a line chart and a stacked bar chart over the same
 * x axis of labelled buckets (days). Each bucket has a hover target whose <title> lists its values, the
 * SVG is role="img" with a summary, and the legend is plain HTML.
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

const W = 720;
const PAD = { top: 18, right: 12, bottom: 26, left: 40 };

/** An axis top and step: 1, 2 or 5 × 10^k per step, whole numbers (these are counts). */
function scale(max: number): { top: number; step: number } {
  if (max <= 4) return { top: 4, step: 1 };
  const raw = max / 4;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const whole = Math.max(1, Math.round(step));
  return { top: whole * Math.ceil(max / whole), step: whole };
}

interface Geometry {
  x: (i: number) => number;
  y: (v: number) => number;
  band: number;
  baseline: number;
}

function geometry(n: number, max: number, height: number) {
  const { top, step } = scale(max);
  const innerW = W - PAD.left - PAD.right;
  const innerH = height - PAD.top - PAD.bottom;
  const band = innerW / Math.max(1, n);
  const g: Geometry = {
    x: (i) => PAD.left + band * i + band / 2,
    y: (v) => PAD.top + innerH - (v / top) * innerH,
    band,
    baseline: PAD.top + innerH,
  };
  const ticks = Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step);
  return { g, ticks };
}

/** Every k-th label, so that at most about 10 fit under the axis. */
function labelEvery(n: number): number {
  return Math.max(1, Math.ceil(n / 10));
}

function Axes({ labels, ticks, g, formatLabel }: { labels: string[]; ticks: number[]; g: Geometry; formatLabel: (l: string) => string }) {
  const every = labelEvery(labels.length);
  return (
    <g aria-hidden="true" fontSize="11" fill="#6b7280">
      {ticks.map((t) => (
        <g key={t}>
          <line x1={PAD.left} x2={W - PAD.right} y1={g.y(t)} y2={g.y(t)} stroke={t === 0 ? "#9ca3af" : "#e5e7eb"} strokeWidth="1" />
          <text x={PAD.left - 6} y={g.y(t)} textAnchor="end" dominantBaseline="middle">
            {t.toLocaleString()}
          </text>
        </g>
      ))}
      {labels.map((l, i) =>
        (labels.length - 1 - i) % every === 0 ? (
          <text key={l} x={g.x(i)} y={g.baseline + 16} textAnchor="middle">
            {formatLabel(l)}
          </text>
        ) : null,
      )}
    </g>
  );
}

/** A transparent column over each bucket whose tooltip lists every series' value. */
function HoverTargets({
  labels,
  series,
  g,
  height,
  formatLabel,
}: {
  labels: string[];
  series: ChartSeries[];
  g: Geometry;
  height: number;
  formatLabel: (l: string) => string;
}) {
  return (
    <g>
      {labels.map((l, i) => (
        <rect
          key={l}
          x={g.x(i) - g.band / 2}
          y={PAD.top}
          width={g.band}
          height={height - PAD.top - PAD.bottom}
          fill="transparent"
          className="hover:fill-gray-900/5"
        >
          <title>{`${formatLabel(l)}\n${series.map((s) => `${s.label}: ${(s.values[i] ?? 0).toLocaleString()}`).join("\n")}`}</title>
        </rect>
      ))}
    </g>
  );
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

/** One line per series, a dot per bucket (when they fit). */
export function LineChart({ title, labels, series, formatLabel = (l) => l, height = 220 }: ChartProps) {
  const id = useId();
  const max = Math.max(0, ...series.flatMap((s) => s.values));
  const { g, ticks } = geometry(labels.length, max, height);
  const dots = labels.length <= 31;
  return (
    <svg viewBox={`0 0 ${W} ${height}`} className="h-auto w-full" role="img" aria-labelledby={`${id}-t ${id}-d`}>
      <title id={`${id}-t`}>{title}</title>
      <desc id={`${id}-d`}>{summary(series, labels, formatLabel)}</desc>
      <Axes labels={labels} ticks={ticks} g={g} formatLabel={formatLabel} />
      {series.map((s) => (
        <g key={s.label} aria-hidden="true">
          <polyline
            points={s.values.map((v, i) => `${g.x(i)},${g.y(v)}`).join(" ")}
            fill="none"
            stroke={s.color}
            strokeWidth="2"
            strokeLinejoin="round"
            strokeLinecap="round"
          />
          {dots && s.values.map((v, i) => <circle key={i} cx={g.x(i)} cy={g.y(v)} r="2.5" fill={s.color} />)}
        </g>
      ))}
      <HoverTargets labels={labels} series={series} g={g} height={height} formatLabel={formatLabel} />
    </svg>
  );
}

/** Bars stacked bottom-up in the order of `series`, with each bucket's total above its bar. */
export function StackedBarChart({ title, labels, series, formatLabel = (l) => l, height = 220 }: ChartProps) {
  const id = useId();
  const totals = labels.map((_, i) => series.reduce((a, s) => a + (s.values[i] ?? 0), 0));
  const max = Math.max(0, ...totals);
  const { g, ticks } = geometry(labels.length, max, height);
  const barW = Math.min(48, g.band * 0.6);
  return (
    <svg viewBox={`0 0 ${W} ${height}`} className="h-auto w-full" role="img" aria-labelledby={`${id}-t ${id}-d`}>
      <title id={`${id}-t`}>{title}</title>
      <desc id={`${id}-d`}>{summary(series, labels, formatLabel)}</desc>
      <Axes labels={labels} ticks={ticks} g={g} formatLabel={formatLabel} />
      <g aria-hidden="true">
        {labels.map((l, i) => {
          let acc = 0;
          return (
            <g key={l}>
              {series.map((s) => {
                const v = s.values[i] ?? 0;
                const y0 = g.y(acc);
                acc += v;
                const y1 = g.y(acc);
                return v > 0 ? (
                  <rect key={s.label} x={g.x(i) - barW / 2} y={y1} width={barW} height={Math.max(0, y0 - y1)} fill={s.color} />
                ) : null;
              })}
              {totals[i] > 0 && (
                <text x={g.x(i)} y={g.y(totals[i]) - 4} textAnchor="middle" fontSize="11" fill="#374151">
                  {totals[i].toLocaleString()}
                </text>
              )}
            </g>
          );
        })}
      </g>
      <HoverTargets labels={labels} series={series} g={g} height={height} formatLabel={formatLabel} />
    </svg>
  );
}
