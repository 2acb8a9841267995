import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { selectRows } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import { alerts, domains, mailboxes, placementResults, placementTests } from "../../db/schema";
import { countTotal } from "../analytics/counts";
import { requireAccess, type Ctx } from "../ctx";
import { healthStatus } from "../mailboxes/view";
import { completedData } from "../placement/finish";

/** GET /deliverability/overview: the workspace's warmup, placement, blacklist and alert summary. */

const DAY_MS = 24 * 3600_000;
const WARMING = new Set(["EARLY", "RAMPING", "STEADY"]);
const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** Mailboxes by state: `healthy` HEALTHY, `paused` by the user or by bounces, `failing` login or reading; `warming` by warmup status. */
async function mailboxCounts(ctx: Ctx, now: Date) {
  const rows = await ctx.db.select().from(mailboxes).where(eq(mailboxes.workspaceId, ctx.workspaceId));
  const counts = { total: rows.length, healthy: 0, warming: 0, paused: 0, failing: 0 };
  for (const m of rows) {
    const h = healthStatus(m, now);
    if (h === "HEALTHY") counts.healthy++;
    else if (h === "PAUSED" || h === "AUTO_PAUSED") counts.paused++;
    else if (h === "LOGIN_FAILING" || h === "READ_FAILING") counts.failing++;
    if (WARMING.has(m.warmupStatus)) counts.warming++;
  }
  return counts;
}

/** Domains: `failing` when SPF, DKIM, DMARC or MX is FAIL or MISSING; `blacklisted` when its last check or an open BLACKLISTED alert says so. */
async function domainCounts(ctx: Ctx) {
  const bad = (c: AnyPgColumn) => sql`${c} in ('FAIL', 'MISSING')`;
  const [r] = await selectRows<{ total: number; failing: number; blacklisted: number }>(
    ctx.db,
    sql`select count(*)::int as total,
        count(*) filter (where ${bad(domains.spfStatus)} or ${bad(domains.dkimStatus)} or ${bad(domains.dmarcStatus)} or ${bad(domains.mxStatus)})::int
          as failing,
        count(*) filter (where ${domains.blacklistStatus} = 'FAIL' or exists (
          select 1 from ${alerts} where ${alerts.workspaceId} = ${ctx.workspaceId} and ${alerts.kind} = 'BLACKLISTED'
            and ${alerts.resolvedAt} is null and ${alerts.domain} = ${domains.domain}))::int as blacklisted
      from ${domains} where ${domains.workspaceId} = ${ctx.workspaceId}`,
  );
  return r;
}

/**
 * Bounced over sent (SENT + BOUNCED) campaign email created from `since` to `now`, counted by the one
 * counting module (lib/analytics/counts.ts, as GET /analytics/mailboxes); null when none was sent.
 * Warmup mail is not in `emails`.
 */
export async function bounceRateSince(db: DbOrTx, workspaceId: string, period: { from: Date; to: Date }, mailboxId?: string) {
  const c = await countTotal(db, { workspaceId, period, mailboxIds: mailboxId ? [mailboxId] : undefined });
  return { sent: c.sent, bounced: c.bounced, rate: c.sent > 0 ? c.bounced / c.sent : null };
}

/** Placement probes of the last 30 days that landed in spam, over those that landed at all (MISSING and PENDING left out). */
async function spamRate(ctx: Ctx, since: Date): Promise<number | null> {
  const [r] = await selectRows<{ inbox: number; spam: number }>(
    ctx.db,
    sql`select count(*) filter (where r.placement = 'INBOX')::int as inbox, count(*) filter (where r.placement = 'SPAM')::int as spam
      from ${placementResults} r join ${placementTests} t on t.id = r.test_id
      where t.workspace_id = ${ctx.workspaceId} and t.created_at >= ${ts(since)}`,
  );
  return r.inbox + r.spam > 0 ? r.spam / (r.inbox + r.spam) : null;
}

/** A placement test's summary (the numbers of `placement.completed`). */
export async function placementSummaries(db: DbOrTx, where: SQL | undefined, limit: number) {
  const rows = await db
    .select({ t: placementTests, email: mailboxes.email })
    .from(placementTests)
    .innerJoin(mailboxes, eq(mailboxes.id, placementTests.mailboxId))
    .where(where)
    .orderBy(desc(placementTests.seq))
    .limit(limit);
  return rows.map(({ t, email }) => {
    const { testId, gmailTabs, ...summary } = completedData(t, email);
    return { id: testId, ...summary };
  });
}

export async function deliverabilityOverview(ctx: Ctx) {
  requireAccess(ctx, "read");
  const now = ctx.clock.now();
  const [mbx, doms, bounce, spam, [open], [last]] = await Promise.all([
    mailboxCounts(ctx, now),
    domainCounts(ctx),
    bounceRateSince(ctx.db, ctx.workspaceId, { from: new Date(now.getTime() - 7 * DAY_MS), to: now }),
    spamRate(ctx, new Date(now.getTime() - 30 * DAY_MS)),
    selectRows<{ open: number; unacknowledged: number }>(
      ctx.db,
      sql`select count(*)::int as open, count(*) filter (where ${alerts.acknowledgedAt} is null)::int as unacknowledged
        from ${alerts} where ${alerts.workspaceId} = ${ctx.workspaceId} and ${alerts.resolvedAt} is null`,
    ),
    placementSummaries(ctx.db, and(eq(placementTests.workspaceId, ctx.workspaceId)), 1),
  ]);
  return {
    mailboxes: mbx,
    domains: doms,
    bounceRate7d: bounce.rate,
    spamRate30d: spam,
    openAlerts: open.open,
    unacknowledgedAlerts: open.unacknowledged,
    lastPlacement: last ?? null,
  };
}
