import { asc, eq, sql } from "drizzle-orm";
import { selectRows } from "../../db/bulk";
import { domains, emails, mailboxes } from "../../db/schema";
import { requireAccess, type Ctx } from "../ctx";
import { healthStatus } from "../mailboxes/view";
import { utcDay } from "../sending/window";

/**
 * GET /analytics/mailboxes (spec 4.13, decisions "Analytics errors"): per mailbox its health, warmup
 * status, cap, the campaign emails it counted today against that cap (SENDING, SENT, BOUNCED in the
 * UTC day, as the send engine counts them) and its bounce rate over the last 30 days (bounced over
 * SENT + BOUNCED; 0 when it sent none, as the other analytics rates). Campaign email only: warmup mail
 * lives in its own table and is never counted.
 */

const DAY_MS = 24 * 3600_000;
const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

export async function analyticsMailboxes(ctx: Ctx) {
  requireAccess(ctx, "read");
  const now = ctx.clock.now();
  const today = utcDay(now);
  const since = new Date(now.getTime() - 30 * DAY_MS);
  const [rows, counts] = await Promise.all([
    ctx.db
      .select({ m: mailboxes, domain: domains.domain })
      .from(mailboxes)
      .innerJoin(domains, eq(domains.id, mailboxes.domainId))
      .where(eq(mailboxes.workspaceId, ctx.workspaceId))
      .orderBy(asc(mailboxes.seq)),
    selectRows<{ id: string; sent_today: number; sent: number; bounced: number }>(
      ctx.db,
      sql`select ${emails.mailboxId} as id,
          count(*) filter (where ${emails.status} in ('SENDING', 'SENT', 'BOUNCED') and ${emails.createdAt} >= ${ts(today.start)})::int as sent_today,
          count(*) filter (where ${emails.status} in ('SENT', 'BOUNCED'))::int as sent,
          count(*) filter (where ${emails.status} = 'BOUNCED')::int as bounced
        from ${emails}
        where ${emails.workspaceId} = ${ctx.workspaceId} and ${emails.campaignId} is not null
          and ${emails.createdAt} >= ${ts(since)}
        group by ${emails.mailboxId}`,
    ),
  ]);
  const by = new Map(counts.map((c) => [c.id, c]));
  return {
    mailboxes: rows.map(({ m, domain }) => {
      const c = by.get(m.id);
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
        sentToday: c?.sent_today ?? 0,
        sent30d: sent,
        bounced30d: c?.bounced ?? 0,
        bounceRate: sent > 0 ? (c?.bounced ?? 0) / sent : 0,
      };
    }),
  };
}
