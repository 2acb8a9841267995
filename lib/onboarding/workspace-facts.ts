import { and, type Column, countDistinct, desc, eq, exists, inArray, isNotNull, ne, not, or, type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { campaignSteps, campaigns, domains, leads, mailboxes } from "../../db/schema";
import type { WorkspaceFacts } from "./items";

/**
 * A record counts as found when its check passed, or warned with the record in hand (a DMARC policy
 * of p=none, an SPF record without the provider): it is published, if not yet ideal. A warning
 * without a record (the look-up failed) and MISSING, FAIL and UNCHECKED do not count.
 */
function found(status: Column, check: "spf" | "dkim" | "dmarc"): SQL {
  return sql`(${status} = 'PASS' or (${status} = 'WARN' and ${domains.checks} -> ${check} ->> 'record' is not null))`;
}

/** Everything the checklist needs from one workspace, in a handful of indexed queries run together. */
export async function workspaceFacts(db: DbOrTx, workspaceId: string): Promise<WorkspaceFacts> {
  const sending = and(eq(mailboxes.workspaceId, workspaceId), eq(mailboxes.isSeed, false));
  const hasStep = exists(db.select({ one: sql`1` }).from(campaignSteps).where(eq(campaignSteps.campaignId, campaigns.id)));
  const [[boxes], [doms], [lead], [withStep], [withoutStep], [launched]] = await Promise.all([
    db
      .select({
        total: sql<number>`count(*)::int`,
        warmed: sql<number>`(count(*) filter (where ${or(ne(mailboxes.warmupStatus, "OFF"), eq(mailboxes.assumedWarm, true))}))::int`,
      })
      .from(mailboxes)
      .where(sending),
    db
      .select({
        total: countDistinct(domains.id),
        authenticated: sql<number>`(count(distinct ${domains.id}) filter (where ${and(
          found(domains.spfStatus, "spf"),
          found(domains.dkimStatus, "dkim"),
          found(domains.dmarcStatus, "dmarc"),
        )}))::int`,
      })
      .from(domains)
      .innerJoin(mailboxes, eq(mailboxes.domainId, domains.id))
      .where(and(eq(domains.workspaceId, workspaceId), sending)),
    db.select({ id: leads.id }).from(leads).where(eq(leads.workspaceId, workspaceId)).limit(1),
    db
      .select({ id: campaigns.id })
      .from(campaigns)
      .where(and(eq(campaigns.workspaceId, workspaceId), hasStep))
      .orderBy(desc(campaigns.seq))
      .limit(1),
    db
      .select({ id: campaigns.id })
      .from(campaigns)
      .where(and(eq(campaigns.workspaceId, workspaceId), eq(campaigns.status, "DRAFT"), not(hasStep)))
      .orderBy(desc(campaigns.seq))
      .limit(1),
    db
      .select({ id: campaigns.id })
      .from(campaigns)
      .where(
        and(eq(campaigns.workspaceId, workspaceId), or(inArray(campaigns.status, ["ACTIVE", "PAUSED"]), isNotNull(campaigns.firstSentAt))),
      )
      .limit(1),
  ]);
  return {
    mailboxes: boxes?.total ?? 0,
    warmedMailboxes: boxes?.warmed ?? 0,
    sendingDomains: doms?.total ?? 0,
    authenticatedDomains: doms?.authenticated ?? 0,
    hasLeads: !!lead,
    campaignWithStepId: withStep?.id ?? null,
    draftWithoutStepId: withoutStep?.id ?? null,
    launched: !!launched,
  };
}
