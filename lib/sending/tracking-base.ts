import { and, eq, inArray } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../../db/client";
import { campaigns, trackingDomains } from "../../db/schema";
import { trackingBaseUrl } from "./tracking";

const own = alias(trackingDomains, "own_domain");
const def = alias(trackingDomains, "default_domain");

/** The campaign settings that put a link to this installation in an email. */
type Linking = { id: string; trackOpens: boolean; trackClicks: boolean; unsubscribeHeader: boolean };

/**
 * The base URL of each campaign's tracking links (open pixel, click redirects, unsubscribe), for the
 * campaigns of one send pass, in one statement: its own tracking domain when VERIFIED, else the
 * workspace's VERIFIED default, else APP_URL. Campaigns that put no link in their emails are not
 * asked about; a campaign missing from the map uses APP_URL.
 */
export async function trackingBases(db: DbOrTx, list: Linking[]): Promise<Map<string, string>> {
  const ids = [...new Set(list.filter((c) => c.trackOpens || c.trackClicks || c.unsubscribeHeader).map((c) => c.id))];
  const out = new Map<string, string>();
  if (ids.length === 0) return out;
  const rows = await db
    .select({ id: campaigns.id, own: own.domain, def: def.domain })
    .from(campaigns)
    .leftJoin(own, and(eq(own.id, campaigns.trackingDomainId), eq(own.workspaceId, campaigns.workspaceId), eq(own.status, "VERIFIED")))
    .leftJoin(def, and(eq(def.workspaceId, campaigns.workspaceId), eq(def.isDefault, true), eq(def.status, "VERIFIED")))
    .where(inArray(campaigns.id, ids));
  for (const r of rows) {
    const domain = r.own ?? r.def;
    if (domain) out.set(r.id, trackingBaseUrl(domain));
  }
  return out;
}
