import { DateTime } from "luxon";

export interface WindowSettings {
  sendWindowStartHour: number;
  sendWindowEndHour: number;
  sendDaysOfWeek: number[];
  defaultTimezone: string | null;
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
export function inWindow(c: WindowSettings, zone: string | null, at: Date): boolean {
  return windowState(c, zone, at) === "open";
}

/** Why the window is shut at `at` (a day not in sendDaysOfWeek, or an hour outside it), or "open". */
export function windowState(c: WindowSettings, zone: string | null, at: Date): "open" | "day-not-allowed" | "outside-hours" {
  const d = local(at, zone);
  if (!c.sendDaysOfWeek.includes(dayOf(d))) return "day-not-allowed";
  if (!zone) return "open";
  return d.hour >= c.sendWindowStartHour && d.hour < c.sendWindowEndHour ? "open" : "outside-hours";
}

/** The next moment at or after `at` when the window is open (for scheduling and the forecast). */
export function nextWindowOpen(c: WindowSettings, zone: string | null, at: Date): Date | null {
  if (inWindow(c, zone, at)) return at;
  const today = local(at, zone).startOf("day");
  for (let i = 0; i < 8; i++) {
    const day = today.plus({ days: i });
    if (!c.sendDaysOfWeek.includes(dayOf(day))) continue;
    const open = zone ? day.set({ hour: c.sendWindowStartHour }) : day;
    if (open.toJSDate() >= at) return open.toJSDate();
  }
  return null;
}

/** A window's state at a moment, and when it next opens (`at` itself when open). */
export interface WindowAt {
  state: ReturnType<typeof windowState>;
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
export function windowAt(c: WindowSettings, zone: string | null, at: Date): WindowAt {
  const key = `${at.getTime()}|${c.sendWindowStartHour}|${c.sendWindowEndHour}|${c.sendDaysOfWeek.join(",")}|${zone ?? ""}`;
  let w = windowMemo.get(key);
  if (!w) {
    const state = windowState(c, zone, at);
    w = { state, opens: state === "open" ? at : nextWindowOpen(c, zone, at) };
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
