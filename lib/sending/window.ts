import { DateTime } from "luxon";
import { skippedDay } from "./holidays";

export interface WindowSettings {
  sendWindowStartHour: number;
  sendWindowEndHour: number;
  sendDaysOfWeek: number[];
  defaultTimezone: string | null;
  /** Skip the public holidays of the lead's country (the country is given with each question). */
  skipHolidays?: boolean;
  /** YYYY-MM-DD days, in the lead's zone, on which nothing is sent. */
  blackoutDates?: string[];
}

export type WindowState = "open" | "day-not-allowed" | "holiday" | "blackout" | "outside-hours";

/** A blackout date or (with skipHolidays) a public holiday of `country` on the local day `d`. */
function skipped(c: WindowSettings, country: string | null, d: DateTime): "holiday" | "blackout" | null {
  if (!c.skipHolidays && !c.blackoutDates?.length) return null;
  const skip = skippedDay({ skipHolidays: c.skipHolidays ?? false, blackoutDates: c.blackoutDates ?? [] }, country, d.toISODate()!);
  return skip?.kind ?? null;
}

/** Whether nothing at all is sent on the local day `d`: not a sending day of the week, a holiday or a blackout. */
function dayShut(c: WindowSettings, country: string | null, d: DateTime): boolean {
  return !c.sendDaysOfWeek.includes(dayOf(d)) || skipped(c, country, d) !== null;
}

/** The zone a lead's window is read in: its own, else the campaign's; null means "any hour". */
export function zoneFor(c: WindowSettings, leadTimezone: string | null | undefined): string | null {
  return leadTimezone || c.defaultTimezone || null;
}

function local(at: Date, zone: string | null): DateTime {
  return DateTime.fromJSDate(at, { zone: zone ?? "UTC" });
}

/** Sunday = 0 … Saturday = 6, from luxon's Monday = 1 … Sunday = 7. */
function dayOf(d: DateTime): number {
  return d.weekday % 7;
}

/**
 * Whether `at` is inside the send window on an allowed day, in the lead's zone. Without any zone the
 * lead can be emailed at any hour; the allowed days are then read in UTC.
 */
export function inWindow(c: WindowSettings, zone: string | null, at: Date, country: string | null = null): boolean {
  return windowState(c, zone, at, country) === "open";
}

/**
 * Why the window is shut at `at` (a day not in sendDaysOfWeek, a public holiday of the lead's `country`
 * when the campaign skips them, one of its blackout dates, or an hour outside the window), or "open".
 */
export function windowState(c: WindowSettings, zone: string | null, at: Date, country: string | null = null): WindowState {
  const d = local(at, zone);
  if (!c.sendDaysOfWeek.includes(dayOf(d))) return "day-not-allowed";
  const skip = skipped(c, country, d);
  if (skip) return skip;
  if (!zone) return "open";
  return d.hour >= c.sendWindowStartHour && d.hour < c.sendWindowEndHour ? "open" : "outside-hours";
}

/** Days looked ahead for an open window: a year of blackout dates and holidays, and a week more. */
const LOOK_AHEAD_DAYS = 373;

/** The next moment at or after `at` when the window is open (for scheduling and the forecast); null: never. */
export function nextWindowOpen(c: WindowSettings, zone: string | null, at: Date, country: string | null = null): Date | null {
  if (inWindow(c, zone, at, country)) return at;
  if (c.sendDaysOfWeek.length === 0) return null;
  const today = local(at, zone).startOf("day");
  const days = c.skipHolidays || c.blackoutDates?.length ? LOOK_AHEAD_DAYS : 8;
  for (let i = 0; i < days; i++) {
    const day = today.plus({ days: i });
    if (dayShut(c, country, day)) continue;
    const open = zone ? day.set({ hour: c.sendWindowStartHour }) : day;
    if (open.toJSDate() >= at) return open.toJSDate();
  }
  return null;
}

/** A window's state at a moment, and when it next opens (`at` itself when open). */
export interface WindowAt {
  state: WindowState;
  opens: Date | null;
}

const windowMemo = new Map<string, WindowAt>();
const WINDOW_MEMO_MAX = 10_000;

/**
 * windowState and nextWindowOpen together, remembered for the moment: both depend only on the hours,
 * the days, the zone and `at`, and a scheduler pass asks the same few (campaign settings × zone) pairs
 * for thousands of leads at one `at`. Worked out with luxon each time, the zone offsets cost ~60 µs per
 * mailbox of a 5,000-mailbox tick when every zone is due. Bounded: the memo is emptied when it is full.
 */
export function windowAt(c: WindowSettings, zone: string | null, at: Date, country: string | null = null): WindowAt {
  const days = c.skipHolidays || c.blackoutDates?.length ? `|${c.skipHolidays ? country : ""}|${c.blackoutDates?.join(",")}` : "";
  const key = `${at.getTime()}|${c.sendWindowStartHour}|${c.sendWindowEndHour}|${c.sendDaysOfWeek.join(",")}|${zone ?? ""}${days}`;
  let w = windowMemo.get(key);
  if (!w) {
    const state = windowState(c, zone, at, country);
    w = { state, opens: state === "open" ? at : nextWindowOpen(c, zone, at, country) };
    if (windowMemo.size >= WINDOW_MEMO_MAX) windowMemo.clear();
    windowMemo.set(key, w);
  }
  return { state: w.state, opens: w.opens && new Date(w.opens) };
}
/** The campaign's day for dailyNewLeadCap: the defaultTimezone day, or the UTC day. */
export function campaignDay(defaultTimezone: string | null, at: Date): { start: Date; end: Date } {
  const d = local(at, defaultTimezone).startOf("day");
  return { start: d.toJSDate(), end: d.plus({ days: 1 }).toJSDate() };
}

/** A mailbox's sending day for its daily cap: the UTC day. */
export function utcDay(at: Date): { start: Date; end: Date } {
  return campaignDay(null, at);
}
