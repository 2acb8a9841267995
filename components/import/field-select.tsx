"use client";

import { Select } from "@/components/ui/input";
import type { FieldTarget, MappingField } from "./field-mapping";

/** The "Import as" select of one column: one of the fields, or Ignore. */
export function FieldSelect<K extends string>({
  header,
  fields,
  value,
  onChange,
}: {
  header: string;
  fields: readonly MappingField<K>[];
  value: FieldTarget<K>;
  onChange: (target: FieldTarget<K>) => void;
}) {
  return (
    <Select
      aria-label={`Import column ${header} as`}
      value={value}
      onChange={(e) => onChange(e.target.value as FieldTarget<K>)}
      className="w-48 max-w-full"
    >
      {fields.map((f) => (
        <option key={f.key} value={f.key}>
          {f.label}
        </option>
      ))}
      <option value="ignore">Ignore</option>
    </Select>
  );
}
