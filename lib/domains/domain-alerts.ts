import { and, eq, inArray, isNull } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { alerts } from "../../db/schema";
import { raiseAlert, resolveAlert } from "../alerts/alerts";
import type { BlacklistTargetVerdict, CheckResult } from "./checks";

type AuthChecks = { spf: CheckResult; dkim: CheckResult; dmarc: CheckResult; mx: CheckResult };

/**
 * DNS_FAILING: raised when a check of the domain finds SPF, DKIM, DMARC or MX
 * FAIL or MISSING, resolved by a check where all four are PASS or WARN (WARN includes "could not read":
 * a DNS hiccup neither raises nor keeps the alert).
 */
export async function domainDnsAlert(db: DbOrTx, d: { workspaceId: string; domain: string }, checks: AuthChecks, now: Date) {
  const failing = (Object.entries(checks) as [string, CheckResult][]).filter(([, c]) => c.status === "FAIL" || c.status === "MISSING");
  if (failing.length === 0) return resolveAlert(db, d.workspaceId, "DNS_FAILING", d.domain, now);
  const what = failing.map(([k, c]) => `${k.toUpperCase()} ${c.status}`).join(", ");
  await raiseAlert(
    db,
    {
      workspaceId: d.workspaceId,
      kind: "DNS_FAILING",
      subject: d.domain,
      domain: d.domain,
      message: `${d.domain}: ${what}. ${failing[0][1].reason}`,
      details: Object.fromEntries(failing.map(([k, c]) => [k, { status: c.status, reason: c.reason }])),
    },
    now,
  );
}

/** One look-up target's verdict on the BLACKLISTED alert of that subject (the domain or the address). */
export interface BlacklistVerdict {
  target: string;
  type: "domain" | "ip";
  /** The workspace sending domain this target is, or whose records point to it. */
  sendingDomain: string;
  listedOn: { zone: string; answer: string }[];
  clean: boolean;
}

/**
 * BLACKLISTED: a sending domain or address listed on any zone raises the alert (its message names the
 * zones); a check where every zone answered "not listed" resolves it. A check some zones could not
 * answer leaves the alert as it is. Shared by the domain checks and the blacklist jobs.
 */
export async function blacklistAlerts(db: DbOrTx, workspaceId: string, verdicts: BlacklistVerdict[], now: Date) {
  for (const v of verdicts) {
    if (v.listedOn.length) {
      const zones = v.listedOn.map((l) => l.zone);
      const what = v.type === "ip" ? `${v.target} (an address of ${v.sendingDomain})` : v.target;
      await raiseAlert(
        db,
        {
          workspaceId,
          kind: "BLACKLISTED",
          subject: v.target,
          domain: v.sendingDomain,
          message: `${what} is listed on ${zones.join(", ")}. Mail from it lands in spam; request delisting from each list.`,
          details: { target: v.target, type: v.type, listings: v.listedOn },
        },
        now,
      );
    } else if (v.clean) {
      await resolveAlert(db, workspaceId, "BLACKLISTED", v.target, now);
    }
  }
}

/** A domain check's per-target verdicts, as alert verdicts of that sending domain. */
export function domainCheckVerdicts(domain: string, verdicts: BlacklistTargetVerdict[]): BlacklistVerdict[] {
  return verdicts.map((v) => ({ ...v, sendingDomain: domain }));
}

/** A deleted domain's open alerts (DNS_FAILING, BLACKLISTED of it and its addresses) are closed: nobody can act on them any more. */
export async function resolveDomainAlerts(db: DbOrTx, workspaceId: string, names: string[], now: Date): Promise<void> {
  if (names.length === 0) return;
  await db
    .update(alerts)
    .set({ resolvedAt: now })
    .where(and(eq(alerts.workspaceId, workspaceId), inArray(alerts.domain, names), isNull(alerts.resolvedAt)));
}
