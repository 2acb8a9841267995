/**
 * The warmup ramp as pure functions: a day's target from the settings and
 * the day index, the status it gives, and the settings' fall-backs (the request, then the workspace's
 * preset for the mailbox's provider class, then the defaults).
 */

export type WarmupStatus = "OFF" | "EARLY" | "RAMPING" | "STEADY" | "PAUSED" | "AUTO_PAUSED";
/** The statuses of a mailbox that is warming (sending warmup when healthy). */
export const WARMING: readonly WarmupStatus[] = ["EARLY", "RAMPING", "STEADY"];
/** `EARLY` lasts the first 14 days of the ramp (what the launch check's WARMING_MAILBOXES warns about). */
export const EARLY_DAYS = 14;

export interface WarmupSettings {
  startingVolume: number;
  dailyIncrease: number;
  targetVolume: number;
  replyRateMinPct: number;
  replyRateMaxPct: number;
}

export const DEFAULT_SETTINGS: WarmupSettings = {
  startingVolume: 10,
  dailyIncrease: 5,
  targetVolume: 40,
  replyRateMinPct: 25,
  replyRateMaxPct: 35,
};

export const SETTING_FIELDS = ["startingVolume", "dailyIncrease", "targetVolume", "replyRateMinPct", "replyRateMaxPct"] as const;

/** Provider classes a preset is kept for: GOOGLE, MICROSOFT, and OTHER for everything else. */
export type PresetClass = "GOOGLE" | "MICROSOFT" | "OTHER";

export function presetClassOf(espClass: string): PresetClass {
  return espClass === "GOOGLE" || espClass === "MICROSOFT" ? espClass : "OTHER";
}

/** min(startingVolume + dayIndex × dailyIncrease, targetVolume). */
export function todayTarget(s: Pick<WarmupSettings, "startingVolume" | "dailyIncrease" | "targetVolume">, dayIndex: number): number {
  return Math.min(s.startingVolume + dayIndex * s.dailyIncrease, s.targetVolume);
}

/** EARLY while dayIndex < 14, RAMPING until today's target reaches the target volume, then STEADY. */
export function rampStatus(s: WarmupSettings, dayIndex: number): "EARLY" | "RAMPING" | "STEADY" {
  if (dayIndex < EARLY_DAYS) return "EARLY";
  return todayTarget(s, dayIndex) < s.targetVolume ? "RAMPING" : "STEADY";
}

/** Each field from the request, else the preset, else the default. */
export function resolveSettings(
  request: Partial<WarmupSettings>,
  preset: Partial<WarmupSettings> | null,
  base: WarmupSettings = DEFAULT_SETTINGS,
): WarmupSettings {
  const out = { ...base };
  for (const f of SETTING_FIELDS) out[f] = request[f] ?? preset?.[f] ?? base[f];
  return out;
}

/** The UTC calendar day of an instant, `YYYY-MM-DD`. */
export function utcDate(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** Whole UTC days from `from` to `to` (both `YYYY-MM-DD`). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** A mailbox paused before this day restarts at day 0 when resumed (`resumedMidRamp: false`). */
export const MID_RAMP_RESUME_SINCE = new Date("2026-09-26T00:00:00Z");
