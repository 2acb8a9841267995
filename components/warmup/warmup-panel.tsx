"use client";

import dynamic from "next/dynamic";
import { type FormEvent, useState } from "react";
import { ApiError, describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { dateTime } from "@/components/ui/time";
import type { MailboxView } from "@/lib/mailboxes/schemas";
import { presetClassOf, type WarmupSettings } from "@/lib/mailboxes/warmup-ramp";
import { PRESET_NAMES, useWarmupAction, useWarmupPresets, useWarmupReport } from "./api";
import { hasRamp, rampRows } from "./chart-rows";
import { SettingsFields } from "./settings-fields";
import { DEFAULT_SETTINGS } from "@/lib/mailboxes/warmup-ramp";
import { changedSettings, type FieldErrors, parseSettings, settingsForm } from "./settings-form";
import { WarmupBadge, WarmupToggle } from "./warmup-toggle";

/** Recharts is loaded when a panel opens, not with the mailboxes page. */
const RampChart = dynamic(() => import("./ramp-chart"), {
  ssr: false,
  loading: () => <div className="h-64 animate-pulse rounded bg-gray-50" />,
});

function Stat({ label, value, testId }: { label: string; value: string | number; testId: string }) {
  return (
    <div className="rounded-md border border-gray-200 px-3 py-2">
      <dt className="text-xs text-gray-500">{label}</dt>
      <dd data-testid={testId} className="text-lg font-semibold text-gray-900 tabular-nums">
        {value}
      </dd>
    </div>
  );
}

/**
 * One mailbox's warmup: status and switch, today's numbers, the 30-day ramp (target, sent, replied per
 * UTC day, from GET /deliverability/mailboxes/<id>), and the ramp's settings — start with them when it
 * never ran, else PATCH /warmup (the day reached is kept).
 */
export function WarmupPanel({ mailbox: m, onClose }: { mailbox: MailboxView; onClose: () => void }) {
  const report = useWarmupReport(m.id);

  // The report is read with the chart; until it arrives the table's row tells the same.
  const status = report.data?.warmupStatus ?? m.warmupStatus;
  const w = report.data ? report.data.warmup : m.warmup;
  const rows = report.data?.warmup ? rampRows(report.data.warmup.daily) : [];

  return (
    <Dialog open onClose={onClose} title={`Warmup of ${m.email}`} wide>
      <div className="space-y-5">
        <section aria-label="Warmup status" className="space-y-3">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <div className="flex items-center gap-2 text-sm text-gray-700">
              Status: <WarmupBadge status={status} />
            </div>
            <WarmupToggle mailbox={{ id: m.id, email: m.email, warmupStatus: status }} showBadge={false} />
          </div>
          {status === "AUTO_PAUSED" && (
            <Alert tone="warning">
              Warmup stopped because too many emails bounced. Turn sending back on (Edit → Resume sending) before resuming warmup.
            </Alert>
          )}
          <dl className="grid grid-cols-2 gap-2 md:grid-cols-4">
            <Stat label="Ramp day" value={w ? w.dayIndex : "—"} testId="warmup-day" />
            <Stat label="Today's target" value={w ? w.todayTarget : "—"} testId="warmup-today-target" />
            <Stat label="Sent today" value={w ? w.sentToday : "—"} testId="warmup-sent-today" />
            <Stat label="Replied today" value={w ? w.repliedToday : "—"} testId="warmup-replied-today" />
          </dl>
          <p className="text-xs text-gray-500">
            {w
              ? `Day 0 is the first day. Started ${dateTime(w.startedAt)}${w.pausedAt ? `, paused ${dateTime(w.pausedAt)}` : ""}. `
              : "Warmup was never started for this mailbox. "}
            Warms with {m.warmupGroup ? `group “${m.warmupGroup}”` : "the workspace's default network"} and the seed pool.
          </p>
        </section>

        <section aria-label="Ramp over 30 days" className="space-y-2">
          <h3 className="text-sm font-semibold text-gray-900">Last 30 days</h3>
          {report.error && <Alert tone="error">Could not load the ramp: {describeError(report.error)}</Alert>}
          {report.isPending && <div className="h-64 animate-pulse rounded bg-gray-50" />}
          {report.data && !hasRamp(report.data.warmup?.daily ?? []) && (
            <p className="text-sm text-gray-600">No warmup in the last 30 days yet.</p>
          )}
          {report.data && hasRamp(report.data.warmup?.daily ?? []) && (
            <>
              <RampChart rows={rows} />
              <details className="text-sm">
                <summary className="cursor-pointer text-gray-600">Daily numbers</summary>
                <table aria-label="Warmup per day" className="mt-2 w-full text-right text-xs tabular-nums">
                  <thead className="text-gray-500">
                    <tr>
                      <th className="text-left font-medium">Day (UTC)</th>
                      <th className="font-medium">Target</th>
                      <th className="font-medium">Sent</th>
                      <th className="font-medium">Replied</th>
                    </tr>
                  </thead>
                  <tbody>
                    {[...rows].reverse().map((r) => (
                      <tr key={r.date} className="border-t border-gray-100">
                        <td className="text-left">{r.date}</td>
                        <td>{r.target ?? "—"}</td>
                        <td>{r.sent}</td>
                        <td>{r.replied}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </details>
            </>
          )}
        </section>

        {/* Keyed: once the ramp exists (started here or by the switch), the form shows its settings. */}
        <RampSettingsForm key={w ? "ramp" : "none"} mailbox={m} ramp={w} onClose={onClose} />
      </div>
    </Dialog>
  );
}

/**
 * The ramp's five settings: before the first start, blank fields fall back to the preset of the
 * mailbox's provider class, then the defaults, and submitting starts warmup with them; afterwards the
 * changed fields go to PATCH /warmup.
 */
function RampSettingsForm({ mailbox: m, ramp: w, onClose }: { mailbox: MailboxView; ramp: WarmupSettings | null; onClose: () => void }) {
  const presets = useWarmupPresets();
  const save = useWarmupAction(m.id);
  const [form, setForm] = useState(() => settingsForm(w));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saved, setSaved] = useState<string>();
  const cls = presetClassOf(m.espClass);
  const preset = presets.data?.[cls] ?? null;
  const serverErrors = save.error instanceof ApiError ? save.error.fieldErrors : {};

  function submit(e: FormEvent) {
    e.preventDefault();
    setSaved(undefined);
    const { body, fieldErrors } = parseSettings(form);
    setErrors(fieldErrors);
    if (Object.keys(fieldErrors).length) return;
    if (!w) return save.mutate({ kind: "start", settings: body }, { onSuccess: () => setSaved("Warmup started at day 0.") });
    const changes = changedSettings(body, w);
    if (Object.keys(changes).length === 0) return setSaved("Nothing changed.");
    save.mutate({ kind: "patch", settings: changes }, { onSuccess: () => setSaved("Settings saved; the ramp keeps its day.") });
  }

  return (
    <form aria-label="Ramp settings" noValidate onSubmit={submit} className="space-y-3">
      <h3 className="text-sm font-semibold text-gray-900">Ramp settings</h3>
      <p className="text-xs text-gray-500">
        {w
          ? "Changes apply from today; the ramp keeps the day it reached."
          : `Blank fields use the ${PRESET_NAMES[cls]} preset (Settings → Warmup presets), then the defaults.`}
      </p>
      <SettingsFields
        form={form}
        onChange={setForm}
        errors={{ ...serverErrors, ...errors }}
        fallback={w ?? { ...DEFAULT_SETTINGS, ...preset }}
      />
      {save.error && !Object.keys(serverErrors).length && <Alert tone="error">{describeError(save.error)}</Alert>}
      {saved && !save.isPending && (
        <p role="status" className="text-sm text-green-700">
          {saved}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving…" : w ? "Save settings" : "Start warmup"}
        </Button>
      </div>
    </form>
  );
}
