import type { BadgeTone } from "@/components/ui/badge";

export type Activity = "active" | "low_activity" | "inactive" | "not_sending";

/** Rule 8's activity, over the last 7 days whatever the period. */
export const ACTIVITY: Record<Activity, { label: string; tone: BadgeTone; about: string }> = {
  active: { label: "Active", tone: "green", about: "At least its daily cap of campaign emails in the last 7 days" },
  low_activity: { label: "Low activity", tone: "yellow", about: "Some campaign email in the last 7 days, fewer than its daily cap" },
  inactive: { label: "Inactive", tone: "red", about: "Campaign sending is on, but no campaign email in the last 7 days" },
  not_sending: { label: "Not sending", tone: "gray", about: "Campaign sending is off for this mailbox" },
};

/** 0.0123 → "1.2%". */
export const pct = (rate: number) => `${(rate * 100).toFixed(1)}%`;
export const num = (n: number) => n.toLocaleString("en-US");
