"use client";

import type { FinderFilters } from "./queries";

/** What each filter is called on its chips. */
const LABELS: Record<keyof FinderFilters, string> = {
  titles: "Title",
  seniorities: "Seniority",
  departments: "Department",
  industries: "Industry",
  companySizes: "Company size",
  countries: "Country",
  domains: "Company domain",
  technologies: "Technology",
  keywords: "Keywords",
};
const ORDER = Object.keys(LABELS) as (keyof FinderFilters)[];

/** The filters in force as chips (what an AI search read, what was ticked), each removable, and "Clear all". */
export function ActiveFilters({ filters, onChange }: { filters: FinderFilters; onChange: (f: FinderFilters) => void }) {
  const chips = ORDER.flatMap((name) => {
    const v = filters[name];
    const values = Array.isArray(v) ? (v as string[]) : v ? [v] : [];
    return values.map((value) => ({ name, value }));
  });
  if (chips.length === 0) return null;
  const remove = (name: keyof FinderFilters, value: string) => {
    const out = { ...filters } as Record<string, unknown>;
    const v = filters[name];
    const rest = Array.isArray(v) ? (v as string[]).filter((x) => x !== value) : [];
    if (rest.length) out[name] = rest;
    else delete out[name];
    onChange(out as FinderFilters);
  };
  return (
    <ul className="flex flex-wrap items-center gap-1.5" aria-label="Filters in use" data-testid="active-filters">
      {chips.map(({ name, value }) => (
        <li key={`${name}:${value}`}>
          <button
            type="button"
            className="inline-flex max-w-full items-center gap-1 rounded-full border border-indigo-200 bg-indigo-50 px-2.5 py-0.5 text-xs text-indigo-900 hover:bg-indigo-100"
            aria-label={`Remove ${LABELS[name]}: ${value}`}
            data-testid={`filter-${name}`}
            onClick={() => remove(name, value)}
          >
            <span className="font-medium">{LABELS[name]}:</span>
            <span className="truncate">{value}</span>
            <span aria-hidden>×</span>
          </button>
        </li>
      ))}
      <li>
        <button type="button" className="px-1 text-xs text-gray-600 underline hover:text-gray-900" onClick={() => onChange({})}>
          Clear all
        </button>
      </li>
    </ul>
  );
}
