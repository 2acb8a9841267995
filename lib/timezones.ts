import ct from "countries-and-timezones";

const validity = new Map<string, boolean>();

/**
 * An IANA zone name, canonical or a backward-compatible alias (`US/Eastern`). Checked against the
 * runtime's tz database, the same one that schedules sends, so a zone accepted here always works there.
 */
export function isValidTimezone(name: string): boolean {
  if (!name || name.length > 64) return false;
  let ok = validity.get(name);
  if (ok === undefined) {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: name });
      ok = name.includes("/") || name === "UTC" || name === "Etc/UTC" || name === "GMT";
    } catch {
      ok = false;
    }
    validity.set(name, ok);
  }
  return ok;
}

/** "+05:30" / "-04:00" / "+00:00" for the zone at `at`. */
export function utcOffsetAt(zone: string, at: Date): { utcOffset: string; utcOffsetMinutes: number } {
  const part = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" })
    .formatToParts(at)
    .find((p) => p.type === "timeZoneName")?.value;
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(part ?? "");
  if (!m) return { utcOffset: "+00:00", utcOffsetMinutes: 0 };
  const minutes = (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
  return { utcOffset: `${m[1]}${m[2]}:${m[3]}`, utcOffsetMinutes: minutes };
}

export interface CountryZones {
  code: string;
  name: string;
  timezones: { name: string; utcOffset: string; utcOffsetMinutes: number }[];
}

/** Countries (from the maintained `countries-and-timezones` data) with their zones' offsets today. */
export function listCountryTimezones(at: Date): CountryZones[] {
  const countries = Object.values(ct.getAllCountries());
  return countries
    .map((c) => ({
      code: c.id,
      name: c.name,
      timezones: c.timezones.filter(isValidTimezone).map((z) => ({ name: z, ...utcOffsetAt(z, at) })),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
