/**
 * The warmup ramp's daily series of GET /deliverability/mailboxes/<id> (`warmup.daily`: the last 30 UTC
 * days, oldest first) as chart rows.
 */

export interface WarmupDay {
  date: string;
  target: number;
  sent: number;
  replied: number;
}

export interface RampRow {
  date: string;
  /** "Nov 3": the UTC day, as the series counts days. */
  label: string;
  /** null on a day without a ramp (before the start, or paused): the target line breaks there. */
  target: number | null;
  sent: number;
  replied: number;
}

const LABEL = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

export function dayLabel(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? date : LABEL.format(d);
}

/**
 * One row a day. A day's target is at least 1 whenever the ramp ran (startingVolume ≥ 1), so a 0 means
 * no ramp that day and is drawn as a gap, not as a target of nothing.
 */
export function rampRows(daily: readonly WarmupDay[]): RampRow[] {
  return daily.map((d) => ({
    date: d.date,
    label: dayLabel(d.date),
    target: d.target > 0 ? d.target : null,
    sent: d.sent,
    replied: d.replied,
  }));
}

/** Whether the 30 days hold anything to draw. */
export function hasRamp(daily: readonly WarmupDay[]): boolean {
  return daily.some((d) => d.target > 0 || d.sent > 0 || d.replied > 0);
}
