import { percent } from "../labels";

/** A UTC day ("2025-06-02", as the stats and forecast count days) as "Jun 2", or "Mon, Jun 2" with the weekday. */
export function dayLabel(date: string, weekday = false): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString(undefined, {
    timeZone: "UTC",
    month: "short",
    day: "numeric",
    ...(weekday ? { weekday: "short" } : {}),
  });
}

/** A rate over a count that may be zero: "—" when there is nothing to divide by. */
export function rateOf(rate: number, over: number): string {
  return over > 0 ? percent(rate) : "—";
}

/** The viewer's time zone, to say which clock the times are in. */
export function localZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "local time";
  } catch {
    return "local time";
  }
}
