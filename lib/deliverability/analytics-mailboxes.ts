import { asc, eq, sql } from "drizzle-orm";
import { selectRows } from "../../db/bulk";
import { domains, emails, mailboxes } from "../../db/schema";
import { countBy } from "../analytics/counts";
import { requireAccess, type Ctx } from "../ctx";
import { healthStatus } from "../mailboxes/view";
import { utcDay } from "../sending/window";

/**
 * GET /analytics/mailboxes: per mailbox its health, warmup
 * status, cap, the campaign emails it counted today against that cap (SENDING, SENT, BOUNCED in the
 * UTC day, as the send engine counts them against the cap) and its bounce rate over the last 30 days
 * (bounced over SENT + BOUNCED; 0 when it sent none). The 30-day numbers come from the one counting
 * module (lib/analytics/counts.ts), so they match GET /analytics/mailbox-stats?days=30. Campaign email
 * only: warmup mail lives in its own table and is never counted.
 */

const DAY_MS = 24 * 3600_000;
const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

export async function analyticsMailboxes(ctx: Ctx) {
  requireAccess(ctx, "read");
  const now = ctx.clock.now();
  const today = utcDay(now);
  const since = new Date(now.getTime() - 30 * DAY_MS);
  const [rows, counts, month] = await Promise.all([
    ctx.db
      .select({ m: mailboxes, domain: domains.domain })
      .from(mailboxes)
      .innerJoin(domains, eq(domains.id, mailboxes.domainId))
      .where(eq(mailboxes.workspaceId, ctx.workspaceId))
      .orderBy(asc(mailboxes.seq)),
    selectRows<{ id: string; sent_today: number }>(
      ctx.db,
      sql`select ${emails.mailboxId} as id, count(*)::int as sent_today
        from ${emails}
        where ${emails.workspaceId} = ${ctx.workspaceId} and ${emails.campaignId} is not null
          and ${emails.status} in ('SENDING', 'SENT', 'BOUNCED') and ${emails.createdAt} >= ${ts(today.start)}
        group by ${emails.mailboxId}`,
    ),
    countBy(ctx.db, "mailbox", { workspaceId: ctx.workspaceId, period: { from: since, to: now } }),
  ]);
  const sentTodayBy = new Map(counts.map((c) => [c.id, c.sent_today]));
  return {
    mailboxes: rows.map(({ m, domain }) => {
      const c = month.get(m.id);
      const sent = c?.sent ?? 0;
      return {
        id: m.id,
        email: m.email,
        domain,
        healthStatus: healthStatus(m, now),
        warmupStatus: m.warmupStatus,
        sendingEnabled: m.sendingEnabled,
        isSeed: m.isSeed,
        dailySendCap: m.dailySendCap,
        sentToday: sentTodayBy.get(m.id) ?? 0,
        sent30d: sent,
        bounced30d: c?.bounced ?? 0,
        bounceRate: sent > 0 ? (c?.bounced ?? 0) / sent : 0,
      };
    }),
  };
}
