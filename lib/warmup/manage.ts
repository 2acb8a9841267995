import { and, eq, ne, sql } from "drizzle-orm";
import { anyOf } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import { mailboxes, mailboxWarmups, warmupDays } from "../../db/schema";
import { mapLimit } from "../concurrency";
import { type Ctx, requireAccess, withTransaction } from "../ctx";
import { AppError, ConflictError, NotFoundError, ValidationError } from "../errors";
import { getMailbox } from "../mailboxes/manage";
import type { MailboxRow } from "../mailboxes/view";
import { presetFor } from "./presets";
import {
  MID_RAMP_RESUME_SINCE,
  rampStatus,
  resolveSettings,
  SETTING_FIELDS,
  todayTarget,
  utcDate,
  WARMING,
  type WarmupSettings,
  type WarmupStatus,
} from "../mailboxes/warmup-ramp";
import type { WarmupSettingsInput } from "./schemas";
import { moveWarmupStatus, type WarmupReason } from "./status";

/**
 * The warmup routes and their transitions: start (day 0, again when already
 * warming), stop (PAUSED), resume (the day reached, or day 0 for a pause before 26 Sep 2026), PATCH
 * (settings; the day is kept), bulk resume. One address warms in one workspace at a time.
 */

type WarmupRow = typeof mailboxWarmups.$inferSelect;

/** The mailbox row, locked for the transaction (two starts of one mailbox run one after the other). */
async function lockMailbox(tx: DbOrTx, workspaceId: string, id: string): Promise<MailboxRow> {
  const [m] = await tx
    .select()
    .from(mailboxes)
    .where(and(eq(mailboxes.id, id), eq(mailboxes.workspaceId, workspaceId)))
    .for("update");
  if (!m) throw new NotFoundError("Mailbox");
  return m;
}

async function warmupOf(tx: DbOrTx, mailboxId: string): Promise<WarmupRow | undefined> {
  const [w] = await tx.select().from(mailboxWarmups).where(eq(mailboxWarmups.mailboxId, mailboxId));
  return w;
}

/**
 * 409 when the address is warming in another workspace. An advisory lock on the address
 * makes two workspaces starting it at the same moment take turns, so one of them sees the other.
 */
async function refuseWarmingElsewhere(tx: DbOrTx, m: MailboxRow): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('warmup:' || lower(${m.email})))`);
  const [other] = await tx
    .select({ id: mailboxes.id })
    .from(mailboxes)
    .where(
      and(
        sql`lower(${mailboxes.email}) = lower(${m.email})`,
        ne(mailboxes.workspaceId, m.workspaceId),
        sql`${mailboxes.warmupStatus} in ('EARLY', 'RAMPING', 'STEADY')`,
      ),
    )
    .limit(1);
  if (other) throw new ConflictError(`${m.email} is already warming in another workspace; an address warms in one workspace at a time.`);
}

function checkReplyRates(s: WarmupSettings): void {
  if (s.replyRateMinPct > s.replyRateMaxPct)
    throw ValidationError.field(
      "replyRateMinPct",
      `must not be above replyRateMaxPct (${s.replyRateMinPct} > ${s.replyRateMaxPct} once the preset and defaults are applied)`,
    );
}

/** Today's row of the ramp chart (its target), written when a day of the ramp begins or its settings change. */
async function recordDay(tx: DbOrTx, mailboxId: string, s: WarmupSettings, dayIndex: number, now: Date): Promise<void> {
  const row = { mailboxId, day: utcDate(now), dayIndex, target: todayTarget(s, dayIndex) };
  await tx
    .insert(warmupDays)
    .values(row)
    .onConflictDoUpdate({ target: [warmupDays.mailboxId, warmupDays.day], set: { dayIndex: row.dayIndex, target: row.target } });
}

/** The status a warming mailbox has on this day of its ramp (a bounce pause wins). */
function statusOn(m: MailboxRow, s: WarmupSettings, dayIndex: number): WarmupStatus {
  return m.autoPausedAt ? "AUTO_PAUSED" : rampStatus(s, dayIndex);
}

function move(tx: DbOrTx, m: MailboxRow, to: WarmupStatus, reason: WarmupReason, now: Date) {
  return moveWarmupStatus(tx, { mailboxId: m.id, workspaceId: m.workspaceId, email: m.email, from: m.warmupStatus, to, reason }, now);
}

/** POST /mailboxes/<id>/start-warmup: the ramp begins at day 0 (restarts there when already warming). */
export async function startWarmup(ctx: Ctx, id: string, input: WarmupSettingsInput) {
  requireAccess(ctx, "write");
  const now = ctx.clock.now();
  await withTransaction(ctx, async (tx) => {
    const m = await lockMailbox(tx, ctx.workspaceId, id);
    await refuseWarmingElsewhere(tx, m);
    const s = resolveSettings(input, await presetFor(tx, ctx.workspaceId, m.espClass));
    checkReplyRates(s);
    const row = {
      ...s,
      dayIndex: 0,
      startedAt: now,
      pausedAt: null,
      day: utcDate(now),
      dayStartedAt: null,
      leaseUntil: null,
      updatedAt: now,
    };
    await tx
      .insert(mailboxWarmups)
      .values({ mailboxId: m.id, workspaceId: m.workspaceId, ...row })
      .onConflictDoUpdate({ target: mailboxWarmups.mailboxId, set: row });
    await recordDay(tx, m.id, s, 0, now);
    await move(tx, m, statusOn(m, s, 0), WARMING.includes(m.warmupStatus) ? "restarted" : "started", now);
  });
  return getMailbox(ctx, id);
}

/** POST /mailboxes/<id>/stop-warmup: PAUSED, keeping the day it reached. */
export async function stopWarmup(ctx: Ctx, id: string) {
  requireAccess(ctx, "write");
  const now = ctx.clock.now();
  await withTransaction(ctx, async (tx) => {
    const m = await lockMailbox(tx, ctx.workspaceId, id);
    const w = await warmupOf(tx, m.id);
    if (!w || m.warmupStatus === "OFF") throw new ConflictError(`Warmup was never started for ${m.email}; there is nothing to pause.`);
    if (m.warmupStatus === "PAUSED") return;
    await tx.update(mailboxWarmups).set({ pausedAt: now, leaseUntil: null, updatedAt: now }).where(eq(mailboxWarmups.mailboxId, m.id));
    await move(tx, m, "PAUSED", "paused", now);
  });
  return getMailbox(ctx, id);
}

export interface ResumeResult {
  dayIndex: number;
  resumedMidRamp: boolean;
  warmupStatus: WarmupStatus;
}

/** Resume inside a transaction: refuses (throws) what cannot be resumed; a warming mailbox is left as it is. */
async function resumeIn(tx: DbOrTx, workspaceId: string, id: string, now: Date): Promise<ResumeResult> {
  const m = await lockMailbox(tx, workspaceId, id);
  const w = await warmupOf(tx, m.id);
  if (!w || m.warmupStatus === "OFF") throw new ConflictError(`Warmup was never started for ${m.email}; start it with start-warmup.`);
  if (m.warmupStatus === "AUTO_PAUSED")
    throw new ConflictError(
      `${m.email} was paused automatically after a bounce spike; turn sending back on (PATCH sendingEnabled: true) first.`,
    );
  if (m.warmupStatus !== "PAUSED") return { dayIndex: w.dayIndex, resumedMidRamp: true, warmupStatus: m.warmupStatus };
  await refuseWarmingElsewhere(tx, m);
  const midRamp = w.pausedAt === null || w.pausedAt >= MID_RAMP_RESUME_SINCE;
  const dayIndex = midRamp ? w.dayIndex : 0;
  // The paused days do not count: today continues the day reached.
  await tx
    .update(mailboxWarmups)
    .set({
      dayIndex,
      pausedAt: null,
      day: utcDate(now),
      dayStartedAt: null,
      leaseUntil: null,
      updatedAt: now,
      ...(midRamp ? {} : { startedAt: now }),
    })
    .where(eq(mailboxWarmups.mailboxId, m.id));
  await recordDay(tx, m.id, w, dayIndex, now);
  const to = statusOn(m, w, dayIndex);
  await move(tx, m, to, "resumed", now);
  return { dayIndex, resumedMidRamp: midRamp, warmupStatus: to };
}

/** POST /mailboxes/<id>/resume-warmup → { dayIndex, resumedMidRamp, warmupStatus }. */
export async function resumeWarmup(ctx: Ctx, id: string): Promise<ResumeResult> {
  requireAccess(ctx, "write");
  return withTransaction(ctx, (tx) => resumeIn(tx, ctx.workspaceId, id, ctx.clock.now()));
}

/** POST /mailboxes/bulk-resume-warmup: resumes what it can, lists the rest in `skipped` with the reason. */
export async function bulkResumeWarmup(ctx: Ctx, mailboxIds: string[]) {
  requireAccess(ctx, "write");
  const ids = [...new Set(mailboxIds)];
  const found = await ctx.db
    .select({ id: mailboxes.id, email: mailboxes.email })
    .from(mailboxes)
    .where(and(eq(mailboxes.workspaceId, ctx.workspaceId), sql`${mailboxes.id} = ${anyOf(ids)}`));
  const emailOf = new Map(found.map((r) => [r.id, r.email]));
  const resumed: string[] = [];
  const skipped: { mailboxId: string; email: string | null; reason: string }[] = [];
  await mapLimit(ids, 4, async (id) => {
    if (!emailOf.has(id)) return skipped.push({ mailboxId: id, email: null, reason: "Mailbox not found" });
    try {
      await withTransaction(ctx, (tx) => resumeIn(tx, ctx.workspaceId, id, ctx.clock.now()));
      resumed.push(id);
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      skipped.push({ mailboxId: id, email: emailOf.get(id) ?? null, reason: e.message });
    }
  });
  const order = new Map(ids.map((id, i) => [id, i]));
  const byOrder = (a: string, b: string) => (order.get(a) ?? 0) - (order.get(b) ?? 0);
  return { resumed: resumed.sort(byOrder), skipped: skipped.sort((a, b) => byOrder(a.mailboxId, b.mailboxId)) };
}

/** PATCH /mailboxes/<id>/warmup: new settings, the current day kept; the status follows the new ramp. */
export async function patchWarmup(ctx: Ctx, id: string, input: WarmupSettingsInput) {
  requireAccess(ctx, "write");
  const now = ctx.clock.now();
  await withTransaction(ctx, async (tx) => {
    const m = await lockMailbox(tx, ctx.workspaceId, id);
    const w = await warmupOf(tx, m.id);
    if (!w || m.warmupStatus === "OFF") throw new ConflictError(`Warmup was never started for ${m.email}; start it with start-warmup.`);
    const s = resolveSettings(input, null, w);
    checkReplyRates(s);
    const set: Partial<WarmupSettings> = {};
    for (const f of SETTING_FIELDS) set[f] = s[f];
    await tx
      .update(mailboxWarmups)
      .set({ ...set, updatedAt: now })
      .where(eq(mailboxWarmups.mailboxId, m.id));
    if (WARMING.includes(m.warmupStatus)) {
      await recordDay(tx, m.id, s, w.dayIndex, now);
      await move(tx, m, rampStatus(s, w.dayIndex), "settings_changed", now);
    }
  });
  return getMailbox(ctx, id);
}
