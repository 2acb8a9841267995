/** A determinate progress bar; `label` names what is counted (screen readers read it). */
export function Progress({ value, max, label }: { value: number; max: number; label: string }) {
  const pct = max > 0 ? Math.min(100, Math.round((value / max) * 100)) : 0;
  return (
    <div className="space-y-1">
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={max}
        aria-valuenow={value}
        className="h-2 w-full overflow-hidden rounded-full bg-gray-200"
      >
        <div className="h-full rounded-full bg-indigo-600 transition-[width] duration-300" style={{ width: `${pct}%` }} />
      </div>
      <p className="text-xs text-gray-600" data-testid="progress-text">
        {value.toLocaleString()} / {max.toLocaleString()} {label} ({pct}%)
      </p>
    </div>
  );
}
