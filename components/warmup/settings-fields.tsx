import { Field, Input } from "@/components/ui/input";
import type { WarmupSettings } from "@/lib/mailboxes/warmup-ramp";
import { SETTING_FIELDS } from "@/lib/mailboxes/warmup-ramp";
import { type FieldErrors, SETTING_LABELS, type SettingsForm } from "./settings-form";

/**
 * The five warmup settings as number fields, each with its range and its errors. `fallback` is what
 * a blank field becomes (the preset, then the default), shown as the placeholder.
 */
export function SettingsFields({
  form,
  onChange,
  errors,
  fallback,
  idPrefix,
}: {
  form: SettingsForm;
  onChange: (form: SettingsForm) => void;
  errors: FieldErrors;
  fallback?: Partial<WarmupSettings>;
  /** Tells the fields of one form from another's on the same page (for tests and labels). */
  idPrefix?: string;
}) {
  return (
    <div className="grid grid-cols-2 gap-3 md:grid-cols-5">
      {SETTING_FIELDS.map((f) => {
        const meta = SETTING_LABELS[f];
        return (
          <Field key={f} label={meta.label} errors={errors[f]} hint={meta.hint}>
            <Input
              id={idPrefix ? `${idPrefix}-${f}` : undefined}
              name={f}
              type="number"
              inputMode="numeric"
              step={1}
              min={meta.min}
              max={meta.max}
              value={form[f]}
              placeholder={fallback?.[f] === undefined ? undefined : String(fallback[f])}
              aria-invalid={errors[f]?.length ? true : undefined}
              onChange={(e) => onChange({ ...form, [f]: e.target.value })}
            />
          </Field>
        );
      })}
    </div>
  );
}
