import { and, gte, inArray, isNotNull, lt, type SQL, sql } from "drizzle-orm";
import { anyOf, recordset, selectRows, valuesOf } from "../../../db/bulk";
import type { DbOrTx } from "../../../db/client";
import { campaignLeads, campaigns, emails, leads, mailboxes } from "../../../db/schema";
import { utcDay } from "../window";
import type { DueLead, Mailbox, Release } from "./types";

/**
 * Claiming: which mailboxes may send now and have due work, their leases (SKIP LOCKED: one sender per
 * mailbox at a time across all workers), their first due leads and today's counts, and the lease's end.
 */

/**
 * How long a claimed mailbox stays ours: longer than a pass can keep it (its turn among the sender's
 * lanes plus one SMTP conversation, bounded by the transport's 15 s + 15 s + 60 s timeouts), short
 * enough that a crashed worker's mailboxes are picked up again within minutes.
 */
const LEASE_MS = 5 * 60_000;
/**
 * Due campaign leads read per claimed mailbox in one pass (the first one the rules allow is sent). Small
 * on purpose: every lead the rules turn away is deferred (window, new-lead cap) or moved (stopped,
 * finished, next step), so the head of each mailbox's queue is sendable in the steady state.
 */
const DUE_PER_MAILBOX = 2;
/** Counted statuses: every email that was (or may have been) handed to SMTP. Refusals do not count. */
export const COUNTED = ["SENDING", "SENT", "BOUNCED"] as const;

const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** A campaign lead due now in an ACTIVE campaign that has started (the partial index's 'ACTIVE' literal). */
function leadDue(now: Date): SQL {
  return sql`${campaignLeads.status} = 'ACTIVE' and ${campaigns.status} = 'ACTIVE'
    and (${campaignLeads.nextSendAt} is null or ${campaignLeads.nextSendAt} <= ${at(now)})
    and (${campaigns.startAt} is null or ${campaigns.startAt} <= ${at(now)})`;
}

/** A mailbox that may send now (on, login working, not paused, its gap passed) and has due work. */
function mailboxDue(now: Date): SQL {
  return sql`${mailboxes.sendingEnabled} and ${mailboxes.loginFailingSince} is null and ${mailboxes.autoPausedAt} is null
    and (${mailboxes.nextSendAt} is null or ${mailboxes.nextSendAt} <= ${at(now)})
    and exists (
      select 1 from ${campaignLeads} join ${campaigns} on ${campaigns.id} = ${campaignLeads.campaignId}
      where ${campaignLeads.mailboxId} = ${mailboxes.id} and ${leadDue(now)})`;
}

/** Mailboxes with due work now (read only): the fan-out list when Inngest drives one run per mailbox. */
export async function mailboxesWithDueWork(db: DbOrTx, now: Date, limit = 5000): Promise<string[]> {
  const rows = await db
    .select({ id: mailboxes.id })
    .from(mailboxes)
    .where(mailboxDue(now))
    .orderBy(sql`${mailboxes.nextSendAt} nulls first`)
    .limit(limit);
  return rows.map((r) => r.id);
}

/** Claims up to `limit` mailboxes that may send now, with a lease; one statement returns their rows. */
export async function claimMailboxes(db: DbOrTx, now: Date, limit: number, only?: string[]): Promise<Mailbox[]> {
  return db
    .update(mailboxes)
    .set({ sendLeaseUntil: new Date(now.getTime() + LEASE_MS) })
    .where(
      sql`${mailboxes.id} in (
        select ${mailboxes.id} from ${mailboxes}
        where ${only ? sql`${mailboxes.id} = ${anyOf(only)} and` : sql``} ${mailboxDue(now)}
          and (${mailboxes.sendLeaseUntil} is null or ${mailboxes.sendLeaseUntil} < ${at(now)})
        order by ${mailboxes.nextSendAt} nulls first
        limit ${limit}
        for update skip locked)`,
    )
    .returning();
}

/** Campaign emails of each mailbox in today's UTC day: what its dailySendCap counts (spec 2.3). */
export async function sentToday(db: DbOrTx, mailboxIds: string[], now: Date): Promise<Map<string, number>> {
  const day = utcDay(now);
  const rows = await db
    .select({ mailboxId: emails.mailboxId, n: sql<number>`count(*)::int` })
    .from(emails)
    .where(
      and(
        sql`${emails.mailboxId} = ${anyOf(mailboxIds)}`,
        isNotNull(emails.campaignId),
        inArray(emails.status, [...COUNTED]),
        gte(emails.createdAt, day.start),
        lt(emails.createdAt, day.end),
      ),
    )
    .groupBy(emails.mailboxId);
  return new Map(rows.map((r) => [r.mailboxId, r.n]));
}

/** The first due campaign leads of each mailbox, in order (oldest due first, then the order added). */
export async function dueLeads(db: DbOrTx, mailboxIds: string[], now: Date): Promise<DueLead[]> {
  return selectRows<DueLead & Record<string, unknown>>(
    db,
    sql`select x.* from ${valuesOf(mailboxIds)} as mid(id)
      cross join lateral (
        select ${campaignLeads.mailboxId} as "mailboxId", ${campaignLeads.campaignId} as "campaignId",
          ${campaignLeads.leadId} as "leadId", ${campaignLeads.status} as "status",
          ${campaignLeads.nextStepOrder} as "nextStepOrder", ${campaignLeads.nextSendAt} as "nextSendAt",
          ${campaignLeads.failedAttempts} as "failedAttempts", ${campaignLeads.firstEmailedAt} as "firstEmailedAt",
          ${campaignLeads.lastEmailedAt} as "lastEmailedAt", ${leads.email} as "email", ${leads.timezone} as "timezone"
        from ${campaignLeads}
        join ${campaigns} on ${campaigns.id} = ${campaignLeads.campaignId}
        join ${leads} on ${leads.id} = ${campaignLeads.leadId}
        where ${campaignLeads.mailboxId} = mid.id and ${leadDue(now)}
        order by ${campaignLeads.nextSendAt} nulls first, ${campaignLeads.seq}
        limit ${DUE_PER_MAILBOX}) x`,
  );
}

/** `update mailboxes … from (rows)`: lease off, and a new next_send_at where one is given. */
export function releaseStatement(rows: readonly Release[]): SQL {
  const v = recordset("v", { id: mailboxes.id, at: mailboxes.nextSendAt }, rows);
  return sql`update ${mailboxes} set ${sql.identifier(mailboxes.sendLeaseUntil.name)} = null,
      ${sql.identifier(mailboxes.nextSendAt.name)} = coalesce(${v.col("at")}, ${mailboxes.nextSendAt})
    from ${v.from} where ${mailboxes.id} = ${v.col("id")}`;
}

/** Lease off; a new next_send_at where one is given (`at: null` keeps the mailbox's own). */
export async function releaseMailboxes(db: DbOrTx, rows: readonly Release[]): Promise<void> {
  if (rows.length) await db.execute(releaseStatement(rows));
}
