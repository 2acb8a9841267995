"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { ApiError, data, client } from "@/components/api-client";
import { keys, useRefreshCampaign, useTimezones } from "./queries";
import type { CampaignSettings } from "./types";

/** What the form edits: numbers as the text of their inputs, so a field can be empty while typing. */
export interface Form {
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
  skipHolidays: boolean;
  oooResume: boolean;
  /** YYYY-MM-DD days, one per line or separated by commas. */
  blackoutDates: string;
  oooDefaultPauseDays: string;
  /** "" = the workspace's default tracking domain (else the shared host). */
  trackingDomainId: string;
}

type Flag =
  | "trackOpens"
  | "trackClicks"
  | "stopOnReply"
  | "stopOnAutoReply"
  | "unsubscribeHeader"
  | "textOnly"
  | "abVariantOptimization"
  | "skipHolidays"
  | "oooResume";

export const FLAGS: { key: Flag; label: string; hint: string }[] = [
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

/** The days-off switches, shown with the blackout dates. */
export const DAY_FLAGS: { key: Flag; label: string; hint: string }[] = [
  {
    key: "skipHolidays",
    label: "Skip public holidays",
    hint: "Nothing is sent on a public holiday of the lead's country (its country field, else its timezone's country).",
  },
  {
    key: "oooResume",
    label: "Resume after out-of-office",
    hint: "An out-of-office reply pauses the lead until the date it says it is back (unless Stop on auto-reply is on).",
  },
];

/** Blackout dates as typed: one per line or separated by commas or spaces. */
export const blackoutList = (v: string) =>
  v
    .split(/[\s,]+/)
    .map((d) => d.trim())
    .filter(Boolean);

export const pad = (n: number) => String(n).padStart(2, "0");

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
    skipHolidays: s.skipHolidays,
    oooResume: s.oooResume,
    blackoutDates: s.blackoutDates.join("\n"),
    oooDefaultPauseDays: String(s.oooDefaultPauseDays),
    trackingDomainId: s.trackingDomainId ?? "",
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
  for (const { key } of [...FLAGS, ...DAY_FLAGS]) if (after[key] !== before[key]) body[key] = after[key];
  if (blackoutList(after.blackoutDates).join() !== blackoutList(before.blackoutDates).join())
    body.blackoutDates = blackoutList(after.blackoutDates);
  if (after.oooDefaultPauseDays !== before.oooDefaultPauseDays) body.oooDefaultPauseDays = numberOrNull(after.oooDefaultPauseDays);
  if (after.trackingDomainId !== before.trackingDomainId) body.trackingDomainId = after.trackingDomainId || null;
  return body;
}

/**
 * The settings form's state: the edited values, what differs from the saved settings (only that is sent),
 * the save call with its field errors, and the "Settings saved." note until the next edit.
 */
export function useSettingsForm(campaignId: string, saved: CampaignSettings) {
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
  function discard() {
    setForm(initial);
    save.reset();
  }

  return { timezones, form, set, savedNote, dirty, save, fe, submit, discard };
}

export type SettingsFormState = ReturnType<typeof useSettingsForm>;
