import { systemCtx } from "../ctx";
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { campaignLeads, campaignSteps, campaigns, emails, leads, mailboxes } from "../../db/schema";
import { stepFiles } from "../campaigns/attachments";
import type { Clock } from "../clock";
import { emitEvent } from "../events/emit";
import { newEventId, newId } from "../ids";
import type { JobDef } from "../jobs/registry";
import { newMessageId } from "../mail/message-id";
import { classifySmtpError } from "../mail/smtp";
import { smtpConfigOf } from "../mailboxes/credentials";
import { addSuppressions } from "../suppressions/suppressions";
import { suppressedAmong } from "../suppressions/check";
import { LEAD_VARIABLES, MAILBOX_VARIABLES, renderStep, renderSubject, tokenNames } from "../templates/render";
import { classifySendError } from "./bounce";
import { addOpenPixel, rewriteLinks, unsubscribeUrl } from "./tracking";
import { dropTransport, pooledTransport } from "./transports";
import { campaignDay, inWindow, nextWindowOpen, utcDay, zoneFor } from "./window";

type Mailbox = typeof mailboxes.$inferSelect;
type Campaign = typeof campaigns.$inferSelect;
type Lead = typeof leads.$inferSelect;
type Step = typeof campaignSteps.$inferSelect;

export const BOUNCE_RATE_THRESHOLD = 0.018;
const BOUNCE_WINDOW_MS = 30 * 24 * 3600_000;
const MAX_FAILED_ATTEMPTS = 5;
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
const COUNTED = sql`('SENDING', 'SENT', 'BOUNCED')`;

const iso = (d: Date) => d.toISOString();
/**
 * Many values as one parameter (a JSON array): one statement whatever the count, no 65,535-parameter
 * limit. `anyOf` is for `col = any(…)`: an array the planner sees as one value list (index scan or one
 * pass), never a join it could misplan into a scan per value on a table whose statistics are stale.
 */
const jsonList = (values: string[]) => sql`(select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))`;
const anyOf = (values: string[]) => sql`any(array(select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb)))`;
const jsonRows = (rows: object[]) => sql`${JSON.stringify(rows)}::jsonb`;
/** Appends to the list kept under `key` (Map.groupBy is Node 21+). */
function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
async function rowsOf<T>(db: DbOrTx, q: SQL): Promise<T[]> {
  return (await db.execute(q)) as unknown as T[];
}

/**
 * Mailboxes that may send now and have due work, claimed with a lease (SKIP LOCKED): one sender per
 * mailbox at a time across all workers.
 */
function dueMailboxCondition(now: Date) {
  return sql`m.sending_enabled and m.login_failing_since is null and m.auto_paused_at is null
        and (m.next_send_at is null or m.next_send_at <= ${iso(now)}::timestamptz)
        and exists (
          select 1 from campaign_leads cl join campaigns c on c.id = cl.campaign_id
          where cl.mailbox_id = m.id and cl.status = 'ACTIVE' and c.status = 'ACTIVE'
            and (cl.next_send_at is null or cl.next_send_at <= ${iso(now)}::timestamptz)
            and (c.start_at is null or c.start_at <= ${iso(now)}::timestamptz))`;
}

/** Mailboxes with due work now (read only): the fan-out list when Inngest drives one run per mailbox. */
export async function mailboxesWithDueWork(db: DbOrTx, now: Date, limit = 5000): Promise<string[]> {
  const rows = await rowsOf<{ id: string }>(
    db,
    sql`select m.id from mailboxes m where ${dueMailboxCondition(now)} order by m.next_send_at nulls first limit ${limit}`,
  );
  return rows.map((r) => r.id);
}

async function claimMailboxes(db: DbOrTx, now: Date, limit: number, only?: string[]): Promise<Mailbox[]> {
  // One statement: claim with SKIP LOCKED and return the rows (no second read of the claimed ids).
  return db
    .update(mailboxes)
    .set({ sendLeaseUntil: new Date(now.getTime() + LEASE_MS) })
    .where(
      sql`${mailboxes.id} in (
        select m.id from mailboxes m
        where ${only ? sql`m.id = ${anyOf(only)} and` : sql``} ${dueMailboxCondition(now)}
          and (m.send_lease_until is null or m.send_lease_until < ${iso(now)}::timestamptz)
        order by m.next_send_at nulls first
        limit ${limit}
        for update skip locked)`,
    )
    .returning();
}

/** Variant pick: random, or Thompson sampling on replies ÷ sends when the campaign optimises (spec 2.3). */
export function pickVariant(
  variants: Step[],
  stats: Map<string, { sends: number; replies: number }>,
  optimise: boolean,
  rand = Math.random,
): Step {
  if (variants.length === 1) return variants[0];
  if (!optimise) return variants[Math.floor(rand() * variants.length)];
  let best = variants[0];
  let bestDraw = -1;
  for (const v of variants) {
    const s = stats.get(v.id) ?? { sends: 0, replies: 0 };
    const draw = betaSample(s.replies + 1, Math.max(0, s.sends - s.replies) + 1, rand);
    if (draw > bestDraw) [best, bestDraw] = [v, draw];
  }
  return best;
}

function gammaSample(k: number, rand: () => number): number {
  // Marsaglia–Tsang for k ≥ 1 (k is always ≥ 1 here).
  const d = k - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number, v: number;
    do {
      const u1 = rand() || 1e-12;
      const u2 = rand();
      x = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
      v = 1 + c * x;
    } while (v <= 0);
    v = v ** 3;
    const u = rand();
    if (u < 1 - 0.0331 * x ** 4 || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}
function betaSample(a: number, b: number, rand: () => number): number {
  const x = gammaSample(a, rand);
  return x / (x + gammaSample(b, rand));
}

/** A due campaign lead as the scheduler reads it: the row's state plus what the rules need of the lead. */
interface DueRow {
  mailbox_id: string;
  campaign_id: string;
  lead_id: string;
  next_step_order: number;
  failed_attempts: number;
  first_emailed_at: string | null;
  last_emailed_at: string | null;
  email: string;
  timezone: string | null;
}

/** One email the scheduler committed as SENDING: everything the sender needs, no further reads. */
export interface Work {
  m: Mailbox;
  c: Campaign;
  lead: Lead;
  step: Step;
  /** Steps of the campaign (the next step's delay, and whether one exists). */
  steps: Step[];
  due: DueRow;
  emailId: string;
  messageId: string;
  subject: string;
  /** Message-IDs of the earlier emails of this lead in this campaign, oldest first (threading). */
  references: string[];
  /**
   * Custom-field names known in this campaign (some lead of it has the field): such a token is empty
   * text on a lead without it, exactly as in preview and test sends (spec 2.5.1 rule 2, one renderer).
   * Only the names the campaign's templates use are looked up, so it is that part of the set.
   */
  knownCustomFields: string[];
}

export interface SendReport {
  mailboxes: number;
  sent: number;
  bounced: number;
  failed: number;
}

export interface SendOptions {
  /** Mailboxes claimed in one pass (default 1,000). */
  mailboxLimit?: number;
  /** SMTP conversations in flight at once, one per mailbox (default 32). */
  concurrency?: number;
  /** Only these mailboxes (the Inngest fan-out: one run per mailbox). */
  mailboxIds?: string[];
}

/**
 * One pass of the send engine: every mailbox that may send now sends at most one campaign email — the
 * first due lead whose window is open — then waits its gap (pacing). Two halves: `scheduleDue` decides,
 * set-based, and commits each email as SENDING; `deliver` talks SMTP and records the outcomes. Every
 * rule is checked at claim time against the database (architecture: "Sending, exactly once at most").
 */
export async function sendDue(db: DbOrTx, clock: Clock, opts: SendOptions = {}): Promise<SendReport> {
  const { claimed, work } = await scheduleDue(db, clock, opts);
  const report = await deliver(db, clock, work, opts);
  return { ...report, mailboxes: claimed };
}

/**
 * The scheduler: claims the mailboxes that may send now (leases, SKIP LOCKED), picks for each the first
 * due lead every rule allows, and commits the chosen emails as SENDING (Message-ID fixed, lead moved
 * to its next step) in one transaction. A fixed number of statements whatever the number of mailboxes.
 * Mailboxes that get nothing are released; the others stay leased until `deliver` records them.
 */
export async function scheduleDue(db: DbOrTx, clock: Clock, opts: SendOptions = {}): Promise<{ claimed: number; work: Work[] }> {
  const now = clock.now();
  if (opts.mailboxIds && opts.mailboxIds.length === 0) return { claimed: 0, work: [] };
  const claimed = await claimMailboxes(db, now, opts.mailboxLimit ?? 1000, opts.mailboxIds);
  if (claimed.length === 0) return { claimed: 0, work: [] };
  const ids = claimed.map((m) => m.id);
  const today = utcDay(now);

  // Reads that do not depend on each other go out together (the pool has several connections).
  const [sentTodayRows, due] = await Promise.all([
    // Every campaign email of a mailbox today counts for its cap (spec 2.3 dailySendCap).
    rowsOf<{ mailbox_id: string; n: number }>(
      db,
      sql`select mailbox_id, count(*)::int as n from emails
          where mailbox_id = ${anyOf(ids)} and campaign_id is not null and status in ${COUNTED}
            and created_at >= ${iso(today.start)}::timestamptz and created_at < ${iso(today.end)}::timestamptz
          group by mailbox_id`,
    ),
    // The first due campaign leads of each mailbox, in order (oldest due first, then the order added).
    rowsOf<DueRow>(
      db,
      sql`select x.* from ${jsonList(ids)} as mid(id)
          cross join lateral (
            select cl.mailbox_id, cl.campaign_id, cl.lead_id, cl.next_step_order, cl.failed_attempts,
                   cl.first_emailed_at, cl.last_emailed_at, l.email, l.timezone
            from campaign_leads cl
            join campaigns c on c.id = cl.campaign_id
            join leads l on l.id = cl.lead_id
            where cl.mailbox_id = mid.id and cl.status = 'ACTIVE' and c.status = 'ACTIVE'
              and (cl.next_send_at is null or cl.next_send_at <= ${iso(now)}::timestamptz)
              and (c.start_at is null or c.start_at <= ${iso(now)}::timestamptz)
            order by cl.next_send_at nulls first, cl.seq
            limit ${DUE_PER_MAILBOX}) x`,
    ),
  ]);
  const sentToday = new Map(sentTodayRows.map((r) => [r.mailbox_id, r.n]));
  const open = claimed.filter((m) => (sentToday.get(m.id) ?? 0) < m.dailySendCap);
  // A mailbox at its cap waits for the next UTC day.
  const releases: { id: string; at: string | null }[] = claimed
    .filter((m) => (sentToday.get(m.id) ?? 0) >= m.dailySendCap)
    .map((m) => ({ id: m.id, at: iso(today.end) }));
  const dueBy = new Map<string, DueRow[]>();
  for (const d of due) push(dueBy, d.mailbox_id, d);

  const campaignIds = [...new Set(due.map((d) => d.campaign_id))];
  const workspaceOf = new Map(claimed.map((m) => [m.id, m.workspaceId]));
  const byWorkspace = new Map<string, string[]>();
  for (const d of due) {
    const ws = workspaceOf.get(d.mailbox_id)!;
    push(byWorkspace, ws, d.email);
  }
  const [campaignRows, stepRows, suppressedLists] = await Promise.all([
    campaignIds.length ? db.select().from(campaigns).where(inArray(campaigns.id, campaignIds)) : [],
    campaignIds.length ? db.select().from(campaignSteps).where(inArray(campaignSteps.campaignId, campaignIds)) : [],
    // Suppressed addresses (by address or domain), per workspace.
    Promise.all([...byWorkspace].map(async ([ws, list]) => [...(await suppressedAmong(db, ws, list))].map((e) => `${ws}\u0000${e}`))),
  ]);
  const campaignOf = new Map(campaignRows.map((c) => [c.id, c]));
  const stepsOf = new Map<string, Step[]>();
  for (const s of stepRows) push(stepsOf, s.campaignId, s);
  const suppressed = new Set(suppressedLists.flat());

  // First emails each capped campaign already sent in its own day (dailyNewLeadCap counts only those).
  const firstToday = await campaignFirstEmailsToday(
    db,
    campaignRows.filter((c) => c.dailyNewLeadCap !== null),
    now,
  );

  // The window depends only on the campaign, the zone and now: worked out once per pair in a pass.
  const windows = new Map<string, Date | null>();
  const windowOpen = (c: Campaign, zone: string | null): Date | null => {
    const key = `${c.id}\u0000${zone ?? ""}`;
    if (!windows.has(key)) windows.set(key, inWindow(c, zone, now) ? now : nextWindowOpen(c, zone, now));
    return windows.get(key)!;
  };
  const stops: { campaign_id: string; lead_id: string; status: "STOPPED" | "COMPLETED" }[] = [];
  const defers: { campaign_id: string; lead_id: string; at: string | null }[] = [];
  const skips: { campaign_id: string; lead_id: string; from_order: number; to_order: number }[] = [];
  const picks: { m: Mailbox; d: DueRow; c: Campaign; variants: Step[] }[] = [];
  for (const m of open) {
    let picked = false;
    for (const d of dueBy.get(m.id) ?? []) {
      const c = campaignOf.get(d.campaign_id)!;
      if (suppressed.has(`${m.workspaceId}\u0000${d.email.toLowerCase()}`)) {
        stops.push({ campaign_id: d.campaign_id, lead_id: d.lead_id, status: "STOPPED" });
        continue;
      }
      const steps = stepsOf.get(c.id) ?? [];
      const variants = steps.filter((s) => s.stepOrder === d.next_step_order);
      if (variants.length === 0) {
        // No step at this order: finished, or (steps renumbered since) on to the next one there is.
        const later = steps.filter((s) => s.stepOrder > d.next_step_order).map((s) => s.stepOrder);
        if (later.length === 0) stops.push({ campaign_id: d.campaign_id, lead_id: d.lead_id, status: "COMPLETED" });
        else skips.push({ campaign_id: d.campaign_id, lead_id: d.lead_id, from_order: d.next_step_order, to_order: Math.min(...later) });
        continue;
      }
      const opensAt = windowOpen(c, zoneFor(c, d.timezone));
      if (opensAt !== now) {
        // Not now: come back when this lead's window opens, instead of re-reading it every pass.
        defers.push({ campaign_id: d.campaign_id, lead_id: d.lead_id, at: opensAt ? iso(opensAt) : null });
        continue;
      }
      if (d.next_step_order === 0 && c.dailyNewLeadCap !== null) {
        if ((firstToday.get(c.id) ?? 0) >= c.dailyNewLeadCap) {
          // The campaign's new leads are done for its day: this one waits for the next (follow-ups
          // behind it in the queue go on). Raising the cap undoes the wait (deferrals.ts).
          defers.push({ campaign_id: d.campaign_id, lead_id: d.lead_id, at: iso(campaignDay(c.defaultTimezone, now).end) });
          continue;
        }
        firstToday.set(c.id, (firstToday.get(c.id) ?? 0) + 1);
      }
      picks.push({ m, d, c, variants });
      picked = true;
      break;
    }
    if (!picked) releases.push({ id: m.id, at: null });
  }

  // Variants: each step picks independently, random or Thompson sampling on replies ÷ sends.
  const optimised = picks.filter((p) => p.variants.length > 1 && p.c.abVariantOptimization).flatMap((p) => p.variants.map((v) => v.id));
  const [stats, earlier, leadRows, known] = await Promise.all([
    sendsByVariant(db, [...new Set(optimised)]),
    // Threading: the earlier emails of each follow-up's lead in its campaign, oldest first.
    earlierEmails(
      db,
      picks.filter((p) => p.d.next_step_order > 0).map((p) => ({ campaign_id: p.c.id, lead_id: p.d.lead_id })),
    ),
    picks.length
      ? db
          .select()
          .from(leads)
          .where(sql`${leads.id} = ${anyOf(picks.map((p) => p.d.lead_id))}`)
      : [],
    knownCustomFields(db, [...new Set(picks.map((p) => p.c.id))], stepsOf),
  ]);
  const leadOf = new Map(leadRows.map((l) => [l.id, l]));

  let work: Work[] = [];
  for (const p of picks) {
    const lead = leadOf.get(p.d.lead_id);
    if (!lead) continue; // deleted since the read
    const step = pickVariant(p.variants, stats, p.c.abVariantOptimization);
    const before = earlier.get(`${p.c.id}\u0000${lead.id}`) ?? [];
    // Follow-ups: same thread, "Re: " + the subject of the first email the lead got (spec 4.7 rule 1).
    const subject =
      step.stepOrder === 0 || !before[0]
        ? renderSubject(step.subject ?? "", lead, p.m, { knownCustomFields: known.get(p.c.id) ?? [] })
        : /^re:/i.test(before[0].subject)
          ? before[0].subject
          : `Re: ${before[0].subject}`;
    const emailId = newId("eml");
    work.push({
      m: p.m,
      c: p.c,
      lead,
      step,
      steps: stepsOf.get(p.c.id)!,
      due: p.d,
      emailId,
      messageId: newMessageId(p.m.email, emailId.slice(4)),
      subject,
      references: before.map((e) => e.message_id),
      knownCustomFields: known.get(p.c.id) ?? [],
    });
  }

  // Claim: in one transaction, move each lead to its next step — only if it is still ACTIVE, on the
  // same step and on this mailbox (a reply, pause or reassignment since the read wins) — and write the
  // emails of the leads that moved as SENDING. Then commit: from here on a crash never resends them.
  work = await db.transaction(async (tx) => {
    if (stops.length) {
      await tx.execute(sql`update campaign_leads cl set status = v.status::campaign_lead_status, next_send_at = null
        from jsonb_to_recordset(${jsonRows(stops)}) as v(campaign_id text, lead_id text, status text)
        where cl.campaign_id = v.campaign_id and cl.lead_id = v.lead_id and cl.status = 'ACTIVE'`);
    }
    if (defers.length) {
      await tx.execute(sql`update campaign_leads cl set next_send_at = v.at
        from jsonb_to_recordset(${jsonRows(defers)}) as v(campaign_id text, lead_id text, at timestamptz)
        where cl.campaign_id = v.campaign_id and cl.lead_id = v.lead_id and cl.status = 'ACTIVE'`);
    }
    if (skips.length) {
      await tx.execute(sql`update campaign_leads cl set next_step_order = v.to_order
        from jsonb_to_recordset(${jsonRows(skips)}) as v(campaign_id text, lead_id text, from_order int, to_order int)
        where cl.campaign_id = v.campaign_id and cl.lead_id = v.lead_id and cl.status = 'ACTIVE' and cl.next_step_order = v.from_order`);
    }
    if (work.length === 0) return work;
    const cappedNow = [...new Set(work.filter((w) => w.step.stepOrder === 0 && w.c.dailyNewLeadCap !== null).map((w) => w.c))];
    if (cappedNow.length) {
      // Several workers may pick first emails of one campaign at once: under the campaign's lock, count
      // again and keep only what its dailyNewLeadCap still allows.
      await tx.execute(sql`select id from campaigns where id = ${anyOf(cappedNow.map((c) => c.id))} order by id for update`);
      const room = await campaignFirstEmailsToday(tx, cappedNow, now);
      for (const c of cappedNow) room.set(c.id, c.dailyNewLeadCap! - (room.get(c.id) ?? 0));
      work = work.filter((w) => {
        if (w.step.stepOrder !== 0 || w.c.dailyNewLeadCap === null) return true;
        const left = room.get(w.c.id)!;
        room.set(w.c.id, left - 1);
        return left > 0;
      });
    }
    // One statement: move the leads (only if still ACTIVE, on the same step and on this mailbox) and
    // insert the emails of exactly the leads that moved.
    const rows = work.map((w) => {
      const next = w.steps.filter((s) => s.stepOrder === w.step.stepOrder + 1);
      const delayH = next.length ? Math.max(...next.map((s) => s.delayHoursAfterPrevious ?? 0)) : 0;
      return {
        campaign_id: w.c.id,
        lead_id: w.lead.id,
        mailbox_id: w.m.id,
        expected: w.step.stepOrder,
        next_status: next.length ? "ACTIVE" : "COMPLETED",
        next_send_at: next.length ? iso(new Date(now.getTime() + delayH * 3600_000)) : null,
        id: w.emailId,
        workspace_id: w.m.workspaceId,
        lead_email: w.lead.email,
        step_id: w.step.id,
        variant_group: w.step.variantGroup || null,
        message_id: w.messageId,
        subject: w.subject,
      };
    });
    const inserted = await rowsOf<{ id: string }>(
      tx,
      sql`with v as (
            select * from jsonb_to_recordset(${jsonRows(rows)}) as v(campaign_id text, lead_id text, mailbox_id text, expected int, next_status text,
              next_send_at timestamptz, id text, workspace_id text, lead_email text, step_id text, variant_group text, message_id text, subject text)
          ), moved as (
            update campaign_leads cl
            set next_step_order = v.expected + 1, status = v.next_status::campaign_lead_status, next_send_at = v.next_send_at,
                first_emailed_at = coalesce(cl.first_emailed_at, ${iso(now)}::timestamptz), last_emailed_at = ${iso(now)}::timestamptz
            from v
            where cl.campaign_id = v.campaign_id and cl.lead_id = v.lead_id and cl.mailbox_id = v.mailbox_id
              and cl.status = 'ACTIVE' and cl.next_step_order = v.expected
            returning cl.campaign_id, cl.lead_id
          )
          insert into emails (id, workspace_id, mailbox_id, lead_id, lead_email, campaign_id, step_id, step_order, variant_group, message_id, subject, status, created_at)
          select v.id, v.workspace_id, v.mailbox_id, v.lead_id, v.lead_email, v.campaign_id, v.step_id, v.expected, v.variant_group, v.message_id, v.subject, 'SENDING', ${iso(now)}::timestamptz
          from v join moved using (campaign_id, lead_id)
          returning id`,
    );
    const ok = new Set(inserted.map((r) => r.id));
    const kept = work.filter((w) => ok.has(w.emailId));
    return kept;
  });
  const busy = new Set(work.map((w) => w.m.id));
  const released = new Set(releases.map((r) => r.id));
  for (const m of open) if (!busy.has(m.id) && !released.has(m.id)) releases.push({ id: m.id, at: null });
  await releaseMailboxes(db, releases);
  return { claimed: claimed.length, work };
}

/** Lease off; a new next_send_at where one is given (`at: null` keeps the mailbox's own). */
async function releaseMailboxes(db: DbOrTx, rows: { id: string; at: string | null }[]) {
  if (rows.length === 0) return;
  await db.execute(sql`update mailboxes m set send_lease_until = null, next_send_at = coalesce(v.at, m.next_send_at)
    from jsonb_to_recordset(${jsonRows(rows)}) as v(id text, at timestamptz) where m.id = v.id`);
}

/** First emails of each campaign in its own day: what dailyNewLeadCap limits (follow-ups are not counted). */
async function campaignFirstEmailsToday(db: DbOrTx, list: Campaign[], now: Date): Promise<Map<string, number>> {
  if (list.length === 0) return new Map();
  const days = list.map((c) => {
    const day = campaignDay(c.defaultTimezone, now);
    return { campaign_id: c.id, s: iso(day.start), e: iso(day.end) };
  });
  const rows = await rowsOf<{ campaign_id: string; n: number }>(
    db,
    sql`select v.campaign_id, (select count(*) from emails e where e.campaign_id = v.campaign_id and e.step_order = 0 and e.status in ${COUNTED}
          and e.created_at >= v.s and e.created_at < v.e)::int as n
        from jsonb_to_recordset(${jsonRows(days)}) as v(campaign_id text, s timestamptz, e timestamptz)`,
  );
  return new Map(rows.map((r) => [r.campaign_id, r.n]));
}

const BUILTIN_VARIABLES = new Set<string>([...LEAD_VARIABLES, ...MAILBOX_VARIABLES]);

/**
 * The custom-field names each campaign knows — some lead of the campaign has the field — among the
 * names its steps' templates use: the set preview and the variables check use (lib/campaigns/preview.ts),
 * so a lead without the field gets empty text, not the token. One statement for every campaign of the
 * pass, and none when no template uses a custom field; `exists` stops at the first lead that has it.
 */
async function knownCustomFields(
  db: DbOrTx,
  campaignIds: string[],
  stepsOf: Map<string, Step[]>,
  now = Date.now(),
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const pairs: { campaign_id: string; name: string }[] = [];
  const asked = new Map<string, string>();
  for (const id of campaignIds) {
    const names = new Set<string>();
    for (const s of stepsOf.get(id) ?? [])
      for (const t of [s.subject ?? "", s.bodyTemplate, s.bodyHtmlTemplate ?? ""])
        for (const n of tokenNames(t)) if (!BUILTIN_VARIABLES.has(n)) names.add(n);
    if (names.size === 0) continue;
    // Answered within the last minute for the same names: reused (a name no lead has would otherwise
    // scan all the campaign's leads on every pass).
    const key = [...names].sort().join("\u0000");
    const hit = knownCache.get(id);
    if (hit && hit.key === key && now - hit.at < KNOWN_TTL_MS) {
      if (hit.names.length) out.set(id, hit.names);
      continue;
    }
    asked.set(id, key);
    for (const name of names) pairs.push({ campaign_id: id, name });
  }
  if (pairs.length === 0) return out;
  const rows = await rowsOf<{ campaign_id: string; name: string }>(
    db,
    sql`select v.campaign_id, v.name from jsonb_to_recordset(${jsonRows(pairs)}) as v(campaign_id text, name text)
        where exists (select 1 from campaign_leads cl join leads l on l.id = cl.lead_id where cl.campaign_id = v.campaign_id and l.custom_fields ? v.name)`,
  );
  const fresh = new Map<string, string[]>();
  for (const r of rows) push(fresh, r.campaign_id, r.name);
  for (const [id, key] of asked) {
    const names = fresh.get(id) ?? [];
    knownCache.set(id, { key, names, at: now });
    if (names.length) out.set(id, names);
  }
  return out;
}
/** knownCustomFields' answers per campaign, for a minute (leads gaining a field show within it). */
const knownCache = new Map<string, { key: string; names: string[]; at: number }>();
const KNOWN_TTL_MS = 60_000;

async function earlierEmails(
  db: DbOrTx,
  pairs: { campaign_id: string; lead_id: string }[],
): Promise<Map<string, { message_id: string; subject: string }[]>> {
  const out = new Map<string, { message_id: string; subject: string }[]>();
  if (pairs.length === 0) return out;
  const rows = await rowsOf<{ campaign_id: string; lead_id: string; message_id: string; subject: string }>(
    db,
    sql`select e.campaign_id, e.lead_id, e.message_id, e.subject from emails e
        join jsonb_to_recordset(${jsonRows(pairs)}) as v(campaign_id text, lead_id text) on e.lead_id = v.lead_id and e.campaign_id = v.campaign_id
        where e.status in ${COUNTED}
        order by e.created_at, e.id`,
  );
  for (const r of rows) {
    const k = `${r.campaign_id}\u0000${r.lead_id}`;
    push(out, k, r);
  }
  return out;
}

async function sendsByVariant(db: DbOrTx, stepIds: string[]): Promise<Map<string, { sends: number; replies: number }>> {
  if (stepIds.length < 2) return new Map();
  // Replies: a person's reply to an email of the step (automatic replies are not a result).
  const rows = await rowsOf<{ step_id: string; sends: number; replies: number }>(
    db,
    sql`select e.step_id, count(*)::int as sends,
          count(*) filter (where exists (select 1 from replies r where r.email_id = e.id and not r.is_auto_reply))::int as replies
        from emails e where e.step_id = ${anyOf(stepIds)} and e.status in ('SENT', 'BOUNCED') group by e.step_id`,
  );
  return new Map(rows.map((r) => [r.step_id, { sends: r.sends, replies: r.replies }]));
}

type Outcome =
  | { status: "SENT" }
  | { status: "BOUNCED"; bounceType: "HARD" | "SOFT"; code: string; reason: string }
  | { status: "FAILED"; code: string | null; reason: string; auth: boolean };
/**
 * What the email said, kept on its row for the conversation (spec 2.9): the text part as sent, and
 * the HTML part without the open pixel and click redirects (viewing our copy is not the lead's open).
 */
interface SentBody {
  text: string;
  html: string | null;
}

/**
 * The sender: the SMTP conversations of the scheduled emails, `concurrency` at a time (one per mailbox:
 * each mailbox has at most one email per pass), outside any transaction. SENT outcomes are recorded in
 * groups (one transaction per group: rows SENT, email.sent events, mailboxes released with their gap);
 * a bounce or refusal is recorded on its own. A crash from the commit of SENDING on leaves the rows
 * SENDING: never resent.
 */
export async function deliver(db: DbOrTx, clock: Clock, work: Work[], opts: SendOptions = {}): Promise<SendReport> {
  const report: SendReport = { mailboxes: work.length, sent: 0, bounced: 0, failed: 0 };
  if (work.length === 0) return report;
  const files = new Map<string, Awaited<ReturnType<typeof stepFiles>>>();
  for (const stepId of new Set(work.map((w) => w.step.id))) files.set(stepId, await stepFiles(db, stepId));
  const recorder = new Recorder(db);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(opts.concurrency ?? 32, work.length) }, async () => {
      while (next < work.length) {
        const w = work[next++];
        try {
          const { outcome, body } = await smtpSend(w, files.get(w.step.id)!);
          const done = clock.now();
          if (outcome.status === "SENT") recorder.sent(w, done, body);
          else await recordRefusal(db, clock, w, outcome, done, body);
          report[outcome.status === "SENT" ? "sent" : outcome.status === "BOUNCED" ? "bounced" : "failed"]++;
          // Pacing: the least gap between two emails of this mailbox, plus up to half of it again as jitter.
          recorder.release(w.m.id, new Date(done.getTime() + w.c.minGapMinutes * 60_000 * (1 + Math.random() * 0.5)));
        } catch (e) {
          // Left SENDING and leased: the lease lapses, the row is never resent.
          console.error("[send] mailbox", w.m.id, e);
        }
      }
    }),
  );
  await recorder.close();
  return report;
}

async function smtpSend(w: Work, stepFileRows: Awaited<ReturnType<typeof stepFiles>>): Promise<{ outcome: Outcome; body: SentBody }> {
  const { m, c, lead, step, emailId } = w;
  const rendered = renderStep(
    { subject: step.subject, bodyTemplate: step.bodyTemplate, bodyHtmlTemplate: c.textOnly ? null : step.bodyHtmlTemplate },
    lead,
    m,
    { knownCustomFields: w.knownCustomFields, htmlFromText: c.trackOpens && !c.textOnly },
  );
  const sentBody: SentBody = { text: rendered.text, html: rendered.html };
  const outcome = (o: Outcome) => ({ outcome: o, body: sentBody });
  let html = rendered.html ?? undefined;
  if (html && c.trackClicks) html = rewriteLinks(html, emailId);
  if (html && c.trackOpens) html = addOpenPixel(html, emailId);
  const headers: Record<string, string> = {};
  if (c.unsubscribeHeader) {
    headers["List-Unsubscribe"] = `<${unsubscribeUrl(emailId)}>`;
    headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click";
  }
  const body = `${rendered.text}\n${html ?? ""}`;
  const attached = stepFileRows.filter((f) => !f.cid || body.includes(`cid:${f.cid}`));
  try {
    const info = await pooledTransport(m.id, smtpConfigOf(m)).sendMail({
      from: m.senderName ? { name: m.senderName, address: m.email } : m.email,
      to: lead.email,
      subject: w.subject,
      text: rendered.text,
      html,
      messageId: w.messageId,
      inReplyTo: w.references.at(-1),
      references: w.references.length ? w.references : undefined,
      headers,
      attachments: attached.map((f) => ({ filename: f.filename, contentType: f.contentType, content: f.data, cid: f.cid ?? undefined })),
    });
    if (!info.rejected.length) return outcome({ status: "SENT" });
    const o = classifySendError(undefined, String(info.response));
    return outcome(
      o.kind === "bounce"
        ? { status: "BOUNCED", bounceType: o.bounceType, code: o.code, reason: o.reason }
        : { status: "FAILED", code: o.code, reason: o.reason, auth: o.auth },
    );
  } catch (e) {
    const err = classifySmtpError(e);
    const o = classifySendError(err.responseCode, err.message, err.kind);
    if (err.kind !== "rejected") dropTransport(m.id);
    return outcome(
      o.kind === "bounce"
        ? { status: "BOUNCED", bounceType: o.bounceType, code: o.code, reason: o.reason }
        : { status: "FAILED", code: o.code, reason: o.reason, auth: o.auth },
    );
  }
}

/**
 * Records SENT outcomes and mailbox releases in groups: whatever arrived while the previous group was
 * being written goes in the next one (one transaction each). Idle, a group is a single email.
 */
class Recorder {
  private sentRows: { w: Work; at: Date; body: SentBody }[] = [];
  private releases: { id: string; at: string | null }[] = [];
  private running: Promise<void> | null = null;
  /** Campaigns whose first_sent_at this pass has written (only the first send writes the row). */
  private firstSentWritten = new Set<string>();
  constructor(private db: DbOrTx) {}

  sent(w: Work, at: Date, body: SentBody) {
    this.sentRows.push({ w, at, body });
    this.kick();
  }
  release(mailboxId: string, at: Date) {
    this.releases.push({ id: mailboxId, at: iso(at) });
    this.kick();
  }
  async close() {
    while (this.running) await this.running;
  }
  private kick() {
    if (this.running) return;
    this.running = (async () => {
      while (this.sentRows.length || this.releases.length) {
        const sent = this.sentRows.splice(0);
        const releases = this.releases.splice(0);
        await this.write(sent, releases).catch((e) => console.error("[send] recording", e));
      }
      this.running = null;
    })();
  }
  private async write(sent: { w: Work; at: Date; body: SentBody }[], releases: { id: string; at: string | null }[]) {
    await this.db.transaction(async (tx) => {
      if (sent.length) {
        await tx.execute(sql`update emails e set status = 'SENT', sent_at = v.at, body_text = v.body_text, body_html = v.body_html
          from jsonb_to_recordset(${jsonRows(sent.map(({ w, at, body }) => ({ id: w.emailId, at: iso(at), body_text: body.text, body_html: body.html })))})
            as v(id text, at timestamptz, body_text text, body_html text) where e.id = v.id`);
        const evts = sent.map(({ w, at }) => ({
          id: newEventId(),
          workspace_id: w.m.workspaceId,
          data: {
            sendEventId: w.emailId,
            leadEmail: w.lead.email,
            mailboxEmail: w.m.email,
            campaignId: w.c.id,
            stepOrder: w.step.stepOrder,
          },
          at: iso(at),
        }));
        await tx.execute(sql`insert into events (id, workspace_id, event, data, created_at)
          select v.id, v.workspace_id, 'email.sent', v.data, v.at from jsonb_to_recordset(${jsonRows(evts)}) as v(id text, workspace_id text, data jsonb, at timestamptz)`);
        const first = [...new Set(sent.filter(({ w }) => !w.c.firstSentAt && !this.firstSentWritten.has(w.c.id)).map(({ w }) => w.c.id))];
        if (first.length) {
          await tx.execute(
            sql`update campaigns set first_sent_at = ${iso(sent[0].at)}::timestamptz where id = ${anyOf(first)} and first_sent_at is null`,
          );
          for (const id of first) this.firstSentWritten.add(id);
        }
        const retried = sent.filter(({ w }) => w.due.failed_attempts > 0).map(({ w }) => ({ campaign_id: w.c.id, lead_id: w.lead.id }));
        if (retried.length) {
          await tx.execute(sql`update campaign_leads cl set failed_attempts = 0
            from jsonb_to_recordset(${jsonRows(retried)}) as v(campaign_id text, lead_id text) where cl.campaign_id = v.campaign_id and cl.lead_id = v.lead_id`);
        }
      }
      await releaseMailboxes(tx, releases);
    });
  }
}

/** A bounce or a refusal, recorded on its own (rare, and each has its own consequences). */
async function recordRefusal(db: DbOrTx, clock: Clock, w: Work, outcome: Exclude<Outcome, { status: "SENT" }>, done: Date, body: SentBody) {
  const { m, c, lead, step, emailId } = w;
  await db.transaction(async (tx) => {
    if (outcome.status === "BOUNCED") {
      await tx
        .update(emails)
        .set({
          status: "BOUNCED",
          bounceType: outcome.bounceType,
          smtpCode: outcome.code,
          smtpResponse: outcome.reason,
          sentAt: done,
          bodyText: body.text,
          bodyHtml: body.html,
        })
        .where(eq(emails.id, emailId));
      if (!c.firstSentAt)
        await tx
          .update(campaigns)
          .set({ firstSentAt: done })
          .where(and(eq(campaigns.id, c.id), sql`${campaigns.firstSentAt} is null`));
      await emitEvent(
        tx,
        m.workspaceId,
        "email.bounced",
        { sendEventId: emailId, leadEmail: lead.email, bounceType: outcome.bounceType },
        done,
      );
      if (outcome.bounceType === "HARD") {
        // A hard-bounced address is suppressed and gets nothing more from any campaign.
        await addSuppressions(systemCtx(m.workspaceId, { db: tx, clock }), { emails: [lead.email] }, "hard_bounce");
        await tx.update(campaignLeads).set({ status: "BOUNCED", nextSendAt: null }).where(eq(campaignLeads.leadId, lead.id));
      } else if (w.due.failed_attempts > 0) {
        await tx
          .update(campaignLeads)
          .set({ failedAttempts: 0 })
          .where(and(eq(campaignLeads.campaignId, c.id), eq(campaignLeads.leadId, lead.id)));
      }
      await checkBounceSpike(tx, m, done);
      return;
    }
    // Refused at send time without being a bounce: the same step is tried again later, with backoff.
    await tx.update(emails).set({ status: "FAILED", smtpCode: outcome.code, smtpResponse: outcome.reason }).where(eq(emails.id, emailId));
    const failures = w.due.failed_attempts + 1;
    await tx
      .update(campaignLeads)
      .set({
        nextStepOrder: step.stepOrder,
        status: failures >= MAX_FAILED_ATTEMPTS ? "STOPPED" : "ACTIVE",
        failedAttempts: failures,
        nextSendAt: new Date(done.getTime() + 15 * 60_000 * 2 ** (failures - 1)),
        firstEmailedAt: w.due.first_emailed_at ? new Date(w.due.first_emailed_at) : null,
        lastEmailedAt: w.due.last_emailed_at ? new Date(w.due.last_emailed_at) : null,
      })
      .where(and(eq(campaignLeads.campaignId, c.id), eq(campaignLeads.leadId, lead.id)));
    if (outcome.auth) {
      // A refused login stops the mailbox at once (LOGIN_FAILING), not at the next health check.
      const [cur] = await tx.select().from(mailboxes).where(eq(mailboxes.id, m.id)).for("update");
      if (cur && !cur.loginFailingSince) {
        await tx.update(mailboxes).set({ loginFailingSince: done, loginError: outcome.reason }).where(eq(mailboxes.id, m.id));
        await emitEvent(
          tx,
          m.workspaceId,
          "mailbox.disconnected",
          { mailboxId: m.id, mailboxEmail: m.email, error: outcome.reason, disconnectedAt: iso(done) },
          done,
        );
      }
    }
  });
}

/**
 * Bounce protection (spec 3.4): above 1.8% bounces with at least 2 bounces over the last 30 days of
 * campaign email, the mailbox pauses itself and `mailbox.bounce_spike` fires once per pause.
 */
export async function checkBounceSpike(tx: DbOrTx, m: Mailbox, now: Date) {
  const since = new Date(now.getTime() - BOUNCE_WINDOW_MS);
  const [r] = (await tx.execute(sql`
    select count(*) filter (where status in ('SENT', 'BOUNCED'))::int as sent, count(*) filter (where status = 'BOUNCED')::int as bounced
    from emails where mailbox_id = ${m.id} and campaign_id is not null and created_at >= ${iso(since)}::timestamptz`)) as unknown as {
    sent: number;
    bounced: number;
  }[];
  const rate = r.sent > 0 ? r.bounced / r.sent : 0;
  if (r.bounced < 2 || rate <= BOUNCE_RATE_THRESHOLD) return;
  const [cur] = await tx.select().from(mailboxes).where(eq(mailboxes.id, m.id)).for("update");
  if (!cur || cur.autoPausedAt) return;
  const reason = `Bounce rate ${(rate * 100).toFixed(1)}% (${r.bounced} of ${r.sent} in 30 days) is above 1.8%`;
  await tx.update(mailboxes).set({ autoPausedAt: now, autoPauseReason: reason }).where(eq(mailboxes.id, m.id));
  await emitEvent(
    tx,
    m.workspaceId,
    "mailbox.bounce_spike",
    {
      mailboxId: m.id,
      mailboxEmail: m.email,
      bounceRate: Math.round(rate * 10_000) / 10_000,
      threshold: BOUNCE_RATE_THRESHOLD,
      sentCount: r.sent,
      bouncedCount: r.bounced,
      windowStart: iso(since),
      windowEnd: iso(now),
      action: "paused",
    },
    now,
  );
}

export const sendCampaignEmailsJob: JobDef = {
  name: "send-campaign-emails",
  cron: "* * * * *",
  everyMs: 1_000,
  async run({ db, clock }) {
    const r = await sendDue(db, clock);
    return { ...r };
  },
  // Under Inngest: the cron lists mailboxes with due work, and each gets its own run, one at a time.
  fanOut: {
    event: "outreach/mailbox.send-due",
    list: ({ db, clock }) => mailboxesWithDueWork(db, clock.now()),
    async runOne({ db, clock }, mailboxId) {
      return { ...(await sendDue(db, clock, { mailboxIds: [mailboxId] })) };
    },
  },
};
