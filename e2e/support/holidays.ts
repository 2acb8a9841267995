import { holidaysBetween } from "../../lib/sending/holidays";

/** Zones whose country has public holidays in the holiday data, a few of them at every time of year. */
const PLACES = [
  { timezone: "Europe/Berlin", country: "DE" },
  { timezone: "America/New_York", country: "US" },
  { timezone: "Europe/London", country: "GB" },
  { timezone: "Europe/Paris", country: "FR" },
  { timezone: "Asia/Tokyo", country: "JP" },
  { timezone: "America/Sao_Paulo", country: "BR" },
  { timezone: "Europe/Madrid", country: "ES" },
  { timezone: "Europe/Warsaw", country: "PL" },
  { timezone: "America/Mexico_City", country: "MX" },
  { timezone: "Asia/Seoul", country: "KR" },
  { timezone: "Europe/Rome", country: "IT" },
  { timezone: "Australia/Sydney", country: "AU" },
] as const;

export interface HolidayPlace {
  timezone: string;
  country: string;
  /** The first public holiday ahead, inside the forecast. */
  holiday: { day: string; name: string };
}

/**
 * A lead's zone and country for a spec that sends today and shows a holiday in the Schedule forecast of
 * the next `days` UTC days: no public holiday from yesterday to two days ahead (the lead's zone may be a
 * calendar day off UTC, and the email must go out today), and one from three days ahead to the forecast's
 * last day. The dates come from the same holiday data the app reads.
 */
export function placeWithHolidayAhead(now: Date, days: number): HolidayPlace {
  const day = (n: number) => new Date(now.getTime() + n * 86_400_000).toISOString().slice(0, 10);
  for (const p of PLACES) {
    if (holidaysBetween(p.country, day(-1), day(2)).length > 0) continue;
    const [holiday] = holidaysBetween(p.country, day(3), day(days - 1));
    if (holiday) return { timezone: p.timezone, country: p.country, holiday };
  }
  throw new Error(`no country of ${PLACES.map((p) => p.country).join(", ")} has a holiday between ${day(3)} and ${day(days - 1)}`);
}
