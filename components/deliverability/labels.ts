import type { BadgeTone } from "@/components/ui/badge";
import type { AlertView } from "./queries";

export const ALERT_KIND: Record<AlertView["kind"], string> = {
  BOUNCE_SPIKE: "Bounce spike",
  LOGIN_FAILING: "Login failing",
  READ_FAILING: "Replies unreadable",
  BLACKLISTED: "Blacklisted",
  PLACEMENT_DROP: "Placement drop",
  DNS_FAILING: "DNS records",
};

export const SEVERITY: Record<AlertView["severity"], { label: string; tone: BadgeTone }> = {
  critical: { label: "Critical", tone: "red" },
  warning: { label: "Warning", tone: "yellow" },
  info: { label: "Info", tone: "blue" },
};

/** 0.0123 → "1.2%"; null (nothing to measure yet) → "—". */
export function pct(rate: number | null | undefined): string {
  return rate === null || rate === undefined ? "—" : `${(rate * 100).toFixed(1)}%`;
}
