import { DateTime } from "luxon";
import { countryOf } from "./holidays";
import { nextWindowOpen, type WindowSettings, zoneFor } from "./window";

/**
 * When a lead paused until it is back (an out-of-office reply, or a branch that waits for the return)
 * is due again: the first open window on or after the return day, in the lead's zone, on an allowed day
 * that is no holiday or blackout date; with no date, oooDefaultPauseDays after the reply.
 */

export interface OooCampaign extends WindowSettings {
  oooResume: boolean;
  oooDefaultPauseDays: number;
  stopOnAutoReply: boolean;
}

export interface OooLead {
  timezone: string | null;
  customFields: Record<string, string> | null;
}

/** When the paused lead is due again, or null when nothing pauses (the return date is past). */
export function resumeAt(c: OooCampaign, lead: OooLead, returnDate: string | null, receivedAt: Date): Date | null {
  const zone = zoneFor(c, lead.timezone);
  const country = c.skipHolidays ? countryOf(lead, zone) : null;
  const from = returnDate
    ? DateTime.fromISO(returnDate, { zone: zone ?? "UTC" })
        .startOf("day")
        .toJSDate()
    : new Date(receivedAt.getTime() + c.oooDefaultPauseDays * 86_400_000);
  if (from <= receivedAt) return null;
  return nextWindowOpen(c, zone, from, country) ?? from;
}
