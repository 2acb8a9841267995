import { and, desc, eq, isNull, or, sql } from "drizzle-orm";
import { selectRows } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import { alerts, blacklistJobs, blacklistResults, domains, mailboxes, placementTests } from "../../db/schema";
import { requireAccess, type Ctx } from "../ctx";
import { NotFoundError } from "../errors";
import { healthStatus } from "../mailboxes/view";
import { alertView } from "./alerts-list";
import { warmupReport } from "./mailbox-report-warmup";
import { bounceRateSince, placementSummaries } from "./overview";

/**
 * GET /deliverability/mailboxes/<id>: one mailbox's deliverability on one page — health, warmup with
 * its 30-day series, bounce rate (campaign email of the last 30 days, the bounce policy's window),
 * latest placement tests, blacklist hits of its domain and addresses, and the open alerts about it.
 */

const DAY_MS = 24 * 3600_000;

export interface BlacklistHit {
  target: string;
  type: "domain" | "ip";
  zone: string;
  answer: string | null;
  checkedAt: string;
  /** `job`: a blacklist check job (its id in jobId); `domain-check`: the domain's own check. */
  source: "job" | "domain-check";
  jobId: string | null;
}

/**
 * The latest answer of every (target, zone) about the domain or the addresses a job found for it,
 * kept when it is a listing; plus the listings of the domain's last check. Newest first.
 */
async function blacklistHits(db: DbOrTx, workspaceId: string, d: typeof domains.$inferSelect): Promise<BlacklistHit[]> {
  const latest = await selectRows<{
    target: string;
    type: "domain" | "ip";
    zone: string;
    listed: boolean;
    answer: string | null;
    at: string;
    job: string;
  }>(
    db,
    sql`select distinct on (r.target, r.zone) r.target, r.type, r.zone, r.listed, r.answer, r.checked_at as at, r.job_id as job
      from ${blacklistResults} r join ${blacklistJobs} j on j.id = r.job_id
      where j.workspace_id = ${workspaceId} and (r.target = ${d.domain} or exists (
        select 1 from jsonb_array_elements(j.targets) t where t->>'target' = r.target and t->>'sendingDomain' = ${d.domain}))
      order by r.target, r.zone, r.checked_at desc`,
  );
  const hits: BlacklistHit[] = latest
    .filter((r) => r.listed)
    .map((r) => ({
      target: r.target,
      type: r.type,
      zone: r.zone,
      answer: r.answer,
      checkedAt: new Date(r.at).toISOString(),
      source: "job",
      jobId: r.job,
    }));
  const check = d.checks.blacklist as { listings?: { zone: string; target: string; answer: string }[] } | undefined;
  for (const l of check?.listings ?? []) {
    const newer = hits.find((h) => h.target === l.target && h.zone === l.zone);
    if (newer && d.lastCheckedAt && newer.checkedAt >= d.lastCheckedAt.toISOString()) continue;
    if (newer) hits.splice(hits.indexOf(newer), 1);
    hits.push({
      target: l.target,
      type: l.target === d.domain ? "domain" : "ip",
      zone: l.zone,
      answer: l.answer,
      checkedAt: d.lastCheckedAt?.toISOString() ?? "",
      source: "domain-check",
      jobId: null,
    });
  }
  return hits.sort((a, b) => b.checkedAt.localeCompare(a.checkedAt));
}

export async function mailboxReport(ctx: Ctx, id: string) {
  requireAccess(ctx, "read");
  const now = ctx.clock.now();
  const [row] = await ctx.db
    .select({ m: mailboxes, d: domains })
    .from(mailboxes)
    .innerJoin(domains, eq(domains.id, mailboxes.domainId))
    .where(and(eq(mailboxes.id, id), eq(mailboxes.workspaceId, ctx.workspaceId)));
  if (!row) throw new NotFoundError("Mailbox");
  const { m, d } = row;
  const [warmup, bounce, placements, hits, open] = await Promise.all([
    warmupReport(ctx.db, m.id, now),
    bounceRateSince(ctx.db, ctx.workspaceId, { from: new Date(now.getTime() - 30 * DAY_MS), to: now }, m.id),
    placementSummaries(ctx.db, and(eq(placementTests.workspaceId, ctx.workspaceId), eq(placementTests.mailboxId, m.id)), 5),
    blacklistHits(ctx.db, ctx.workspaceId, d),
    ctx.db
      .select()
      .from(alerts)
      .where(
        and(
          eq(alerts.workspaceId, ctx.workspaceId),
          isNull(alerts.resolvedAt),
          or(eq(alerts.mailboxId, m.id), eq(alerts.domain, d.domain)),
        ),
      )
      .orderBy(desc(alerts.seq)),
  ]);
  return {
    mailbox: { id: m.id, email: m.email, domain: d.domain, sendingEnabled: m.sendingEnabled, dailySendCap: m.dailySendCap },
    health: {
      status: healthStatus(m, now),
      loginFailingSince: m.loginFailingSince?.toISOString() ?? null,
      loginError: m.loginError,
      readFailingSince: m.readFailingSince?.toISOString() ?? null,
      readError: m.readError,
      autoPausedAt: m.autoPausedAt?.toISOString() ?? null,
      autoPauseReason: m.autoPauseReason,
      lastCheckedAt: m.lastCheckedAt?.toISOString() ?? null,
    },
    warmupStatus: m.warmupStatus,
    warmup,
    bounceRate: bounce.rate,
    bounces: { sent: bounce.sent, bounced: bounce.bounced, days: 30 },
    placements,
    blacklist: { domainStatus: d.blacklistStatus, hits },
    alerts: open.map(alertView),
  };
}
