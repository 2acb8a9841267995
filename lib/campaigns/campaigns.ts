import { and, desc, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { selectRows } from "../../db/bulk";
import type { DbOrTx, Tx } from "../../db/client";
import { campaignSteps, campaignSubsequences, campaigns, emails, replies, stepAttachments } from "../../db/schema";
import { offsetOf } from "../paging";
import { audit } from "../audit/record";
import { requireAccess, requireRole, withTransaction, type Ctx } from "../ctx";
import { AppError, ConflictError, ForbiddenError, NotFoundError, ValidationError } from "../errors";
import { newId } from "../ids";
import { recordCampaignDeleted } from "../leads/lead-events";
import { changesScheduling, undoDeferrals } from "../sending/deferrals";
import { launchReport, needsConfirmation } from "./launch-check";
import { checkTrackingDomainChoice } from "./tracking-domain";
import type { duplicateBody, listCampaignsQuery, SettingsInput } from "./schemas";
import { campaignStats } from "../analytics/series";

export type CampaignRow = typeof campaigns.$inferSelect;

export function settingsView(c: CampaignRow) {
  return {
    name: c.name,
    folder: c.folder,
    sendWindowStartHour: c.sendWindowStartHour,
    sendWindowEndHour: c.sendWindowEndHour,
    sendDaysOfWeek: c.sendDaysOfWeek,
    startAt: c.startAt?.toISOString() ?? null,
    dailyNewLeadCap: c.dailyNewLeadCap,
    defaultTimezone: c.defaultTimezone,
    abVariantOptimization: c.abVariantOptimization,
    trackOpens: c.trackOpens,
    trackClicks: c.trackClicks,
    stopOnReply: c.stopOnReply,
    stopOnAutoReply: c.stopOnAutoReply,
    unsubscribeHeader: c.unsubscribeHeader,
    textOnly: c.textOnly,
    espMatching: c.espMatching,
    minGapMinutes: c.minGapMinutes,
    skipHolidays: c.skipHolidays,
    blackoutDates: c.blackoutDates,
    oooResume: c.oooResume,
    oooDefaultPauseDays: c.oooDefaultPauseDays,
    trackingDomainId: c.trackingDomainId,
  };
}

async function views(db: DbOrTx, rows: CampaignRow[]) {
  const stats = await campaignStats(db, rows);
  return rows.map((c) => ({
    id: c.id,
    status: c.status,
    ...settingsView(c),
    firstSentAt: c.firstSentAt?.toISOString() ?? null,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
    ...stats.get(c.id)!,
  }));
}
export type CampaignView = Awaited<ReturnType<typeof views>>[number];

export async function findCampaign(db: DbOrTx, workspaceId: string, id: string, lock = false): Promise<CampaignRow> {
  const q = db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.id, id), eq(campaigns.workspaceId, workspaceId)));
  const [c] = lock ? await q.for("update") : await q;
  if (!c) throw new NotFoundError("Campaign");
  return c;
}

export async function listCampaigns(ctx: Ctx, q: z.infer<typeof listCampaignsQuery>) {
  requireAccess(ctx, "read");
  const conds: SQL[] = [eq(campaigns.workspaceId, ctx.workspaceId)];
  if (q.q?.trim()) conds.push(sql`${campaigns.name} ilike ${"%" + q.q.trim().replace(/[\\%_]/g, (c) => "\\" + c) + "%"}`);
  if (q.folder !== undefined) conds.push(q.folder.trim() === "" ? isNull(campaigns.folder) : eq(campaigns.folder, q.folder.trim()));
  if (q.status) conds.push(inArray(campaigns.status, q.status.split(",").map((s) => s.trim()) as CampaignRow["status"][]));
  const where = and(...conds);
  const [rows, [{ n }]] = await Promise.all([
    ctx.db.select().from(campaigns).where(where).orderBy(desc(campaigns.seq)).limit(q.limit).offset(offsetOf(q)),
    ctx.db.select({ n: sql<number>`count(*)::int` }).from(campaigns).where(where),
  ]);
  return { rows: await views(ctx.db, rows), total: n };
}

export async function getCampaign(ctx: Ctx, id: string) {
  requireAccess(ctx, "read");
  return (await views(ctx.db, [await findCampaign(ctx.db, ctx.workspaceId, id)]))[0];
}

/** Turns settings input into column values; "" or null folder means no folder. */
function settingsColumns(input: SettingsInput): Partial<typeof campaigns.$inferInsert> {
  const out: Partial<typeof campaigns.$inferInsert> = {};
  for (const [k, v] of Object.entries(input)) {
    if (v === undefined) continue;
    if (k === "startAt") out.startAt = v === null ? null : new Date(v as string);
    else if (k === "folder") out.folder = (v as string | null) || null;
    else (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

/** POST /campaigns: a new campaign starts as DRAFT. */
export async function createCampaign(ctx: Ctx, input: SettingsInput & { name: string }) {
  requireAccess(ctx, "write");
  await checkTrackingDomainChoice(ctx.db, ctx.workspaceId, input.trackingDomainId);
  const now = ctx.clock.now();
  const [row] = await ctx.db
    .insert(campaigns)
    .values({
      id: newId("cmp"),
      workspaceId: ctx.workspaceId,
      ...settingsColumns(input),
      name: input.name,
      status: "DRAFT",
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return (await views(ctx.db, [row]))[0];
}

function checkWindow(c: CampaignRow, set: Partial<typeof campaigns.$inferInsert>) {
  const start = set.sendWindowStartHour ?? c.sendWindowStartHour;
  const end = set.sendWindowEndHour ?? c.sendWindowEndHour;
  if (start >= end) throw ValidationError.field("sendWindowEndHour", `the window must start before it ends (start ${start}, end ${end})`);
}

/** PATCH /campaigns/<id>, PATCH /campaigns/<id>/settings: only the sent fields change. */
export async function updateSettings(ctx: Ctx, id: string, input: SettingsInput) {
  requireAccess(ctx, "write");
  return withTransaction(ctx, async (tx) => {
    const c = await findCampaign(tx, ctx.workspaceId, id, true);
    const set = settingsColumns(input);
    checkWindow(c, set);
    await checkTrackingDomainChoice(tx, ctx.workspaceId, input.trackingDomainId);
    const [row] = await tx
      .update(campaigns)
      .set({ ...set, updatedAt: ctx.clock.now() })
      .where(eq(campaigns.id, id))
      .returning();
    if (changesScheduling(set)) await undoDeferrals(tx, id, ctx.clock.now());
    return (await views(tx, [row]))[0];
  });
}

export async function getSettings(ctx: Ctx, id: string) {
  requireAccess(ctx, "read");
  const c = await findCampaign(ctx.db, ctx.workspaceId, id);
  return { id: c.id, status: c.status, ...settingsView(c) };
}

export async function getLaunchReport(ctx: Ctx, id: string) {
  requireAccess(ctx, "read");
  return launchReport(ctx.db, await findCampaign(ctx.db, ctx.workspaceId, id), ctx.clock.now());
}

/**
 * PATCH /campaigns/<id>/status. ACTIVE runs the launch check; blockers or warming
 * mailboxes need `confirm: true`, else 409 LAUNCH_NEEDS_CONFIRMATION with the report. DRAFT cannot be
 * set; ACTIVE, PAUSED and ARCHIVED can be set from any state.
 */
export async function setStatus(ctx: Ctx, id: string, input: { status: "ACTIVE" | "PAUSED" | "ARCHIVED"; confirm?: boolean }) {
  requireAccess(ctx, "write");
  return withTransaction(ctx, async (tx) => {
    const c = await findCampaign(tx, ctx.workspaceId, id, true);
    let report: Awaited<ReturnType<typeof launchReport>> | undefined;
    if (input.status === "ACTIVE") {
      report = await launchReport(tx, c, ctx.clock.now());
      if (needsConfirmation(report) && !input.confirm) {
        const found = [...report.blockers, ...report.warnings.filter((w) => w.code === "WARMING_MAILBOXES")].map((e) => e.code);
        throw new AppError(
          "LAUNCH_NEEDS_CONFIRMATION",
          `The launch check found ${found.join(", ")}; repeat with confirm: true to launch anyway`,
          report,
          { ...report },
        );
      }
    }
    const [row] = await tx
      .update(campaigns)
      .set({ status: input.status, updatedAt: ctx.clock.now() })
      .where(eq(campaigns.id, id))
      .returning();
    return { ...(await views(tx, [row]))[0], ...(report ? { launchReport: report } : {}) };
  });
}

async function leadSplit(db: DbOrTx, campaignId: string) {
  const other = sql`exists (select 1 from campaign_leads o where o.lead_id = cl.lead_id and o.campaign_id <> cl.campaign_id)`;
  const [r] = await selectRows<{ only_here: number; elsewhere: number }>(
    db,
    sql`
      select count(*) filter (where not ${other})::int as only_here, count(*) filter (where ${other})::int as elsewhere
      from campaign_leads cl where cl.campaign_id = ${campaignId}`,
  );
  return r;
}

/** GET /campaigns/<id>/delete-preview (owner or admin). */
export async function deletePreview(ctx: Ctx, id: string) {
  requireAccess(ctx, "read");
  requireRole(ctx, "admin");
  const c = await findCampaign(ctx.db, ctx.workspaceId, id);
  const split = await leadSplit(ctx.db, c.id);
  const [[{ sends }], [{ replies: received }]] = await Promise.all([
    ctx.db.select({ sends: sql<number>`count(*)::int` }).from(emails).where(eq(emails.campaignId, c.id)),
    // Received replies matched to this campaign (kept with the sends when only the campaign goes).
    ctx.db.select({ replies: sql<number>`count(*)::int` }).from(replies).where(eq(replies.campaignId, c.id)),
  ]);
  return { leadsOnlyHere: split.only_here, leadsInOtherCampaigns: split.elsewhere, sends, replies: received };
}

/**
 * DELETE /campaigns/<id>: owner or admin only; through an API key only a
 * DRAFT that never sent, and never with deleteLeads. Sent emails and suppressions are kept.
 */
export async function deleteCampaign(ctx: Ctx, id: string, deleteLeads: boolean) {
  requireAccess(ctx, "write");
  requireRole(ctx, "admin");
  return withTransaction(ctx, async (tx, txCtx) => {
    const c = await findCampaign(tx, ctx.workspaceId, id, true);
    if (ctx.actor.type === "apiKey") {
      if (deleteLeads) throw new ForbiddenError("deleteLeads=true is only allowed from the dashboard");
      const [{ sends }] = await tx.select({ sends: sql<number>`count(*)::int` }).from(emails).where(eq(emails.campaignId, c.id));
      if (c.status !== "DRAFT" || c.firstSentAt || sends > 0) {
        throw new ConflictError(
          `Only a DRAFT campaign that never sent can be deleted with an API key ` +
            `(this one is ${c.status}${sends ? ` and has sent ${sends} emails` : ""}); archive it instead`,
        );
      }
    }
    const split = await leadSplit(tx, c.id);
    let leadsDeleted = 0;
    if (deleteLeads) {
      const deleted = await selectRows<{ id: string }>(
        tx,
        sql`
          delete from leads where id in (
            select cl.lead_id from campaign_leads cl where cl.campaign_id = ${c.id}
              and not exists (select 1 from campaign_leads o where o.lead_id = cl.lead_id and o.campaign_id <> cl.campaign_id))
          returning id`,
      );
      leadsDeleted = deleted.length;
    }
    // The kept leads' timelines keep that they left it (their campaign rows go with the campaign).
    await recordCampaignDeleted(tx, c.id, ctx.clock.now());
    await tx.delete(campaigns).where(eq(campaigns.id, c.id));
    const leadsKept = split.only_here + split.elsewhere - leadsDeleted;
    await audit(txCtx, "campaign.deleted", { type: "campaign", id: c.id, label: c.name }, { status: c.status, leadsDeleted, leadsKept });
    return { deleted: true, id: c.id, leadsDeleted, leadsKept };
  });
}

/** The subsequences of `from` copied into `to`: old id → new id (the steps and branch rules are remapped with it). */
async function copySubsequences(tx: Tx, from: string, to: string, now: Date): Promise<Map<string, string>> {
  const subs = await tx.select().from(campaignSubsequences).where(eq(campaignSubsequences.campaignId, from));
  const ids = new Map(subs.map((s) => [s.id, newId("sub")]));
  if (subs.length)
    await tx
      .insert(campaignSubsequences)
      .values(subs.map((s) => ({ ...s, id: ids.get(s.id)!, campaignId: to, createdAt: now, updatedAt: now })));
  return ids;
}

/** POST /campaigns/<id>/duplicate: steps, settings, attachments and (by default) the pool; not leads. */
export async function duplicateCampaign(ctx: Ctx, id: string, input: z.infer<typeof duplicateBody>) {
  requireAccess(ctx, "write");
  return withTransaction(ctx, async (tx) => {
    const src = await findCampaign(tx, ctx.workspaceId, id);
    const now = ctx.clock.now();
    const { id: _id, seq: _seq, firstSentAt: _f, createdAt: _c, updatedAt: _u, ...rest } = src;
    const [copy] = await tx
      .insert(campaigns)
      .values({
        ...rest,
        id: newId("cmp"),
        name: input.name,
        folder: input.folder === undefined ? src.folder : input.folder || null,
        status: "DRAFT",
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    const subIds = await copySubsequences(tx, src.id, copy.id, now);
    const steps = await tx.select().from(campaignSteps).where(eq(campaignSteps.campaignId, src.id));
    for (const s of steps) {
      const stepId = newId("stp");
      const subsequenceId = s.subsequenceId && (subIds.get(s.subsequenceId) ?? null);
      const branches = s.branches.map((b) =>
        b.action.type === "subsequence" ? { ...b, action: { ...b.action, subsequenceId: subIds.get(String(b.action.subsequenceId)) } } : b,
      );
      await tx
        .insert(campaignSteps)
        .values({ ...s, id: stepId, campaignId: copy.id, subsequenceId, branches, createdAt: now, updatedAt: now });
      const atts = await tx.select().from(stepAttachments).where(eq(stepAttachments.stepId, s.id));
      if (atts.length) await tx.insert(stepAttachments).values(atts.map((a) => ({ ...a, id: newId("att"), stepId, createdAt: now })));
    }
    if (input.includeMailboxPool) {
      await tx.execute(sql`
        insert into campaign_mailboxes (workspace_id, campaign_id, mailbox_id, added_at)
        select workspace_id, ${copy.id}, mailbox_id, ${now.toISOString()}::timestamptz
        from campaign_mailboxes where campaign_id = ${src.id}`);
    }
    return (await views(tx, [copy]))[0];
  });
}

/** PATCH /campaigns/bulk-settings: each campaign on its own; a setting that does not fit one fails only that one. */
export async function bulkSettings(ctx: Ctx, ids: string[], settings: SettingsInput) {
  requireAccess(ctx, "write");
  await checkTrackingDomainChoice(ctx.db, ctx.workspaceId, settings.trackingDomainId);
  const unique = [...new Set(ids)];
  const rows = await ctx.db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.workspaceId, ctx.workspaceId), inArray(campaigns.id, unique)));
  const set = settingsColumns(settings);
  const updated: string[] = [];
  const failed: { id: string; error: string }[] = [];
  for (const c of rows) {
    try {
      checkWindow(c, set);
      await ctx.db.transaction(async (tx) => {
        await tx
          .update(campaigns)
          .set({ ...set, updatedAt: ctx.clock.now() })
          .where(eq(campaigns.id, c.id));
        if (changesScheduling(set)) await undoDeferrals(tx, c.id, ctx.clock.now());
      });
      updated.push(c.id);
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      failed.push({ id: c.id, error: e.message });
    }
  }
  const found = new Set(rows.map((r) => r.id));
  return { updated: updated.length, updatedIds: updated, failed, notFound: unique.filter((i) => !found.has(i)) };
}

export async function bulkArchive(ctx: Ctx, ids: string[]) {
  requireAccess(ctx, "write");
  const unique = [...new Set(ids)];
  const rows = await ctx.db
    .update(campaigns)
    .set({ status: "ARCHIVED", updatedAt: ctx.clock.now() })
    .where(and(eq(campaigns.workspaceId, ctx.workspaceId), inArray(campaigns.id, unique)))
    .returning({ id: campaigns.id });
  const found = new Set(rows.map((r) => r.id));
  return { archived: rows.length, notFound: unique.filter((i) => !found.has(i)) };
}
