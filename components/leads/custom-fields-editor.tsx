"use client";

import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";

/** One editable custom field; `id` is the row's React key (stable while rows above it are removed). */
export type CustomRow = { id: number; key: string; value: string };

let nextRowId = 0;
export const customRow = (key = "", value = ""): CustomRow => ({ id: nextRowId++, key, value });

/** The named rows as a customFields object (rows without a name are left out; the last of a name wins). */
export function customFieldsOf(rows: CustomRow[]): Record<string, string> {
  return Object.fromEntries(rows.filter((r) => r.key.trim()).map((r) => [r.key.trim(), r.value]));
}

/**
 * Key/value rows for a lead's custom fields, with the API's messages for them (`fieldErrors` keys that
 * start with `prefix`, e.g. `customFields` or `leads.0.customFields`).
 */
export function CustomFieldsEditor({
  rows,
  onChange,
  fieldErrors,
  prefix = "customFields",
}: {
  rows: CustomRow[];
  onChange: (rows: CustomRow[]) => void;
  fieldErrors: Record<string, string[]>;
  prefix?: string;
}) {
  const set = (id: number, patch: Partial<CustomRow>) => onChange(rows.map((r) => (r.id === id ? { ...r, ...patch } : r)));
  const errors = Object.entries(fieldErrors).filter(([k]) => k.startsWith(prefix));
  return (
    <div className="space-y-2">
      <p className="text-sm font-medium text-gray-700">Custom fields</p>
      {rows.map((row) => (
        <div key={row.id} className="flex gap-2">
          <Input
            aria-label="Custom field name"
            placeholder="name"
            value={row.key}
            onChange={(e) => set(row.id, { key: e.target.value })}
            className="w-32 sm:w-48"
          />
          <Input
            aria-label={`Value of ${row.key || "custom field"}`}
            placeholder="value"
            value={row.value}
            onChange={(e) => set(row.id, { value: e.target.value })}
            className="min-w-0 flex-1"
          />
          <Button
            variant="ghost"
            aria-label={`Remove ${row.key || "custom field"}`}
            onClick={() => onChange(rows.filter((r) => r.id !== row.id))}
          >
            ✕
          </Button>
        </div>
      ))}
      {errors.map(([k, msgs]) => (
        <p key={k} className="text-xs text-red-600">
          {k.slice(prefix.length).replace(/^\./, "") || "Custom fields"}: {msgs.join(", ")}
        </p>
      ))}
      <Button variant="secondary" size="sm" onClick={() => onChange([...rows, customRow()])}>
        Add custom field
      </Button>
    </div>
  );
}
