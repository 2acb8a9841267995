import { cn } from "./cn";

/**
 * A row of labelled checkboxes that picks several values (a multi-select that needs no popover):
 * each box is reachable by its own label, and the group is named by `legend`.
 */
export function CheckboxGroup<T extends string | number>({
  legend,
  options,
  value,
  onChange,
  hideLegend,
  className,
}: {
  legend: string;
  options: { value: T; label: string }[];
  value: T[];
  onChange: (value: T[]) => void;
  /** Keep the legend for screen readers only (when the row sits next to other filters). */
  hideLegend?: boolean;
  className?: string;
}) {
  const toggle = (v: T) => onChange(value.includes(v) ? value.filter((x) => x !== v) : [...value, v]);
  return (
    <fieldset className={cn("flex flex-wrap items-center gap-x-3 gap-y-1", className)}>
      <legend className={hideLegend ? "sr-only" : "mb-1 text-sm font-medium text-gray-700"}>{legend}</legend>
      {options.map((o) => (
        <label key={String(o.value)} className="inline-flex items-center gap-1.5 text-sm text-gray-800">
          <input type="checkbox" checked={value.includes(o.value)} onChange={() => toggle(o.value)} />
          {o.label}
        </label>
      ))}
    </fieldset>
  );
}
