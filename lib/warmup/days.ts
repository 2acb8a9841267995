import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { mailboxes, mailboxWarmups, warmupDays } from "../../db/schema";
import { daysBetween, rampStatus, todayTarget, utcDate, WARMING, type WarmupStatus } from "../mailboxes/warmup-ramp";
import { moveWarmupStatus, type WarmupReason } from "./status";

/**
 * The ramp moves with the UTC calendar: each UTC day of active warmup adds one to `dayIndex` (the
 * days a mailbox was paused do not count), today's target is recorded for the chart, and the status
 * follows (EARLY → RAMPING → STEADY), each move emitting `warmup.status_changed` once. A bounce pause
 * of the mailbox shows as AUTO_PAUSED and lifts with it.
 */

interface Due {
  mailboxId: string;
  workspaceId: string;
  email: string;
  status: WarmupStatus;
  autoPaused: boolean;
  w: typeof mailboxWarmups.$inferSelect;
}

/** Warming mailboxes whose day is behind today, and those whose bounce pause started or lifted. */
async function dueRows(db: DbOrTx, today: string): Promise<Due[]> {
  const rows = await db
    .select({
      m: {
        id: mailboxes.id,
        workspaceId: mailboxes.workspaceId,
        email: mailboxes.email,
        status: mailboxes.warmupStatus,
        autoPausedAt: mailboxes.autoPausedAt,
      },
      w: mailboxWarmups,
    })
    .from(mailboxWarmups)
    .innerJoin(mailboxes, eq(mailboxes.id, mailboxWarmups.mailboxId))
    .where(
      sql`(${mailboxes.warmupStatus} in ('EARLY', 'RAMPING', 'STEADY') and (${mailboxWarmups.day} is null or ${mailboxWarmups.day} < ${today}
            or ${mailboxes.autoPausedAt} is not null))
        or (${mailboxes.warmupStatus} = 'AUTO_PAUSED' and ${mailboxes.autoPausedAt} is null)`,
    );
  return rows.map((r) => ({
    mailboxId: r.m.id,
    workspaceId: r.m.workspaceId,
    email: r.m.email,
    status: r.m.status,
    autoPaused: r.m.autoPausedAt !== null,
    w: r.w,
  }));
}

/** One mailbox's move, in its own transaction (the row is re-read under its lock: another worker may have moved it). */
async function advanceOne(db: DbOrTx, due: Due, today: string, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [m] = await tx.select().from(mailboxes).where(eq(mailboxes.id, due.mailboxId)).for("update");
    const [w] = await tx.select().from(mailboxWarmups).where(eq(mailboxWarmups.mailboxId, due.mailboxId));
    if (!m || !w) return false;
    const move = (to: WarmupStatus, reason: WarmupReason) =>
      moveWarmupStatus(tx, { mailboxId: m.id, workspaceId: m.workspaceId, email: m.email, from: m.warmupStatus, to, reason }, now);
    if (WARMING.includes(m.warmupStatus) && m.autoPausedAt) return move("AUTO_PAUSED", "bounce_spike");
    // The row may have moved since it was listed (another worker, or a pause in between).
    const lifted = m.warmupStatus === "AUTO_PAUSED" && !m.autoPausedAt;
    if (!lifted && !(WARMING.includes(m.warmupStatus) && (w.day === null || w.day < today))) return false;
    // A lifted bounce pause continues on the day reached, like a resume: the paused days do not count.
    const dayIndex = lifted || w.day === null ? w.dayIndex : w.dayIndex + Math.max(0, daysBetween(w.day, today));
    await tx
      .update(mailboxWarmups)
      .set({ dayIndex, day: today, dayStartedAt: null, updatedAt: now })
      .where(eq(mailboxWarmups.mailboxId, m.id));
    await tx
      .insert(warmupDays)
      .values({ mailboxId: m.id, day: today, dayIndex, target: todayTarget(w, dayIndex) })
      .onConflictDoUpdate({ target: [warmupDays.mailboxId, warmupDays.day], set: { dayIndex, target: todayTarget(w, dayIndex) } });
    const to = rampStatus(w, dayIndex);
    await move(to, lifted ? "auto_pause_lifted" : to === "STEADY" ? "steady" : "next_stage");
    return true;
  });
}

/** Moves every due ramp on to today; returns how many mailboxes changed. */
export async function advanceWarmupDays(db: DbOrTx, now: Date): Promise<number> {
  const today = utcDate(now);
  let moved = 0;
  for (const due of await dueRows(db, today)) if (await advanceOne(db, due, today, now)) moved++;
  return moved;
}
