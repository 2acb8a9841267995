import { type SQL, sql } from "drizzle-orm";
import { anyOf, recordset, selectRows } from "../../../db/bulk";
import type { DbOrTx } from "../../../db/client";
import { campaignLeads, campaigns, emails, leads, mailboxes } from "../../../db/schema";
import { utcDay } from "../window";
import { at } from "./sql";
import type { DueLead, Release } from "./types";

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
 * Due campaign leads looked at per claimed mailbox in one pass (the first one the rules allow is sent).
 * Small on purpose: every lead the rules turn away is deferred (window, new-lead cap) or moved (stopped,
 * finished, next step), so the head of each mailbox's queue is sendable in the steady state. The claim
 * reads only the first (with two, the steady state read and parsed twice the lead rows it sends: a
 * quarter of a tick); the rest are read, in the same order, only for the mailboxes whose first lead
 * was not sent (`nextDueLeads`, the scheduler's second look).
 */
const DUE_PER_MAILBOX = 2;
/** Counted statuses: every email that was (or may have been) handed to SMTP. Refusals do not count. */
export const COUNTED = ["SENDING", "SENT", "BOUNCED"] as const;

/** `emails.status in (…COUNTED)`. */
export const counted = sql`${emails.status} in ${sql.raw(`(${COUNTED.map((s) => `'${s}'`).join(", ")})`)}`;

/**
 * A campaign lead due now in an ACTIVE campaign that has started, not waiting for a branch decision
 * (those are the branch job's: lib/sending/branching.ts). On the partial index (mailbox_id,
 * next_send_at nulls first, seq) where status = 'ACTIVE' (the literal must stay): the time test has no
 * OR, so a mailbox's leads are walked in the index's order and the walk stops at the LIMIT; the
 * campaign is a scalar subquery by its key, so the planner cannot turn it into a join that starts from
 * the few campaigns and reads every lead of each.
 */
function leadDue(now: Date): SQL {
  return sql`${campaignLeads.status} = 'ACTIVE' and coalesce(${campaignLeads.nextSendAt}, '-infinity') <= ${at(now)}
    and ${campaignLeads.branchStepId} is null
    and (select ${campaigns.status} = 'ACTIVE' and (${campaigns.startAt} is null or ${campaigns.startAt} <= ${at(now)})
      from ${campaigns} where ${campaigns.id} = ${campaignLeads.campaignId})`;
}

/**
 * When a mailbox may send next, never-sent ones first: the key of the partial index mailboxes_send_due_idx
 * (whose predicate is the sendable tests below), so the claim walks the sendable mailboxes in pacing order
 * and stops at its limit instead of sorting all of them in every round of a pass.
 */
const MAILBOX_DUE_AT = sql`coalesce(${mailboxes.nextSendAt}, '-infinity'::timestamptz)`;

/** A mailbox that may send now: on, not a seed, login working, not paused, its gap passed (cheap column tests). */
function mailboxSendable(now: Date): SQL {
  return sql`${mailboxes.sendingEnabled} and not ${mailboxes.isSeed} and ${mailboxes.loginFailingSince} is null and ${mailboxes.autoPausedAt} is null
    and ${MAILBOX_DUE_AT} <= ${at(now)}`;
}

/**
 * The mailbox `id` has due work: a scalar subquery, so it runs as one index probe per mailbox (an
 * EXISTS would be turned into a join over every due lead). Ordered like the due-leads index, so the
 * probe walks that index from the mailbox's earliest due lead (the first entry, when any is due)
 * instead of the mailbox's leads in any order (about 7 heap rows per probe in the steady state).
 */
function hasDueWork(id: SQL, now: Date): SQL {
  return sql`(select 1 from ${campaignLeads} where ${campaignLeads.mailboxId} = ${id} and ${leadDue(now)}
    order by ${campaignLeads.nextSendAt} nulls first, ${campaignLeads.seq} limit 1) is not null`;
}

/** A mailbox that may send now and has due work. */
function mailboxDue(now: Date): SQL {
  return sql`${mailboxSendable(now)} and ${hasDueWork(sql`${mailboxes.id}`, now)}`;
}

/** Mailboxes with due work now (read only): the fan-out list when Inngest drives one run per mailbox. */
export async function mailboxesWithDueWork(db: DbOrTx, now: Date, limit = 5000): Promise<string[]> {
  const rows = await db.select({ id: mailboxes.id }).from(mailboxes).where(mailboxDue(now)).orderBy(MAILBOX_DUE_AT).limit(limit);
  return rows.map((r) => r.id);
}

/** What one claim statement returns: the claimed mailboxes, today's counts and their first due leads. */
export interface Claim {
  /** Claimed mailbox ids, in claim order (the ones paced longest ago first). */
  mailboxIds: string[];
  /** Campaign emails of each mailbox in today's UTC day: what its dailySendCap counts. */
  sentToday: Map<string, number>;
  /** Each mailbox's first due campaign leads, in order (oldest due first, then the order added). */
  due: DueLead[];
}

/** `dueSeq` only orders a mailbox's due leads as the index does (the outer sort is not stable). */
type ClaimRow = { claimedId: string; sentToday: number; dueSeq: number | null } & { [K in keyof DueLead]: DueLead[K] | null };

/**
 * Up to `limit` due leads of the mailbox `mailboxId`, in queue order, on the partial index (mailbox,
 * due, seq), leaving out the campaign lead `except` (the one a first read already returned).
 */
function dueLeads(now: Date, mailboxId: SQL, limit: number, except?: { campaignId: SQL; leadId: SQL }): SQL {
  const cl = campaignLeads;
  return sql`select ${cl.workspaceId} as "workspaceId", ${cl.mailboxId} as "mailboxId", ${cl.campaignId} as "campaignId", ${cl.leadId} as "leadId",
      ${cl.status} as "status", ${cl.nextStepOrder} as "nextStepOrder", ${cl.subsequenceId} as "subsequenceId", ${cl.nextSendAt} as "nextSendAt",
      ${cl.failedAttempts} as "failedAttempts", ${cl.firstEmailedAt} as "firstEmailedAt",
      ${cl.lastEmailedAt} as "lastEmailedAt", ${leads.email} as "email", ${leads.timezone} as "timezone",
      ${leads.firstName} as "firstName", ${leads.lastName} as "lastName", ${leads.companyName} as "companyName",
      ${leads.companyDomain} as "companyDomain", ${leads.jobTitle} as "jobTitle", ${leads.phoneNumber} as "phoneNumber",
      ${leads.customFields} as "customFields", ${cl.seq} as "dueSeq"
    from ${cl}
    join ${leads} on ${leads.id} = ${cl.leadId}
    where ${cl.mailboxId} = ${mailboxId} and ${leadDue(now)}
      ${except ? sql`and not (${cl.campaignId} = ${except.campaignId} and ${cl.leadId} = ${except.leadId})` : sql``}
    order by ${cl.nextSendAt} nulls first, ${cl.seq}
    limit ${limit}`;
}

/**
 * Claims up to `limit` mailboxes that may send now, with a lease (UPDATE … SKIP LOCKED), and in the
 * same statement reads what the rules need first of each: its campaign emails today and its first
 * due lead (LATERAL). One round trip; the full mailbox rows come with the pass's other reads.
 * The sendable, lease-free mailboxes are sorted and locked lazily in a fenced subquery (its ORDER BY
 * and FOR UPDATE keep it from being flattened), so the due-work probe runs only on the rows pulled
 * until `limit` pass it — not on every mailbox before the sort, once per round of a large pass.
 */
export async function claimDue(db: DbOrTx, now: Date, limit: number, only?: string[]): Promise<Claim> {
  const day = utcDay(now);
  const rows = await selectRows<ClaimRow>(
    db,
    sql`with claimed as (
        update ${mailboxes} set ${sql.identifier(mailboxes.sendLeaseUntil.name)} = ${at(new Date(now.getTime() + LEASE_MS))}
        where ${mailboxes.id} = any(array(
          select c.id from (
            select ${mailboxes.id} from ${mailboxes}
            where ${only ? sql`${mailboxes.id} = ${anyOf(only)} and` : sql``} ${mailboxSendable(now)}
              and (${mailboxes.sendLeaseUntil} is null or ${mailboxes.sendLeaseUntil} < ${at(now)})
            order by ${MAILBOX_DUE_AT}
            for update skip locked) c
          where ${hasDueWork(sql`c.id`, now)}
          limit ${limit}))
        returning ${mailboxes.id}, ${mailboxes.nextSendAt})
      select claimed.id as "claimedId", t.n as "sentToday", x.*
      from claimed
      cross join lateral (
        select count(*)::int as n from ${emails}
        where ${emails.mailboxId} = claimed.id and ${emails.campaignId} is not null and ${counted}
          and ${emails.createdAt} >= ${at(day.start)} and ${emails.createdAt} < ${at(day.end)}) t
      left join lateral (${dueLeads(now, sql`claimed.id`, 1)}) x on true
      order by claimed.next_send_at nulls first, claimed.id, x."nextSendAt" nulls first, x."dueSeq"`,
  );
  const claim: Claim = { mailboxIds: [], sentToday: new Map(), due: [] };
  for (const r of rows) {
    if (!claim.sentToday.has(r.claimedId)) {
      claim.mailboxIds.push(r.claimedId);
      claim.sentToday.set(r.claimedId, r.sentToday);
    }
    if (isDue(r)) claim.due.push(r);
  }
  return claim;
}

/**
 * The scheduler's second look: for each of these leads (a mailbox's first due lead, not sent this pass),
 * the mailbox's next due leads after it — up to DUE_PER_MAILBOX in all — in queue order: what a claim
 * reading DUE_PER_MAILBOX leads per mailbox would have returned after it.
 */
export async function nextDueLeads(db: DbOrTx, now: Date, firsts: readonly DueLead[]): Promise<DueLead[]> {
  if (firsts.length === 0) return [];
  const v = recordset(
    "v",
    { mailboxId: campaignLeads.mailboxId, campaignId: campaignLeads.campaignId, leadId: campaignLeads.leadId },
    firsts.map((d) => ({ mailboxId: d.mailboxId, campaignId: d.campaignId, leadId: d.leadId })),
  );
  const except = { campaignId: v.col("campaignId"), leadId: v.col("leadId") };
  const rows = await selectRows<{ [K in keyof DueLead]: DueLead[K] | null } & { dueSeq: number }>(
    db,
    sql`select x.* from ${v.from} cross join lateral (${dueLeads(now, v.col("mailboxId"), DUE_PER_MAILBOX - 1, except)}) x
      order by x."mailboxId", x."nextSendAt" nulls first, x."dueSeq"`,
  );
  return rows.filter(isDue);
}

/** A claim row that carries a due lead (a mailbox whose leads went since it was found has none). */
function isDue<R extends { [K in keyof DueLead]: DueLead[K] | null }>(r: R): r is R & DueLead {
  return (
    r.leadId !== null &&
    r.customFields !== null &&
    r.workspaceId !== null &&
    r.campaignId !== null &&
    r.mailboxId !== null &&
    r.email !== null &&
    r.status !== null
  );
}

/** `update mailboxes … from (rows)`: lease off, and a new next_send_at where one is given. */
export function releaseStatement(rows: readonly Release[]): SQL {
  const v = recordset("v", { id: mailboxes.id, at: mailboxes.nextSendAt }, rows);
  return sql`update ${mailboxes} set ${sql.identifier(mailboxes.sendLeaseUntil.name)} = null,
      ${sql.identifier(mailboxes.nextSendAt.name)} = coalesce(${v.col("at")}, ${mailboxes.nextSendAt})
    from ${v.from} where ${v.matches(mailboxes.id, "id")}`;
}

/** Lease off; a new next_send_at where one is given (`at: null` keeps the mailbox's own). */
export async function releaseMailboxes(db: DbOrTx, rows: readonly Release[]): Promise<void> {
  if (rows.length) await db.execute(releaseStatement(rows));
}
