"use client";

import type { ReactNode } from "react";
import { describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CheckboxGroup } from "@/components/ui/checkbox-group";
import { Field, Input, Select } from "@/components/ui/input";
import { DAYS } from "./labels";
import { useSettings } from "./queries";
import type { CampaignSettings } from "./types";
import { DaysOffFields } from "./settings-days-off";
import { TrackingDomainField } from "./settings-tracking-domain";
import { FLAGS, type Form, pad, type SettingsFormState, useSettingsForm } from "./use-settings-form";

type S = { s: SettingsFormState };

const hours = Array.from({ length: 25 }, (_, h) => h);

export function SettingsTab({ campaignId }: { campaignId: string }) {
  const settings = useSettings(campaignId);
  if (settings.error) return <Alert tone="error">Could not load the settings: {describeError(settings.error)}</Alert>;
  if (!settings.data) return <p className="text-sm text-gray-500">Loading…</p>;
  return <SettingsForm campaignId={campaignId} saved={settings.data} />;
}

function SettingsForm({ campaignId, saved }: { campaignId: string; saved: CampaignSettings }) {
  const s = useSettingsForm(campaignId, saved);
  const { form, set, fe, save, dirty } = s;

  return (
    <form onSubmit={s.submit} className="max-w-3xl space-y-6" aria-label="Campaign settings">
      {save.error && <Alert tone="error">Could not save: {describeError(save.error)}</Alert>}
      {s.savedNote && !dirty && (
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
        <WindowFields s={s} />
        <TimezoneField s={s} />
        <LimitFields s={s} />
      </Section>

      <Section title="Sending">
        <SendingFields s={s} />
        <TrackingDomainField s={s} />
      </Section>

      <Section title="Days off and out-of-office">
        <DaysOffFields s={s} />
      </Section>

      <div className="flex gap-2">
        <Button type="submit" disabled={!dirty || save.isPending}>
          {save.isPending ? "Saving…" : "Save settings"}
        </Button>
        <Button variant="secondary" disabled={!dirty || save.isPending} onClick={s.discard}>
          Discard changes
        </Button>
      </div>
    </form>
  );
}

/** The sending window's hours and the sending days. */
function WindowFields({ s }: S) {
  const { form, set, fe } = s;
  return (
    <>
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
    </>
  );
}

function TimezoneField({ s }: S) {
  const { form, set, fe, timezones } = s;
  return (
    <>
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
    </>
  );
}

/** The start time, the cap on new leads a day and the gap between emails. */
function LimitFields({ s }: S) {
  const { form, set, fe } = s;
  const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return (
    <>
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
    </>
  );
}

/** ESP matching and the on/off sending options. */
function SendingFields({ s }: S) {
  const { form, set, fe } = s;
  return (
    <>
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
    </>
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
