import type { BadgeTone } from "@/components/ui/badge";
import type { CheckStatus } from "@/lib/domains/checks";
import type { DomainView } from "./queries";

/** The five checks of a domain, in the order they are shown. */
export const CHECKS = [
  { key: "spf", label: "SPF", status: "spfStatus" },
  { key: "dkim", label: "DKIM", status: "dkimStatus" },
  { key: "dmarc", label: "DMARC", status: "dmarcStatus" },
  { key: "mx", label: "MX", status: "mxStatus" },
  { key: "blacklist", label: "Blacklist", status: "blacklistStatus" },
] as const;
/** checkbox, domain, the checks, mailboxes, last checked, actions */
export const DOMAIN_COLUMNS = 5 + CHECKS.length;

export type CheckKey = (typeof CHECKS)[number]["key"];

export const STATUS: Record<CheckStatus, { label: string; tone: BadgeTone }> = {
  PASS: { label: "Pass", tone: "green" },
  WARN: { label: "Warning", tone: "yellow" },
  FAIL: { label: "Fail", tone: "red" },
  MISSING: { label: "Missing", tone: "red" },
  UNCHECKED: { label: "Not checked", tone: "gray" },
};

export interface CheckDetail {
  status: CheckStatus;
  record: string | null;
  reason: string;
  /** Blocklist hits, when the blacklist check found any. */
  listings: { zone: string; target: string; answer: string }[];
}

/**
 * One check of a domain. `checks` is stored as loose JSON (empty until the first check), so each part
 * is read defensively; the status column is the source of truth for the colour.
 */
export function checkOf(d: DomainView, c: (typeof CHECKS)[number]): CheckDetail {
  const raw = (d.checks as Record<string, unknown>)[c.key] as { record?: unknown; reason?: unknown; listings?: unknown } | undefined;
  const status = d[c.status] as CheckStatus;
  return {
    status,
    record: typeof raw?.record === "string" ? raw.record : null,
    reason:
      typeof raw?.reason === "string"
        ? raw.reason
        : status === "UNCHECKED"
          ? "Not checked yet; checks run soon after a domain appears, then daily."
          : "",
    listings: Array.isArray(raw?.listings) ? (raw.listings as CheckDetail["listings"]) : [],
  };
}
