"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent, type ReactNode } from "react";
import { ApiError, describeError, data, client } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CheckboxGroup } from "@/components/ui/checkbox-group";
import { Field, Input, Select } from "@/components/ui/input";
import { DAYS } from "./labels";
import { keys, useRefreshCampaign, useSettings, useTimezones } from "./queries";
import type { CampaignSettings } from "./types";

/** What the form edits: numbers as the text of their inputs, so a field can be empty while typing. */
interface Form {
  name: string;
  folder: string;
  sendWindowStartHour: number;
  sendWindowEndHour: number;
  sendDaysOfWeek: number[];
  startAt: string; // datetime-local value, in the browser's timezone; "" = none
  dailyNewLeadCap: string; // "" = no cap
  defaultTimezone: string; // "" = none
  minGapMinutes: string;
  trackOpens: boolean;
  trackClicks: boolean;
  stopOnReply: boolean;
  stopOnAutoReply: boolean;
  unsubscribeHeader: boolean;
  textOnly: boolean;
  abVariantOptimization: boolean;
  espMatching: CampaignSettings["espMatching"];
}

type Flag = "trackOpens" | "trackClicks" | "stopOnReply" | "stopOnAutoReply" | "unsubscribeHeader" | "textOnly" | "abVariantOptimization";

const FLAGS: { key: Flag; label: string; hint: string }[] = [
  { key: "trackOpens", label: "Track opens", hint: "Adds a tracking pixel; plain-text steps then also get an HTML part." },
  { key: "trackClicks", label: "Track clicks", hint: "Links go through a redirect that counts the click." },
  { key: "stopOnReply", label: "Stop on reply", hint: "A lead who replies gets no more follow-ups." },
  { key: "stopOnAutoReply", label: "Stop on auto-reply", hint: "Out-of-office answers also stop the sequence." },
  {
    key: "unsubscribeHeader",
    label: "One-click unsubscribe header",
    hint: "List-Unsubscribe and List-Unsubscribe-Post (RFC 8058), which Gmail and Yahoo expect from bulk senders.",
  },
  { key: "textOnly", label: "Text only", hint: "Send plain text only: no HTML part, so no open tracking." },
  {
    key: "abVariantOptimization",
    label: "A/B optimisation",
    hint: "The variant pick leans toward the variant with the better reply rate; off: picked at random.",
  },
];

const pad = (n: number) => String(n).padStart(2, "0");

/** An ISO instant as the value of a datetime-local input, in the browser's timezone. */
function toLocalInput(iso: string | null): string {
  if (!iso) return "";
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function formOf(s: CampaignSettings): Form {
  return {
    name: s.name,
    folder: s.folder ?? "",
    sendWindowStartHour: s.sendWindowStartHour,
    sendWindowEndHour: s.sendWindowEndHour,
    sendDaysOfWeek: s.sendDaysOfWeek,
    startAt: toLocalInput(s.startAt),
    dailyNewLeadCap: s.dailyNewLeadCap === null ? "" : String(s.dailyNewLeadCap),
    defaultTimezone: s.defaultTimezone ?? "",
    minGapMinutes: String(s.minGapMinutes),
    trackOpens: s.trackOpens,
    trackClicks: s.trackClicks,
    stopOnReply: s.stopOnReply,
    stopOnAutoReply: s.stopOnAutoReply,
    unsubscribeHeader: s.unsubscribeHeader,
    textOnly: s.textOnly,
    abVariantOptimization: s.abVariantOptimization,
    espMatching: s.espMatching,
  };
}

/** A number field's text as the API wants it: the number, null when empty, or the raw text so the API names the problem. */
function numberOrNull(v: string): number | null | string {
  if (!v.trim()) return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : v;
}

/** Only what changed is sent: PATCH settings changes the sent fields only. */
function changes(before: Form, after: Form): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (after.name.trim() !== before.name) body.name = after.name.trim();
  if (after.folder.trim() !== before.folder) body.folder = after.folder.trim() || null;
  if (after.sendWindowStartHour !== before.sendWindowStartHour) body.sendWindowStartHour = after.sendWindowStartHour;
  if (after.sendWindowEndHour !== before.sendWindowEndHour) body.sendWindowEndHour = after.sendWindowEndHour;
  const days = (d: number[]) => [...d].sort((a, b) => a - b);
  if (days(after.sendDaysOfWeek).join() !== days(before.sendDaysOfWeek).join()) body.sendDaysOfWeek = days(after.sendDaysOfWeek);
  // The picked local time, sent as an instant with its offset (toISOString writes UTC, "Z").
  if (after.startAt !== before.startAt) body.startAt = after.startAt ? new Date(after.startAt).toISOString() : null;
  if (after.dailyNewLeadCap !== before.dailyNewLeadCap) body.dailyNewLeadCap = numberOrNull(after.dailyNewLeadCap);
  if (after.defaultTimezone !== before.defaultTimezone) body.defaultTimezone = after.defaultTimezone || null;
  if (after.minGapMinutes !== before.minGapMinutes) body.minGapMinutes = numberOrNull(after.minGapMinutes) ?? 0;
  if (after.espMatching !== before.espMatching) body.espMatching = after.espMatching;
  for (const { key } of FLAGS) if (after[key] !== before[key]) body[key] = after[key];
  return body;
}

export function SettingsTab({ campaignId }: { campaignId: string }) {
  const settings = useSettings(campaignId);
  if (settings.error) return <Alert tone="error">Could not load the settings: {describeError(settings.error)}</Alert>;
  if (!settings.data) return <p className="text-sm text-gray-500">Loading…</p>;
  return <SettingsForm campaignId={campaignId} saved={settings.data} />;
}

function SettingsForm({ campaignId, saved }: { campaignId: string; saved: CampaignSettings }) {
  const queryClient = useQueryClient();
  const refresh = useRefreshCampaign(campaignId);
  const timezones = useTimezones();
  const initial = formOf(saved);
  const [form, setForm] = useState<Form>(initial);
  const [savedNote, setSavedNote] = useState(false);
  const set = <K extends keyof Form>(k: K, v: Form[K]) => {
    setSavedNote(false);
    setForm((f) => ({ ...f, [k]: v }));
  };
  const body = changes(initial, form);
  const dirty = Object.keys(body).length > 0;

  const save = useMutation({
    // The answer is the whole campaign, settings included.
    mutationFn: () => data(client.PATCH("/campaigns/{id}/settings", { params: { path: { id: campaignId } }, body })),
    onSuccess: async (updated) => {
      setSavedNote(true);
      setForm(formOf(updated));
      queryClient.setQueryData(keys.part(campaignId, "settings"), updated);
      await refresh();
    },
  });
  const fe = save.error instanceof ApiError ? save.error.fieldErrors : {};

  function submit(e: FormEvent) {
    e.preventDefault();
    if (dirty) save.mutate();
  }

  const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const hours = Array.from({ length: 25 }, (_, h) => h);

  return (
    <form onSubmit={submit} className="max-w-3xl space-y-6" aria-label="Campaign settings">
      {save.error && <Alert tone="error">Could not save: {describeError(save.error)}</Alert>}
      {savedNote && !dirty && (
        <Alert tone="success">
          <span data-testid="settings-saved">Settings saved.</span>
        </Alert>
      )}

      <Section title="Campaign">
        <Field label="Name" errors={fe.name}>
          <Input required maxLength={200} value={form.name} onChange={(e) => set("name", e.target.value)} />
        </Field>
        <Field label="Folder" errors={fe.folder} hint="Empty: no folder.">
          <Input maxLength={100} value={form.folder} onChange={(e) => set("folder", e.target.value)} />
        </Field>
      </Section>

      <Section title="Schedule">
        <Field label="Send from (hour)" errors={fe.sendWindowStartHour}>
          <Select value={form.sendWindowStartHour} onChange={(e) => set("sendWindowStartHour", Number(e.target.value))}>
            {hours.slice(0, 24).map((h) => (
              <option key={h} value={h}>
                {pad(h)}:00
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Send until (hour)" errors={fe.sendWindowEndHour} hint="Exclusive: 17 means the last email goes out before 17:00.">
          <Select value={form.sendWindowEndHour} onChange={(e) => set("sendWindowEndHour", Number(e.target.value))}>
            {hours.slice(1).map((h) => (
              <option key={h} value={h}>
                {pad(h)}:00
              </option>
            ))}
          </Select>
        </Field>
        <div className="col-span-2 space-y-1">
          <CheckboxGroup legend="Sending days" options={DAYS} value={form.sendDaysOfWeek} onChange={(d) => set("sendDaysOfWeek", d)} />
          {fe.sendDaysOfWeek?.map((m) => (
            <p key={m} className="text-xs text-red-600">
              {m}
            </p>
          ))}
        </div>
        <Field
          label="Default timezone"
          errors={fe.defaultTimezone}
          hint="The window applies in each lead's own timezone; leads without one use this. With neither, a lead can be emailed at any hour."
        >
          <Select value={form.defaultTimezone} onChange={(e) => set("defaultTimezone", e.target.value)}>
            <option value="">No default timezone</option>
            {/* A saved zone that the list does not have (an alias) stays selectable. */}
            {form.defaultTimezone && !timezones.data?.some((z) => z.name === form.defaultTimezone) && (
              <option value={form.defaultTimezone}>{form.defaultTimezone}</option>
            )}
            {timezones.data?.map((z) => (
              <option key={z.name} value={z.name}>
                {z.name} (UTC{z.utcOffset})
              </option>
            ))}
          </Select>
        </Field>
        {timezones.error && <Alert tone="error">Could not load the timezones: {describeError(timezones.error)}</Alert>}
        <Field
          label="Start at (optional)"
          errors={fe.startAt}
          hint={`Nothing is sent before it. In your browser's timezone (${browserZone}); empty: start at once.`}
        >
          <Input type="datetime-local" value={form.startAt} onChange={(e) => set("startAt", e.target.value)} />
        </Field>
        <Field
          label="New leads per day"
          errors={fe.dailyNewLeadCap}
          hint="Most leads that get their first email per day (1–100,000); follow-ups are not counted. Empty: no cap."
        >
          <Input
            type="number"
            min={1}
            max={100000}
            step={1}
            value={form.dailyNewLeadCap}
            onChange={(e) => set("dailyNewLeadCap", e.target.value)}
          />
        </Field>
        <Field
          label="Minimum gap between emails (minutes)"
          errors={fe.minGapMinutes}
          hint="Per mailbox, plus random jitter of up to half of it; 0: no gap."
        >
          <Input
            type="number"
            min={0}
            max={1440}
            step="any"
            value={form.minGapMinutes}
            onChange={(e) => set("minGapMinutes", e.target.value)}
          />
        </Field>
      </Section>

      <Section title="Sending">
        <Field
          label="ESP matching"
          errors={fe.espMatching}
          hint="Pair leads with pool mailboxes of the same provider (Google to Google…): Prefer when one has room, Strict only then."
        >
          <Select value={form.espMatching} onChange={(e) => set("espMatching", e.target.value as Form["espMatching"])}>
            <option value="OFF">Off</option>
            <option value="PREFER">Prefer</option>
            <option value="STRICT">Strict</option>
          </Select>
        </Field>
        <div className="col-span-2 space-y-2">
          {FLAGS.map(({ key, label, hint }) => (
            <div key={key}>
              <label className="flex items-center gap-2 text-sm font-medium text-gray-800">
                <input type="checkbox" checked={form[key]} onChange={(e) => set(key, e.target.checked)} />
                {label}
              </label>
              <p className="ml-6 text-xs text-gray-500">{hint}</p>
              {fe[key]?.map((m) => (
                <p key={m} className="ml-6 text-xs text-red-600">
                  {m}
                </p>
              ))}
            </div>
          ))}
        </div>
      </Section>

      <div className="flex gap-2">
        <Button type="submit" disabled={!dirty || save.isPending}>
          {save.isPending ? "Saving…" : "Save settings"}
        </Button>
        <Button
          variant="secondary"
          disabled={!dirty || save.isPending}
          onClick={() => {
            setForm(initial);
            save.reset();
          }}
        >
          Discard changes
        </Button>
      </div>
    </form>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-3 rounded-lg border border-gray-200 bg-white p-4">
      <h2 className="text-sm font-semibold text-gray-900">{title}</h2>
      <div className="grid grid-cols-2 gap-4">{children}</div>
    </section>
  );
}
