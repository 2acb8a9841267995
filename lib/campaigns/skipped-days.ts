import { type CountryLead, countryOf, holidaysBetween } from "../sending/holidays";

export interface SkippedDays {
  /** The campaign's blackout dates between the two days. */
  blackout: string[];
  /** Each lead country's public holidays between the two days (with skipHolidays), most leads first. */
  holidays: { country: string; leads: number; days: { date: string; name: string }[] }[];
}

interface DaysCampaign {
  skipHolidays: boolean;
  blackoutDates: string[];
  defaultTimezone: string | null;
}

/** The days from `from` to `to` (YYYY-MM-DD, inclusive) on which the campaign sends nothing to some of its leads. */
export function skippedDays(c: DaysCampaign, leads: readonly CountryLead[], from: string, to: string): SkippedDays {
  const blackout = c.blackoutDates.filter((d) => d >= from && d <= to);
  const leadsOf = new Map<string, number>();
  if (c.skipHolidays)
    for (const l of leads) {
      const country = countryOf(l, l.timezone || c.defaultTimezone);
      if (country) leadsOf.set(country, (leadsOf.get(country) ?? 0) + 1);
    }
  const holidays = [...leadsOf]
    .map(([country, n]) => ({ country, leads: n, days: holidaysBetween(country, from, to).map((h) => ({ date: h.day, name: h.name })) }))
    .filter((h) => h.days.length > 0)
    .sort((a, b) => b.leads - a.leads || a.country.localeCompare(b.country));
  return { blackout, holidays };
}

/** The skipped days in words, for the launch check: at most five countries. */
export function describeSkipped(s: SkippedDays, days: number): string | null {
  if (s.blackout.length === 0 && s.holidays.length === 0) return null;
  const parts: string[] = [];
  if (s.blackout.length) parts.push(`blackout dates ${s.blackout.join(", ")}`);
  for (const h of s.holidays.slice(0, 5))
    parts.push(`${h.country} (${h.leads} lead${h.leads === 1 ? "" : "s"}): ${h.days.map((d) => `${d.date} ${d.name}`).join(", ")}`);
  if (s.holidays.length > 5) parts.push(`and holidays in ${s.holidays.length - 5} more countries`);
  return `In the next ${days} days nothing is sent on ${parts.join("; ")}.`;
}
