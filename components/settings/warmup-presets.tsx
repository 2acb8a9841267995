"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { ApiError, describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { type PresetClass, PRESET_NAMES, type Presets, putPreset, useWarmupPresets, warmupKeys } from "@/components/warmup/api";
import { SettingsFields } from "@/components/warmup/settings-fields";
import { DEFAULT_SETTINGS } from "@/lib/mailboxes/warmup-ramp";
import { type FieldErrors, parseSettings, settingsForm } from "@/components/warmup/settings-form";
import type { WarmupSettingsInput } from "@/lib/warmup/schemas";
import { SettingsNav } from "./settings-nav";

const CLASSES: PresetClass[] = ["GOOGLE", "MICROSOFT", "OTHER"];

const ABOUT: Record<PresetClass, string> = {
  GOOGLE: "Gmail and Google Workspace mailboxes.",
  MICROSOFT: "Outlook and Microsoft 365 mailboxes.",
  OTHER: "Every other provider, and mailboxes on their own SMTP/IMAP servers.",
};

const d = DEFAULT_SETTINGS;
const DEFAULTS_TEXT = `${d.startingVolume} a day, +${d.dailyIncrease} a day up to ${d.targetVolume}, ${d.replyRateMinPct}–${d.replyRateMaxPct} % answered`;

/**
 * Settings → Warmup presets: one preset per provider class. Starting warmup
 * without a setting takes it from the preset of the mailbox's class, then from the defaults.
 */
export function WarmupPresets() {
  const presets = useWarmupPresets();
  return (
    <div className="space-y-6">
      <div className="space-y-3">
        <div>
          <p className="text-sm text-gray-500">Settings</p>
          <h1 className="text-xl font-semibold text-gray-900">Warmup presets</h1>
        </div>
        <SettingsNav active="warmup-presets" />
        <p className="max-w-2xl text-sm text-gray-600">
          When warmup starts on a mailbox, each setting it is not given comes from the preset of the mailbox&apos;s provider, then from the
          defaults ({DEFAULTS_TEXT}). A preset may set only some fields. Mailboxes already warming keep their own settings.
        </p>
      </div>
      {presets.error && <Alert tone="error">Could not load the presets: {describeError(presets.error)}</Alert>}
      {presets.isPending && <p className="text-sm text-gray-600">Loading…</p>}
      {presets.data && CLASSES.map((cls) => <PresetForm key={cls} cls={cls} preset={presets.data[cls]} />)}
    </div>
  );
}

function PresetForm({ cls, preset }: { cls: PresetClass; preset: Presets[PresetClass] }) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState(() => settingsForm(preset));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saved, setSaved] = useState<string>();
  const name = PRESET_NAMES[cls];
  const save = useMutation({
    mutationFn: (body: WarmupSettingsInput) => putPreset(cls, body),
    onSuccess: (r, body) => {
      queryClient.setQueryData(warmupKeys.presets, r.presets);
      // The form shows what was saved (a cleared preset: blank fields, the defaults as placeholders).
      setForm(settingsForm(r.presets[cls]));
      setSaved(Object.keys(body).length ? `${name} preset saved.` : `${name} preset cleared.`);
    },
  });
  const serverErrors = save.error instanceof ApiError ? save.error.fieldErrors : {};

  function submit(e: FormEvent) {
    e.preventDefault();
    setSaved(undefined);
    const { body, fieldErrors } = parseSettings(form);
    setErrors(fieldErrors);
    if (Object.keys(fieldErrors).length === 0) save.mutate(body);
  }

  return (
    <form aria-label={`${name} preset`} noValidate onSubmit={submit} className="space-y-3 rounded-lg border border-gray-200 bg-white p-4">
      <div>
        <h2 className="text-sm font-semibold text-gray-900">{name}</h2>
        <p className="text-xs text-gray-500">
          {ABOUT[cls]} {preset ? "" : "No preset: the defaults apply."}
        </p>
      </div>
      <SettingsFields form={form} onChange={setForm} errors={{ ...serverErrors, ...errors }} fallback={DEFAULT_SETTINGS} />
      {save.error && !Object.keys(serverErrors).length && <Alert tone="error">{describeError(save.error)}</Alert>}
      {saved && (
        <p role="status" className="text-sm text-green-700">
          {saved}
        </p>
      )}
      <div className="flex gap-2">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving…" : `Save ${name} preset`}
        </Button>
        {preset && (
          <Button
            variant="secondary"
            disabled={save.isPending}
            onClick={() => {
              setErrors({});
              setSaved(undefined);
              save.mutate({});
            }}
          >
            Clear
          </Button>
        )}
      </div>
    </form>
  );
}
