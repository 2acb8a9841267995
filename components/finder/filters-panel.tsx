"use client";

import { useState } from "react";
import { describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/input";
import type { FacetName } from "@/lib/finder/schemas";
import { type Facets, type FinderFilters, useAiSearch } from "./queries";

const FACET_LABELS: Record<FacetName, string> = {
  seniorities: "Seniority",
  departments: "Department",
  companySizes: "Company size",
  industries: "Industry",
  countries: "Country",
  technologies: "Technologies",
  domains: "Company domain",
};
const SHOWN: FacetName[] = ["seniorities", "departments", "companySizes", "industries", "countries", "technologies"];

type ListFilter = Exclude<keyof FinderFilters, "keywords">;

/** Toggles one value of a list filter; an emptied list is dropped (no filter). */
export function toggleValue(f: FinderFilters, name: ListFilter, value: string): FinderFilters {
  const list = (f[name] as string[] | undefined) ?? [];
  const next = list.includes(value) ? list.filter((v) => v !== value) : [...list, value];
  const out = { ...f } as Record<string, unknown>;
  if (next.length) out[name] = next;
  else delete out[name];
  return out as FinderFilters;
}

/** The filters: a sentence for AI search, keywords and titles, and each facet's values with their counts. */
export function FiltersPanel({
  filters,
  facets,
  onChange,
}: {
  filters: FinderFilters;
  facets: Facets | undefined;
  onChange: (f: FinderFilters) => void;
}) {
  const [title, setTitle] = useState("");
  return (
    <aside className="min-w-0 space-y-4" aria-label="Filters">
      <AiSearchForm onChange={onChange} />
      <Field label="Keywords">
        <Input
          value={filters.keywords ?? ""}
          onChange={(e) => onChange({ ...filters, keywords: e.target.value || undefined })}
          placeholder="Name, title or company"
        />
      </Field>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (title.trim()) onChange(toggleValue(filters, "titles", title.trim()));
          setTitle("");
        }}
      >
        <Field
          label="Job title"
          hint={filters.titles?.length ? `Any of: ${filters.titles.join(", ")} (click a title to remove it below)` : "Press Enter to add"}
        >
          <Input value={title} onChange={(e) => setTitle(e.target.value)} placeholder="Head of Sales" />
        </Field>
        {filters.titles?.map((t) => (
          <button
            key={t}
            type="button"
            className="mr-1 mt-1 rounded bg-indigo-50 px-2 py-0.5 text-xs"
            onClick={() => onChange(toggleValue(filters, "titles", t))}
          >
            {t} ×
          </button>
        ))}
      </form>
      {SHOWN.map((name) => (
        <fieldset key={name} className="space-y-1" data-testid={`facet-${name}`}>
          <legend className="text-sm font-medium text-gray-900">{FACET_LABELS[name]}</legend>
          {(facets?.[name] ?? []).map(({ value, count }) => (
            <label key={value} className="flex items-center justify-between gap-2 text-sm text-gray-700">
              <span className="flex items-center gap-2">
                <input
                  type="checkbox"
                  checked={((filters[name] as string[] | undefined) ?? []).includes(value)}
                  onChange={() => onChange(toggleValue(filters, name, value))}
                />
                {value}
              </span>
              <span className="text-xs text-gray-500">{count.toLocaleString()}</span>
            </label>
          ))}
          {facets && !facets[name]?.length && <p className="text-xs text-gray-500">No values</p>}
        </fieldset>
      ))}
    </aside>
  );
}

/** A sentence read into filters, by the AI provider or the built-in rules. */
function AiSearchForm({ onChange }: { onChange: (f: FinderFilters) => void }) {
  const [sentence, setSentence] = useState("");
  const ai = useAiSearch(onChange);
  return (
    <form
      className="space-y-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (sentence.trim()) ai.mutate(sentence);
      }}
    >
      <Field label="Describe who you are looking for">
        <Input value={sentence} onChange={(e) => setSentence(e.target.value)} placeholder="VP of Sales at SaaS companies in the UK" />
      </Field>
      <Button type="submit" disabled={ai.isPending}>
        {ai.isPending ? "Searching…" : "AI search"}
      </Button>
      {ai.data && (
        <p className="text-xs text-gray-600">Filters read by {ai.data.source === "ai" ? "the AI provider" : "the built-in rules"}.</p>
      )}
      {ai.error && <Alert tone="error">{describeError(ai.error)}</Alert>}
    </form>
  );
}
