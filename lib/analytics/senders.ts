import { asc, eq, sql } from "drizzle-orm";
import { domains, mailboxes } from "../../db/schema";
import { requireAccess, type Ctx } from "../ctx";
import { healthStatus } from "../mailboxes/view";
import { countBy, ZERO } from "./counts";
import { lastUtcDays, type Period, periodView, utcDays } from "./period";
import type { Counts } from "./rollups";
import { senderNumbers } from "./views";

const DAY_MS = 86_400_000;
/** The tables' sparklines: campaign emails sent per UTC day over the last 14 days, today included. */
export const SPARK_DAYS = 14;

/** Per owner (mailbox id or domain), its sent count for each of the last SPARK_DAYS UTC days, oldest first. */
async function sentDaily(ctx: Ctx, by: "mailboxDay" | "domainDay") {
  const period = lastUtcDays(ctx.clock.now(), SPARK_DAYS);
  const counted = await countBy(ctx.db, by, { workspaceId: ctx.workspaceId, period });
  const days = utcDays(period);
  return (owner: string) => days.map((d) => counted.get(`${owner} ${d}`)?.sent ?? 0);
}

export type Activity = "active" | "low_activity" | "inactive" | "not_sending";
/** Best first: a domain's activity is the best of its mailboxes'. */
const ACTIVITY_ORDER: Activity[] = ["active", "low_activity", "inactive", "not_sending"];

/**
 * Rule 8, over the last 7 days whatever the period: campaign sending off (paused, auto-paused or a
 * seed, which never sends campaign email) → not_sending; otherwise by campaign emails in 7 days
 * against the daily cap.
 */
export function activityOf(
  m: { sendingEnabled: boolean; autoPausedAt: Date | null; isSeed: boolean; dailySendCap: number },
  sent7: number,
): Activity {
  if (!m.sendingEnabled || m.autoPausedAt || m.isSeed) return "not_sending";
  if (sent7 === 0) return "inactive";
  return sent7 >= m.dailySendCap ? "active" : "low_activity";
}

export function bestActivity(list: Activity[]): Activity {
  return ACTIVITY_ORDER.find((a) => list.includes(a)) ?? "not_sending";
}

/**
 * The workspace's mailboxes with their domain and the last 7 days' sends. The period's counts
 * are the caller's: per mailbox for mailbox-stats, per domain for domain-stats.
 */
async function mailboxRows(ctx: Ctx, domain?: string) {
  const now = ctx.clock.now();
  const week: Period = { from: new Date(now.getTime() - 7 * DAY_MS), to: now };
  const [rows, last7] = await Promise.all([
    ctx.db
      .select({ m: mailboxes, d: domains })
      .from(mailboxes)
      .innerJoin(domains, eq(domains.id, mailboxes.domainId))
      .where(
        domain === undefined
          ? eq(mailboxes.workspaceId, ctx.workspaceId)
          : sql`${mailboxes.workspaceId} = ${ctx.workspaceId} and ${domains.domain} = ${domain.toLowerCase()}`,
      )
      .orderBy(asc(mailboxes.seq)),
    countBy(ctx.db, "mailbox", { workspaceId: ctx.workspaceId, domain, period: week }),
  ]);
  return rows.map(({ m, d }) => {
    const sentLast7Days = last7.get(m.id)?.sent ?? 0;
    return { m, d, sentLast7Days, activity: activityOf(m, sentLast7Days), health: healthStatus(m, now) };
  });
}

/** GET /analytics/mailbox-stats. */
export async function mailboxStats(ctx: Ctx, period: Period, domain?: string) {
  requireAccess(ctx, "read");
  const [rows, counts, daily] = await Promise.all([
    mailboxRows(ctx, domain),
    countBy(ctx.db, "mailbox", { workspaceId: ctx.workspaceId, domain, period }),
    sentDaily(ctx, "mailboxDay"),
  ]);
  return {
    ...periodView(period),
    mailboxes: rows.map((r) => ({
      id: r.m.id,
      emailAddress: r.m.email,
      domain: r.d.domain,
      healthStatus: r.health,
      sendingEnabled: r.m.sendingEnabled,
      dailySendCap: r.m.dailySendCap,
      ...senderNumbers(counts.get(r.m.id) ?? ZERO),
      activity: r.activity,
      sentLast7Days: r.sentLast7Days,
      sentDaily: daily(r.m.id),
    })),
  };
}

/**
 * GET /analytics/domain-stats: the same numbers per sending domain — counted per domain, not
 * summed from its mailboxes, so a lead two mailboxes emailed is one lead — plus its mailbox count and
 * DNS checks; the activity is the best of its mailboxes'.
 */
export async function domainStats(ctx: Ctx, period: Period) {
  requireAccess(ctx, "read");
  const [rows, counts, daily] = await Promise.all([
    mailboxRows(ctx),
    countBy(ctx.db, "domain", { workspaceId: ctx.workspaceId, period }),
    sentDaily(ctx, "domainDay"),
  ]);
  const byDomain = new Map<string, { d: (typeof rows)[number]["d"]; list: typeof rows }>();
  for (const r of rows) {
    const g = byDomain.get(r.d.domain) ?? { d: r.d, list: [] };
    g.list.push(r);
    byDomain.set(r.d.domain, g);
  }
  return {
    ...periodView(period),
    domains: [...byDomain.values()].map(({ d, list }) => {
      const c: Counts = counts.get(d.domain) ?? ZERO;
      return {
        domain: d.domain,
        mailboxes: list.length,
        spfStatus: d.spfStatus,
        dkimStatus: d.dkimStatus,
        dmarcStatus: d.dmarcStatus,
        ...senderNumbers(c),
        activity: bestActivity(list.map((r) => r.activity)),
        sentLast7Days: list.reduce((n, r) => n + r.sentLast7Days, 0),
        sentDaily: daily(d.domain),
      };
    }),
  };
}
