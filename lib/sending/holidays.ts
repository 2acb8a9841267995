import ct from "countries-and-timezones";
import Holidays from "date-holidays";

/**
 * Public holidays in each lead's country, from the maintained `date-holidays` data (national public
 * holidays only: no bank, school or observance days, no regional ones), and a campaign's own blackout
 * dates. A lead's country is its `country` custom field when that is an ISO 3166-1 alpha-2 code the
 * holiday data knows, else the country of its timezone (the zone's first country; UTC and other zones of
 * no country give none); no country means no holidays, only the blackout dates.
 */

export interface HolidaySettings {
  skipHolidays: boolean;
  /** YYYY-MM-DD days, in the lead's zone, on which the campaign sends nothing. */
  blackoutDates: string[];
}

export interface CountryLead {
  timezone?: string | null;
  customFields?: Record<string, string> | null;
}

const known = new Set(Object.keys(new Holidays().getCountries()));

/** The lead's country (ISO 3166-1 alpha-2), or null when neither its `country` field nor its zone names one. */
export function countryOf(lead: CountryLead, zone?: string | null): string | null {
  const field = lead.customFields?.country?.trim().toUpperCase();
  if (field && /^[A-Z]{2}$/.test(field) && known.has(field)) return field;
  const z = lead.timezone || zone;
  if (!z) return null;
  const tz = ct.getTimezone(z);
  const code = tz ? (tz.countries[0] ?? (tz.aliasOf ? ct.getTimezone(tz.aliasOf)?.countries[0] : undefined)) : undefined;
  return code && known.has(code) ? code : null;
}

/** Each country's public holidays of a year: day → name (English where the data has it). */
const byYear = new Map<string, Map<string, string>>();

function holidaysOf(country: string, year: number): Map<string, string> {
  const key = `${country}|${year}`;
  let days = byYear.get(key);
  if (!days) {
    days = new Map();
    const list = new Holidays(country, { languages: ["en"] }).getHolidays(year) || [];
    for (const h of list) if (h.type === "public") days.set(h.date.slice(0, 10), h.name);
    byYear.set(key, days);
  }
  return days;
}

/** The public holiday's name on `day` (YYYY-MM-DD) in `country`, or null. */
export function holidayOn(country: string | null, day: string): string | null {
  if (!country) return null;
  return holidaysOf(country, Number(day.slice(0, 4))).get(day) ?? null;
}

export type SkipReason = { kind: "blackout" } | { kind: "holiday"; name: string };

/** Why a campaign sends nothing to a lead of `country` on `day`, or null when the day is a sending day. */
export function skippedDay(settings: HolidaySettings, country: string | null, day: string): SkipReason | null {
  if (settings.blackoutDates.includes(day)) return { kind: "blackout" };
  if (!settings.skipHolidays) return null;
  const name = holidayOn(country, day);
  return name ? { kind: "holiday", name } : null;
}

/** The public holidays of `country` between two days (inclusive, YYYY-MM-DD), for the schedule forecast. */
export function holidaysBetween(country: string, from: string, to: string): { day: string; name: string }[] {
  const out: { day: string; name: string }[] = [];
  for (let y = Number(from.slice(0, 4)); y <= Number(to.slice(0, 4)); y++)
    for (const [day, name] of holidaysOf(country, y)) if (day >= from && day <= to) out.push({ day, name });
  return out.sort((a, b) => a.day.localeCompare(b.day));
}
