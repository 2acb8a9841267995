"use client";

import { Field, Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { DAY_FLAGS, type SettingsFormState } from "./use-settings-form";

/** The API's messages for a list field and its items (`blackoutDates`, `blackoutDates.2`). */
const listErrors = (fe: Record<string, string[]>, key: string) =>
  Object.entries(fe).flatMap(([k, ms]) => (k === key || k.startsWith(`${key}.`) ? ms : []));

/** Public holidays, blackout dates and the out-of-office pause. */
export function DaysOffFields({ s }: { s: SettingsFormState }) {
  const { form, set, fe } = s;
  return (
    <>
      <div className="col-span-2 space-y-2">
        {DAY_FLAGS.map(({ key, label, hint }) => (
          <div key={key}>
            <label className="flex items-center gap-2 text-sm font-medium text-gray-800">
              <input type="checkbox" checked={form[key]} onChange={(e) => set(key, e.target.checked)} />
              {label}
            </label>
            <p className="ml-6 text-xs text-gray-500">{hint}</p>
          </div>
        ))}
      </div>
      <Field
        label="Blackout dates"
        errors={listErrors(fe, "blackoutDates")}
        hint="Days on which nothing is sent, in each lead's timezone: YYYY-MM-DD, one per line or separated by commas."
      >
        <Textarea rows={3} value={form.blackoutDates} onChange={(e) => set("blackoutDates", e.target.value)} placeholder="2026-12-24" />
      </Field>
      <Field
        label="Out-of-office pause without a date (days)"
        errors={fe.oooDefaultPauseDays}
        hint="How long a lead pauses when its out-of-office reply names no return date (1–90)."
      >
        <Input
          type="number"
          min={1}
          max={90}
          step={1}
          value={form.oooDefaultPauseDays}
          onChange={(e) => set("oooDefaultPauseDays", e.target.value)}
        />
      </Field>
    </>
  );
}
