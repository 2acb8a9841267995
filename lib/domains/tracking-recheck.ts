import { inArray, isNotNull } from "drizzle-orm";
import { trackingDomains } from "../../db/schema";
import type { JobCtx } from "../ctx";
import { AppError } from "../errors";
import { claimStale } from "../jobs/stale-claims";
import { checkTrackingDomain } from "./tracking-domains";

/** How often a verified tracking domain's DNS is checked again. */
export const TRACKING_RECHECK_MS = 60 * 60_000;

/**
 * The periodic re-check: every tracking domain that was verified once (VERIFIED, or FAILING since) and
 * was not checked within TRACKING_RECHECK_MS is checked again, 50 per run. A domain whose CNAME is gone
 * turns FAILING and its campaigns track through the default (else APP_URL) until it passes again;
 * PENDING domains wait for someone to press Verify.
 */
export async function runTrackingDomainChecks({ db, clock }: JobCtx) {
  const now = clock.now();
  const before = new Date(now.getTime() - TRACKING_RECHECK_MS);
  const ids = await claimStale(
    db,
    { id: trackingDomains.id, checkedAt: trackingDomains.lastCheckedAt },
    { now, before, limit: 50, orEqual: true, where: isNotNull(trackingDomains.verifiedAt) },
  );
  if (ids.length === 0) return { checked: 0 };
  const rows = await db.select().from(trackingDomains).where(inArray(trackingDomains.id, ids));
  let failing = 0;
  for (const row of rows) {
    try {
      if ((await checkTrackingDomain(db, row, now)).status === "FAILING") failing++;
    } catch (e) {
      // Held by another workspace (it cannot be, once verified here): left as it is.
      if (!(e instanceof AppError)) throw e;
    }
  }
  return { checked: rows.length, failing };
}
