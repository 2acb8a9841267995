import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { campaignLeads, campaignSteps, campaigns, emails, leads, mailboxes } from "../../db/schema";
import { stepFiles } from "../campaigns/attachments";
import type { Clock } from "../clock";
import { emitEvent } from "../events/emit";
import { newId } from "../ids";
import type { JobDef } from "../jobs/registry";
import { newMessageId } from "../mail/message-id";
import { classifySmtpError } from "../mail/smtp";
import { smtpConfigOf } from "../mailboxes/credentials";
import { addSuppressions } from "../suppressions/suppressions";
import { suppressedAmong } from "../suppressions/check";
import { renderStep } from "../templates/render";
import { classifySendError } from "./bounce";
import { addOpenPixel, rewriteLinks, unsubscribeUrl } from "./tracking";
import { dropTransport, pooledTransport } from "./transports";
import { campaignDay, inWindow, nextWindowOpen, utcDay, zoneFor } from "./window";

type Mailbox = typeof mailboxes.$inferSelect;
type Campaign = typeof campaigns.$inferSelect;
type Lead = typeof leads.$inferSelect;
type CampaignLead = typeof campaignLeads.$inferSelect;
type Step = typeof campaignSteps.$inferSelect;

export const BOUNCE_RATE_THRESHOLD = 0.018;
const BOUNCE_WINDOW_MS = 30 * 24 * 3600_000;
const MAX_FAILED_ATTEMPTS = 5;

const iso = (d: Date) => d.toISOString();

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
  const rows = (await db.execute(sql`select m.id from mailboxes m where ${dueMailboxCondition(now)} order by m.next_send_at nulls first limit ${limit}`)) as unknown as { id: string }[];
  return rows.map((r) => r.id);
}

async function claimMailboxes(db: DbOrTx, now: Date, limit: number, only?: string[]): Promise<Mailbox[]> {
  // One statement: claim with SKIP LOCKED and return the rows (no second read of the claimed ids).
  return db
    .update(mailboxes)
    .set({ sendLeaseUntil: new Date(now.getTime() + 120_000) })
    .where(
      sql`${mailboxes.id} in (
        select m.id from mailboxes m
        where ${only ? sql`m.id in ${only} and` : sql``} ${dueMailboxCondition(now)}
          and (m.send_lease_until is null or m.send_lease_until < ${iso(now)}::timestamptz)
        order by m.next_send_at nulls first
        limit ${limit}
        for update skip locked)`,
    )
    .returning();
}

/** What one pass reads once and every mailbox shares: steps and step files per campaign and step. */
interface TickCache {
  steps: Map<string, Step[]>;
  files: Map<string, Awaited<ReturnType<typeof stepFiles>>>;
}

async function countSince(db: DbOrTx, where: ReturnType<typeof sql>): Promise<number> {
  const [r] = (await db.execute(sql`select count(*)::int as n from emails where ${where}`)) as unknown as { n: number }[];
  return r.n;
}

/** Every campaign email of the mailbox today counts for its cap (spec 2.3 dailySendCap); refusals do not. */
function mailboxSentToday(db: DbOrTx, m: Mailbox, now: Date) {
  const day = utcDay(now);
  return countSince(db, sql`mailbox_id = ${m.id} and campaign_id is not null and status in ('SENDING', 'SENT', 'BOUNCED') and created_at >= ${iso(day.start)}::timestamptz and created_at < ${iso(day.end)}::timestamptz`);
}

/** First emails of the campaign in its day: what dailyNewLeadCap limits (follow-ups are not counted). */
function campaignFirstEmailsToday(db: DbOrTx, c: Campaign, now: Date) {
  const day = campaignDay(c.defaultTimezone, now);
  return countSince(db, sql`campaign_id = ${c.id} and step_order = 0 and status in ('SENDING', 'SENT', 'BOUNCED') and created_at >= ${iso(day.start)}::timestamptz and created_at < ${iso(day.end)}::timestamptz`);
}

/** Variant pick: random, or Thompson sampling on replies ÷ sends when the campaign optimises (spec 2.3). */
export function pickVariant(variants: Step[], stats: Map<string, { sends: number; replies: number }>, optimise: boolean, rand = Math.random): Step {
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

interface Due {
  cl: CampaignLead;
  c: Campaign;
  lead: Lead;
}

async function dueLeads(db: DbOrTx, m: Mailbox, now: Date, limit = 100): Promise<Due[]> {
  const rows = await db
    .select({ cl: campaignLeads, c: campaigns, lead: leads })
    .from(campaignLeads)
    .innerJoin(campaigns, eq(campaigns.id, campaignLeads.campaignId))
    .innerJoin(leads, eq(leads.id, campaignLeads.leadId))
    .where(
      and(
        eq(campaignLeads.mailboxId, m.id),
        eq(campaignLeads.status, "ACTIVE"),
        eq(campaigns.status, "ACTIVE"),
        sql`(${campaignLeads.nextSendAt} is null or ${campaignLeads.nextSendAt} <= ${iso(now)}::timestamptz)`,
        sql`(${campaigns.startAt} is null or ${campaigns.startAt} <= ${iso(now)}::timestamptz)`,
      ),
    )
    .orderBy(sql`${campaignLeads.nextSendAt} nulls first`, asc(campaignLeads.seq))
    .limit(limit);
  return rows;
}

export interface SendReport {
  mailboxes: number;
  sent: number;
  bounced: number;
  failed: number;
}

/**
 * One pass of the send engine: every mailbox that may send now sends at most one campaign email —
 * the first due lead whose window is open — then waits its gap (pacing). Every rule is checked here,
 * against the database, at claim time (architecture: "Sending, exactly once at most").
 */
export async function sendDue(db: DbOrTx, clock: Clock, opts: { mailboxLimit?: number; concurrency?: number; mailboxIds?: string[] } = {}): Promise<SendReport> {
  const now = clock.now();
  if (opts.mailboxIds && opts.mailboxIds.length === 0) return { mailboxes: 0, sent: 0, bounced: 0, failed: 0 };
  const claimed = await claimMailboxes(db, now, opts.mailboxLimit ?? 200, opts.mailboxIds);
  const report: SendReport = { mailboxes: claimed.length, sent: 0, bounced: 0, failed: 0 };
  const cache: TickCache = { steps: new Map(), files: new Map() };
  // A sliding pool: a slow mailbox holds one lane, not a whole group.
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(opts.concurrency ?? 8, claimed.length) }, async () => {
      while (next < claimed.length) {
        const m = claimed[next++];
        const r = await sendOneFrom(db, clock, m, cache).catch((e) => (console.error("[send] mailbox", m.id, e), "error" as const));
        if (r === "SENT") report.sent++;
        else if (r === "BOUNCED") report.bounced++;
        else if (r === "FAILED") report.failed++;
      }
    }),
  );
  return report;
}

async function release(db: DbOrTx, m: Mailbox, nextSendAt?: Date | null) {
  await db.update(mailboxes).set({ sendLeaseUntil: null, ...(nextSendAt !== undefined ? { nextSendAt } : {}) }).where(eq(mailboxes.id, m.id));
}

/** Picks the first lead the rules allow now, deferring the others to when they could be sent. */
async function pickLead(db: DbOrTx, m: Mailbox, now: Date, steps: Map<string, Step[]>): Promise<Due | undefined> {
  const due = await dueLeads(db, m, now);
  const suppressed = await suppressedAmong(db, m.workspaceId, due.map((d) => d.lead.email));
  const capFull = new Set<string>();
  for (const d of due) {
    if (suppressed.has(d.lead.email.toLowerCase())) {
      await db.update(campaignLeads).set({ status: "STOPPED", nextSendAt: null }).where(and(eq(campaignLeads.campaignId, d.c.id), eq(campaignLeads.leadId, d.lead.id)));
      continue;
    }
    if (!steps.has(d.c.id)) steps.set(d.c.id, await db.select().from(campaignSteps).where(eq(campaignSteps.campaignId, d.c.id)));
    const variants = steps.get(d.c.id)!.filter((s) => s.stepOrder === d.cl.nextStepOrder);
    if (variants.length === 0) {
      const later = steps.get(d.c.id)!.some((s) => s.stepOrder > d.cl.nextStepOrder);
      if (!later) await db.update(campaignLeads).set({ status: "COMPLETED", nextSendAt: null }).where(and(eq(campaignLeads.campaignId, d.c.id), eq(campaignLeads.leadId, d.lead.id)));
      continue;
    }
    const zone = zoneFor(d.c, d.lead.timezone);
    if (!inWindow(d.c, zone, now)) {
      // Not now: come back when this lead's window opens, instead of re-reading it every tick.
      await db.update(campaignLeads).set({ nextSendAt: nextWindowOpen(d.c, zone, now) }).where(and(eq(campaignLeads.campaignId, d.c.id), eq(campaignLeads.leadId, d.lead.id)));
      continue;
    }
    if (d.cl.nextStepOrder === 0 && d.c.dailyNewLeadCap !== null) {
      if (capFull.has(d.c.id)) continue;
      if ((await campaignFirstEmailsToday(db, d.c, now)) >= d.c.dailyNewLeadCap) {
        capFull.add(d.c.id);
        continue;
      }
    }
    return d;
  }
  return undefined;
}

async function sendOneFrom(db: DbOrTx, clock: Clock, m: Mailbox, cache: TickCache): Promise<"SENT" | "BOUNCED" | "FAILED" | "IDLE"> {
  const now = clock.now();
  if ((await mailboxSentToday(db, m, now)) >= m.dailySendCap) {
    await release(db, m, utcDay(now).end);
    return "IDLE";
  }
  const steps = cache.steps;
  const pick = await pickLead(db, m, now, steps);
  if (!pick) {
    await release(db, m);
    return "IDLE";
  }
  const variants = steps.get(pick.c.id)!.filter((s) => s.stepOrder === pick.cl.nextStepOrder);

  // 1. Claim: write the email as SENDING with its Message-ID and move the lead on, then commit.
  const claim = await db.transaction(async (tx) => {
    const [cl] = await tx
      .select()
      .from(campaignLeads)
      .where(and(eq(campaignLeads.campaignId, pick.c.id), eq(campaignLeads.leadId, pick.lead.id)))
      .for("update", { skipLocked: true });
    if (!cl || cl.status !== "ACTIVE" || cl.nextStepOrder !== pick.cl.nextStepOrder || cl.mailboxId !== m.id) return undefined;
    const stats = await sendsByVariant(tx, variants.map((v) => v.id));
    const step = pickVariant(variants, stats, pick.c.abVariantOptimization);
    const earlier = await tx
      .select({ messageId: emails.messageId, subject: emails.subject, stepOrder: emails.stepOrder })
      .from(emails)
      .where(and(eq(emails.campaignId, pick.c.id), eq(emails.leadId, pick.lead.id), inArray(emails.status, ["SENT", "BOUNCED", "SENDING"])))
      .orderBy(asc(emails.createdAt));
    const known = Object.keys(pick.lead.customFields ?? {});
    const rendered = renderStep(
      { subject: step.stepOrder === 0 ? step.subject : (earlier[0]?.subject ?? step.subject ?? ""), bodyTemplate: step.bodyTemplate, bodyHtmlTemplate: pick.c.textOnly ? null : step.bodyHtmlTemplate },
      pick.lead,
      m,
      { knownCustomFields: known, htmlFromText: pick.c.trackOpens && !pick.c.textOnly },
    );
    // Follow-ups: same thread, "Re: " + the subject of the first email the lead got (spec 4.7 rule 1).
    const subject = step.stepOrder === 0 || !earlier[0] ? rendered.subject : /^re:/i.test(earlier[0].subject) ? earlier[0].subject : `Re: ${earlier[0].subject}`;
    const emailId = newId("eml");
    const messageId = newMessageId(m.email, emailId.slice(4));
    await tx.insert(emails).values({
      id: emailId,
      workspaceId: m.workspaceId,
      mailboxId: m.id,
      leadId: pick.lead.id,
      leadEmail: pick.lead.email,
      campaignId: pick.c.id,
      stepId: step.id,
      stepOrder: step.stepOrder,
      variantGroup: step.variantGroup || null,
      messageId,
      subject,
      status: "SENDING",
      createdAt: now,
    });
    const all = steps.get(pick.c.id)!;
    const nextOrder = step.stepOrder + 1;
    const next = all.filter((s) => s.stepOrder === nextOrder);
    const delayH = next.length ? Math.max(...next.map((s) => s.delayHoursAfterPrevious ?? 0)) : 0;
    await tx
      .update(campaignLeads)
      .set({
        nextStepOrder: nextOrder,
        status: next.length ? "ACTIVE" : "COMPLETED",
        nextSendAt: next.length ? new Date(now.getTime() + delayH * 3600_000) : null,
        firstEmailedAt: cl.firstEmailedAt ?? now,
        lastEmailedAt: now,
      })
      .where(and(eq(campaignLeads.campaignId, cl.campaignId), eq(campaignLeads.leadId, cl.leadId)));
    return { emailId, messageId, subject, rendered, step, references: earlier.map((e) => e.messageId) };
  });
  if (!claim) {
    await release(db, m);
    return "IDLE";
  }

  // 2. Talk SMTP (outside any transaction). A crash from here on leaves the row SENDING: never resent.
  const { emailId, rendered } = claim;
  let html = rendered.html ?? undefined;
  if (html && pick.c.trackClicks) html = rewriteLinks(html, emailId);
  if (html && pick.c.trackOpens) html = addOpenPixel(html, emailId);
  const headers: Record<string, string> = {};
  if (pick.c.unsubscribeHeader) {
    headers["List-Unsubscribe"] = `<${unsubscribeUrl(emailId)}>`;
    headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click";
  }
  const body = `${rendered.text}\n${html ?? ""}`;
  if (!cache.files.has(claim.step.id)) cache.files.set(claim.step.id, await stepFiles(db, claim.step.id));
  const files = cache.files.get(claim.step.id)!.filter((f) => !f.cid || body.includes(`cid:${f.cid}`));
  let outcome: { status: "SENT" } | { status: "BOUNCED"; bounceType: "HARD" | "SOFT"; code: string; reason: string } | { status: "FAILED"; code: string | null; reason: string; auth: boolean };
  try {
    const info = await pooledTransport(m.id, smtpConfigOf(m)).sendMail({
      from: m.senderName ? { name: m.senderName, address: m.email } : m.email,
      to: pick.lead.email,
      subject: claim.subject,
      text: rendered.text,
      html,
      messageId: claim.messageId,
      inReplyTo: claim.references.at(-1),
      references: claim.references.length ? claim.references : undefined,
      headers,
      attachments: files.map((f) => ({ filename: f.filename, contentType: f.contentType, content: f.data, cid: f.cid ?? undefined })),
    });
    if (info.rejected.length) {
      const o = classifySendError(undefined, String(info.response));
      outcome = o.kind === "bounce" ? { status: "BOUNCED", ...o } : { status: "FAILED", code: o.code, reason: o.reason, auth: o.auth };
    } else outcome = { status: "SENT" };
  } catch (e) {
    const err = classifySmtpError(e);
    const o = classifySendError(err.responseCode, err.message, err.kind);
    outcome = o.kind === "bounce" ? { status: "BOUNCED", bounceType: o.bounceType, code: o.code, reason: o.reason } : { status: "FAILED", code: o.code, reason: o.reason, auth: o.auth };
    if (err.kind !== "rejected") dropTransport(m.id);
  }

  // 3. Record the outcome.
  const done = clock.now();
  await db.transaction(async (tx) => {
    if (outcome.status === "SENT") {
      await tx.update(emails).set({ status: "SENT", sentAt: done }).where(eq(emails.id, emailId));
      // Only the first send writes the campaign row: later ones would all queue on its lock.
      if (!pick.c.firstSentAt) await tx.update(campaigns).set({ firstSentAt: done }).where(and(eq(campaigns.id, pick.c.id), sql`${campaigns.firstSentAt} is null`));
      await emitEvent(tx, m.workspaceId, "email.sent", { sendEventId: emailId, leadEmail: pick.lead.email, mailboxEmail: m.email, campaignId: pick.c.id, stepOrder: claim.step.stepOrder }, done);
    } else if (outcome.status === "BOUNCED") {
      await tx.update(emails).set({ status: "BOUNCED", bounceType: outcome.bounceType, smtpCode: outcome.code, smtpResponse: outcome.reason, sentAt: done }).where(eq(emails.id, emailId));
      if (!pick.c.firstSentAt) await tx.update(campaigns).set({ firstSentAt: done }).where(and(eq(campaigns.id, pick.c.id), sql`${campaigns.firstSentAt} is null`));
      await emitEvent(tx, m.workspaceId, "email.bounced", { sendEventId: emailId, leadEmail: pick.lead.email, bounceType: outcome.bounceType }, done);
      if (outcome.bounceType === "HARD") {
        // A hard-bounced address is suppressed and gets nothing more from any campaign.
        await addSuppressions({ workspaceId: m.workspaceId, actor: { type: "system" }, db: tx, clock }, { emails: [pick.lead.email] }, "hard_bounce");
        await tx.update(campaignLeads).set({ status: "BOUNCED", nextSendAt: null }).where(eq(campaignLeads.leadId, pick.lead.id));
      }
      await checkBounceSpike(tx, m, done);
    } else {
      // Refused at send time without being a bounce: the same step is tried again later, with backoff.
      await tx.update(emails).set({ status: "FAILED", smtpCode: outcome.code, smtpResponse: outcome.reason }).where(eq(emails.id, emailId));
      const failures = pick.cl.failedAttempts + 1;
      await tx
        .update(campaignLeads)
        .set({
          nextStepOrder: claim.step.stepOrder,
          status: failures >= MAX_FAILED_ATTEMPTS ? "STOPPED" : "ACTIVE",
          failedAttempts: failures,
          nextSendAt: new Date(done.getTime() + 15 * 60_000 * 2 ** (failures - 1)),
          firstEmailedAt: pick.cl.firstEmailedAt,
          lastEmailedAt: pick.cl.lastEmailedAt,
        })
        .where(and(eq(campaignLeads.campaignId, pick.c.id), eq(campaignLeads.leadId, pick.lead.id)));
      if (outcome.auth) {
        // A refused login stops the mailbox at once (LOGIN_FAILING), not at the next health check.
        const [cur] = await tx.select().from(mailboxes).where(eq(mailboxes.id, m.id)).for("update");
        if (cur && !cur.loginFailingSince) {
          await tx.update(mailboxes).set({ loginFailingSince: done, loginError: outcome.reason }).where(eq(mailboxes.id, m.id));
          await emitEvent(tx, m.workspaceId, "mailbox.disconnected", { mailboxId: m.id, mailboxEmail: m.email, error: outcome.reason, disconnectedAt: iso(done) }, done);
        }
      }
    }
    if (outcome.status !== "FAILED" && pick.cl.failedAttempts > 0) {
      await tx.update(campaignLeads).set({ failedAttempts: 0 }).where(and(eq(campaignLeads.campaignId, pick.c.id), eq(campaignLeads.leadId, pick.lead.id)));
    }
  });
  // Pacing: the least gap between two emails of this mailbox, plus up to half of it again as jitter.
  const gapMs = pick.c.minGapMinutes * 60_000 * (1 + Math.random() * 0.5);
  await release(db, m, new Date(done.getTime() + gapMs));
  return outcome.status;
}

async function sendsByVariant(db: DbOrTx, stepIds: string[]): Promise<Map<string, { sends: number; replies: number }>> {
  if (stepIds.length < 2) return new Map();
  const rows = await db
    .select({ stepId: emails.stepId, sends: sql<number>`count(*)::int` })
    .from(emails)
    .where(and(inArray(emails.stepId, stepIds), inArray(emails.status, ["SENT", "BOUNCED"])))
    .groupBy(emails.stepId);
  // Replies join these counts when the inbox records them; until then the sampling stays uniform-ish.
  return new Map(rows.map((r) => [r.stepId!, { sends: r.sends, replies: 0 }]));
}

/**
 * Bounce protection (spec 3.4): above 1.8% bounces with at least 2 bounces over the last 30 days of
 * campaign email, the mailbox pauses itself and `mailbox.bounce_spike` fires once per pause.
 */
export async function checkBounceSpike(tx: DbOrTx, m: Mailbox, now: Date) {
  const since = new Date(now.getTime() - BOUNCE_WINDOW_MS);
  const [r] = (await tx.execute(sql`
    select count(*) filter (where status in ('SENT', 'BOUNCED'))::int as sent, count(*) filter (where status = 'BOUNCED')::int as bounced
    from emails where mailbox_id = ${m.id} and campaign_id is not null and created_at >= ${iso(since)}::timestamptz`)) as unknown as { sent: number; bounced: number }[];
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
    { mailboxId: m.id, mailboxEmail: m.email, bounceRate: Math.round(rate * 10_000) / 10_000, threshold: BOUNCE_RATE_THRESHOLD, sentCount: r.sent, bouncedCount: r.bounced, windowStart: iso(since), windowEnd: iso(now), action: "paused" },
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
