import { and, eq, inArray, sql } from "drizzle-orm";
import type { z } from "zod";
import { anyOf, selectRows } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import { campaignMailboxes, mailboxTags } from "../../db/schema";
import { requireAccess, withTransaction, type Ctx } from "../ctx";
import { NotFoundError } from "../errors";
import { healthStatus } from "../mailboxes/view";
import { loadByMailbox } from "./campaign-leads";
import { findCampaign } from "./campaigns";
import { canSend, mailboxesByIds, poolMailboxes } from "./eligibility";
import { spamClasses, spamFor } from "./placement-spam";
import type { poolSelectBody } from "./schemas";

/** Leads on a mailbox that is no longer in the pool: reassign moves those not yet emailed. */
async function leadsOutsidePool(db: DbOrTx, campaignId: string): Promise<number> {
  const [r] = await selectRows<{ n: number }>(
    db,
    sql`
      select count(*)::int as n from campaign_leads cl
      where cl.campaign_id = ${campaignId} and cl.status = 'ACTIVE' and cl.mailbox_id is not null
        and not exists (select 1 from campaign_mailboxes p where p.campaign_id = cl.campaign_id and p.mailbox_id = cl.mailbox_id)`,
  );
  return r.n;
}

async function poolSize(db: DbOrTx, campaignId: string): Promise<number> {
  const [{ n }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(campaignMailboxes)
    .where(eq(campaignMailboxes.campaignId, campaignId));
  return n;
}

/** GET /campaigns/<id>/mailboxes: the pool, and which mailboxes are actively sending for it. */
export async function getPool(ctx: Ctx, campaignId: string) {
  requireAccess(ctx, "read");
  const c = await findCampaign(ctx.db, ctx.workspaceId, campaignId);
  const [pool, load] = await Promise.all([poolMailboxes(ctx.db, c.id), loadByMailbox(ctx.db, c.id)]);
  const spam = await spamClasses(
    ctx.db,
    pool.map((m) => m.id),
  );
  const now = ctx.clock.now();
  const rows = pool.map((m) => {
    const assignedLeads = load.get(m.id) ?? 0;
    return {
      id: m.id,
      email: m.email,
      senderName: m.senderName,
      healthStatus: healthStatus(m, now),
      warmupStatus: m.warmupStatus,
      dailySendCap: m.dailySendCap,
      canSend: canSend(m),
      assignedLeads,
      activelySending: c.status === "ACTIVE" && canSend(m) && assignedLeads > 0,
      // Provider classes its latest placement test landed in spam for: PREFER campaigns give it none of those leads.
      spamFor: spamFor(spam, m.id),
    };
  });
  return {
    poolSize: rows.length,
    activelySending: rows.filter((r) => r.activelySending).length,
    mailboxes: rows,
    leadsOutsidePool: await leadsOutsidePool(ctx.db, c.id),
  };
}

async function addToPool(db: DbOrTx, ctx: Ctx, campaignId: string, ids: string[]): Promise<{ added: number; notFound: string[] }> {
  const unique = [...new Set(ids)];
  const found = await mailboxesByIds(db, ctx.workspaceId, unique);
  const foundIds = new Set(found.map((m) => m.id));
  const inserted = found.length
    ? await db
        .insert(campaignMailboxes)
        .values(found.map((m) => ({ workspaceId: ctx.workspaceId, campaignId, mailboxId: m.id, addedAt: ctx.clock.now() })))
        .onConflictDoNothing()
        .returning()
    : [];
  return { added: inserted.length, notFound: unique.filter((i) => !foundIds.has(i)) };
}

/** PUT /campaigns/<id>/mailboxes: replaces the pool. Assigned leads stay where they are. */
export async function replacePool(ctx: Ctx, campaignId: string, mailboxIds: string[]) {
  requireAccess(ctx, "write");
  return withTransaction(ctx, async (tx) => {
    await findCampaign(tx, ctx.workspaceId, campaignId, true);
    const found = new Set((await mailboxesByIds(tx, ctx.workspaceId, [...new Set(mailboxIds)])).map((m) => m.id));
    const removedRows = await tx
      .delete(campaignMailboxes)
      .where(
        and(
          eq(campaignMailboxes.campaignId, campaignId),
          found.size ? sql`${campaignMailboxes.mailboxId} not in ${[...found]}` : sql`true`,
        ),
      )
      .returning();
    const { added, notFound } = await addToPool(tx, ctx, campaignId, mailboxIds);
    return {
      poolSize: await poolSize(tx, campaignId),
      added,
      removed: removedRows.length,
      notFound,
      leadsOutsidePool: await leadsOutsidePool(tx, campaignId),
    };
  });
}

/** POST /campaigns/<id>/mailboxes/select: adds by ids, by tags, or a random number of mailboxes not yet in the pool. */
export async function selectPool(ctx: Ctx, campaignId: string, input: z.infer<typeof poolSelectBody>) {
  requireAccess(ctx, "write");
  return withTransaction(ctx, async (tx) => {
    await findCampaign(tx, ctx.workspaceId, campaignId, true);
    let ids: string[];
    if (input.mode === "manual") ids = input.mailboxIds;
    else if (input.mode === "tag") {
      ids = (
        await tx
          .selectDistinct({ id: mailboxTags.mailboxId })
          .from(mailboxTags)
          .where(and(eq(mailboxTags.workspaceId, ctx.workspaceId), inArray(mailboxTags.tagId, input.tagIds)))
      ).map((r) => r.id);
    } else {
      const tagged = input.tagIds?.length
        ? sql`and exists (select 1 from mailbox_tags t where t.mailbox_id = m.id and t.tag_id = ${anyOf(input.tagIds)})`
        : sql``;
      const picked = await selectRows<{ id: string }>(
        tx,
        sql`
          select m.id from mailboxes m
          where m.workspace_id = ${ctx.workspaceId} and m.sending_enabled and m.login_failing_since is null
            and m.auto_paused_at is null ${tagged}
            and not exists (select 1 from campaign_mailboxes p where p.campaign_id = ${campaignId} and p.mailbox_id = m.id)
          order by random() limit ${input.count}`,
      );
      ids = picked.map((r) => r.id);
    }
    const { added, notFound } = await addToPool(tx, ctx, campaignId, ids);
    return {
      poolSize: await poolSize(tx, campaignId),
      added,
      removed: 0,
      notFound,
      leadsOutsidePool: await leadsOutsidePool(tx, campaignId),
    };
  });
}

export async function removeFromPool(ctx: Ctx, campaignId: string, mailboxIds: string[]) {
  requireAccess(ctx, "write");
  await findCampaign(ctx.db, ctx.workspaceId, campaignId);
  const unique = [...new Set(mailboxIds)];
  const rows = await ctx.db
    .delete(campaignMailboxes)
    .where(and(eq(campaignMailboxes.campaignId, campaignId), inArray(campaignMailboxes.mailboxId, unique)))
    .returning();
  const removed = new Set(rows.map((r) => r.mailboxId));
  return {
    removed: rows.length,
    notInPool: unique.filter((i) => !removed.has(i)),
    poolSize: await poolSize(ctx.db, campaignId),
    leadsOutsidePool: await leadsOutsidePool(ctx.db, campaignId),
  };
}

export async function removeOneFromPool(ctx: Ctx, campaignId: string, mailboxId: string) {
  const r = await removeFromPool(ctx, campaignId, [mailboxId]);
  if (r.removed === 0) throw new NotFoundError("Mailbox in this pool");
  return r;
}
