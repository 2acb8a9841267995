import { z } from "zod";
import { SETTING_FIELDS, type WarmupSettings } from "@/lib/mailboxes/warmup-ramp";
import { type WarmupSettingsInput, warmupSettingsBody } from "@/lib/warmup/schemas";

/**
 * The five warmup settings as a form (mailbox panel and Settings → Warmup presets): text fields where a
 * blank one is left out of the body, so the API fills it in (preset, then
 * default). Checked with the API's own schema before sending, so the messages are the server's.
 */

export type SettingField = (typeof SETTING_FIELDS)[number];
export type SettingsForm = Record<SettingField, string>;
export type FieldErrors = Partial<Record<string, string[]>>;

export const SETTING_LABELS: Record<SettingField, { label: string; hint: string; min: number; max: number }> = {
  startingVolume: { label: "Starting volume", hint: "Warmup emails on day 0 (1–50).", min: 1, max: 50 },
  dailyIncrease: { label: "Daily increase", hint: "Added each day of the ramp (0–10).", min: 0, max: 10 },
  targetVolume: { label: "Target volume", hint: "Emails a day the ramp climbs to (1–200).", min: 1, max: 200 },
  replyRateMinPct: { label: "Reply rate min (%)", hint: "Least share partners answer (0–100).", min: 0, max: 100 },
  replyRateMaxPct: { label: "Reply rate max (%)", hint: "Greatest share partners answer, not below the min.", min: 0, max: 100 },
};

/** The form showing these settings; a field the settings leave out is blank. */
export function settingsForm(s?: Partial<WarmupSettings> | null): SettingsForm {
  const form = {} as SettingsForm;
  for (const f of SETTING_FIELDS) form[f] = s?.[f] === undefined ? "" : String(s[f]);
  return form;
}

/**
 * The body the form stands for (blank fields left out), or the errors per field: a field that is not a
 * whole number, then the API's ranges and min ≤ max.
 */
export function parseSettings(form: SettingsForm): { body: WarmupSettingsInput; fieldErrors: FieldErrors } {
  const body: Record<string, number> = {};
  const fieldErrors: FieldErrors = {};
  for (const f of SETTING_FIELDS) {
    const text = form[f].trim();
    if (text === "") continue;
    if (!/^-?\d+$/.test(text)) fieldErrors[f] = ["Enter a whole number"];
    else body[f] = Number(text);
  }
  if (Object.keys(fieldErrors).length) return { body, fieldErrors };
  const parsed = warmupSettingsBody.safeParse(body);
  if (!parsed.success) return { body, fieldErrors: z.flattenError(parsed.error).fieldErrors };
  return { body: parsed.data, fieldErrors: {} };
}

/** Only the fields that differ from the mailbox's current settings (PATCH /warmup keeps the rest). */
export function changedSettings(body: WarmupSettingsInput, current: WarmupSettings): WarmupSettingsInput {
  const out: WarmupSettingsInput = {};
  for (const f of SETTING_FIELDS) if (body[f] !== undefined && body[f] !== current[f]) out[f] = body[f];
  return out;
}
