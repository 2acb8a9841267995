import { selectRows } from "../../db/bulk";
import { and, desc, eq, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { campaigns, leads, mailboxes, replies } from "../../db/schema";
import { offsetOf } from "../paging";
import { requireAccess, type Ctx } from "../ctx";
import { NotFoundError } from "../errors";
import { getLeadViews } from "../leads/read-leads";
import { assigneeCondition, assigneesOf } from "./assign";
import { filesOf } from "./files";
import { INTENTS, type intentCountsQuery, type intentCountsResult, type listRepliesQuery, type threadsQuery } from "./schemas";
import { FROM_SINCE, referralView } from "./thread";

type Intent = (typeof INTENTS)[number];

type ReplyRow = typeof replies.$inferSelect;

function replyView(r: ReplyRow) {
  return {
    id: r.id,
    leadId: r.leadId,
    campaignId: r.campaignId,
    mailboxId: r.mailboxId,
    subject: r.subject,
    rawBody: r.textBody,
    intentClassification: r.intent,
    isAutoReply: r.isAutoReply,
    from: r.receivedAt >= FROM_SINCE ? r.from : null,
    receivedAt: r.receivedAt.toISOString(),
    read: !!r.readAt,
    remindAt: r.remindAt?.toISOString() ?? null,
    starred: r.starred,
    returnDate: r.returnDate,
    returnDateText: r.returnDateText,
    referral: referralView(r.referral),
  };
}

export async function listReplies(ctx: Ctx, q: z.infer<typeof listRepliesQuery>) {
  requireAccess(ctx, "read");
  const conds: SQL[] = [eq(replies.workspaceId, ctx.workspaceId), isNotNull(replies.leadId)];
  if (q.intent) conds.push(eq(replies.intent, q.intent));
  if (q.campaignId) conds.push(eq(replies.campaignId, q.campaignId));
  if (q.hasReminder === "true") conds.push(isNotNull(replies.remindAt));
  if (q.hasReminder === "false") conds.push(isNull(replies.remindAt));
  if (q.q?.trim()) {
    const like = `%${q.q.trim().replace(/[\\%_]/g, (c) => "\\" + c)}%`;
    conds.push(sql`(${replies.subject} ilike ${like} or ${replies.textBody} ilike ${like} or ${replies.from}->>'address' ilike ${like})`);
  }
  const where = and(...conds);
  const [rows, [{ n }]] = await Promise.all([
    ctx.db.select().from(replies).where(where).orderBy(desc(replies.receivedAt), desc(replies.id)).limit(q.limit).offset(offsetOf(q)),
    ctx.db.select({ n: sql<number>`count(*)::int` }).from(replies).where(where),
  ]);
  return { rows: rows.map(replyView), total: n };
}

/**
 * GET /replies/threads: one row per lead, newest conversation first, with the latest reply, how many
 * of their replies nobody has opened, and whether (and when) we answered after their latest message.
 */
/** The latest reply's intent of a conversation (group of `replies r` by lead); ties broken by id, as for `latest_id`. */
const LATEST_INTENT = sql`(array_agg(r.intent order by r.received_at desc, r.id desc))[1]`;

/**
 * Which conversations /replies/threads and /replies/intent-counts look at: `where` over `replies r`,
 * `having` over the group of one lead's replies. The two must agree, so both are built here.
 */
function threadConditions(ctx: Ctx, q: { intent?: string; campaignId?: string; unread?: string; starred?: string; assignee?: string }) {
  const filters: SQL[] = [sql`r.workspace_id = ${ctx.workspaceId}`, sql`r.lead_id is not null`];
  if (q.campaignId) filters.push(sql`r.campaign_id = ${q.campaignId}`);
  const assigned = assigneeCondition(ctx, q.assignee);
  if (assigned) filters.push(assigned);
  const having: SQL[] = [];
  if (q.intent) having.push(sql`${LATEST_INTENT} = ${q.intent}`);
  if (q.unread === "true") having.push(sql`count(*) filter (where r.read_at is null) > 0`);
  if (q.starred === "true") having.push(sql`bool_or(r.starred)`);
  return { where: sql.join(filters, sql` and `), having: having.length ? sql`having ${sql.join(having, sql` and `)}` : sql`` };
}

export async function listThreads(ctx: Ctx, q: z.infer<typeof threadsQuery>) {
  requireAccess(ctx, "read");
  const { where, having } = threadConditions(ctx, q);
  const all = await selectRows<{
    lead_id: string | null;
    last_at: string;
    reply_count: number;
    unread_count: number;
    latest_id: string;
    last_answered_at: string | null;
    total: number;
  }>(
    ctx.db,
    sql`
    with t as (
      select r.lead_id, max(r.received_at) as last_at, count(*)::int as reply_count,
        count(*) filter (where r.read_at is null)::int as unread_count,
        (array_agg(r.id order by r.received_at desc, r.id desc))[1] as latest_id,
      (select max(s.sent_at) from sent_replies s where s.lead_id = r.lead_id and s.status = 'SENT') as last_answered_at
      from replies r where ${where}
      group by r.lead_id ${having}),
    page as (select * from t order by t.last_at desc, t.lead_id limit ${q.limit} offset ${offsetOf(q)})
    -- The total counts every conversation, not the page's rows: one row (lead_id null) past the last page.
    select page.*, (select count(*)::int from t) as total
    from (select 1) as one left join page on true
    order by page.last_at desc, page.lead_id`,
  );
  const total = all[0]?.total ?? 0;
  const rows = all.filter((r): r is typeof r & { lead_id: string } => r.lead_id !== null);
  if (rows.length === 0) return { rows: [], total };
  const leadIds = rows.map((r) => r.lead_id);
  const [latest, leadList, assignees] = await Promise.all([
    ctx.db
      .select()
      .from(replies)
      .where(sql`${replies.id} in ${rows.map((r) => r.latest_id)}`),
    getLeadViews(ctx.db, ctx.workspaceId, leadIds),
    assigneesOf(ctx.db, ctx.workspaceId, leadIds),
  ]);
  const byId = new Map(latest.map((r) => [r.id, r]));
  const leadViews = new Map(leadList.map((l) => [l.id, l]));
  const mbIds = [...new Set(latest.map((r) => r.mailboxId))];
  const cIds = [...new Set(latest.map((r) => r.campaignId).filter((x): x is string => !!x))];
  const [mbs, cs] = await Promise.all([
    ctx.db
      .select({ id: mailboxes.id, email: mailboxes.email, senderName: mailboxes.senderName })
      .from(mailboxes)
      .where(sql`${mailboxes.id} in ${mbIds}`),
    cIds.length
      ? ctx.db
          .select({ id: campaigns.id, name: campaigns.name, status: campaigns.status })
          .from(campaigns)
          .where(sql`${campaigns.id} in ${cIds}`)
      : Promise.resolve([]),
  ]);
  return {
    total,
    rows: rows.map((t) => {
      const r = byId.get(t.latest_id)!;
      const lead = leadViews.get(t.lead_id);
      return {
        leadId: t.lead_id,
        latestReply: replyView(r),
        unreadCount: t.unread_count,
        replyCount: t.reply_count,
        answered: !!t.last_answered_at && new Date(t.last_answered_at) > new Date(t.last_at),
        lastAnsweredAt: t.last_answered_at ? new Date(t.last_answered_at).toISOString() : null,
        lead: lead
          ? { id: lead.id, email: lead.email, firstName: lead.firstName, lastName: lead.lastName, companyName: lead.companyName }
          : null,
        mailbox: mbs.find((m) => m.id === r.mailboxId) ?? null,
        campaign: cs.find((c) => c.id === r.campaignId) ?? null,
        assignee: assignees.get(t.lead_id) ?? null,
      };
    }),
  };
}

/**
 * GET /replies/intent-counts: how many conversations each intent filter of /replies/threads would
 * list (by the latest reply's intent), with all of them and the unread ones — one query instead of a
 * `limit=1` list call per intent.
 */
export async function intentCounts(ctx: Ctx, q: z.infer<typeof intentCountsQuery>): Promise<z.infer<typeof intentCountsResult>> {
  requireAccess(ctx, "read");
  const { where, having } = threadConditions(ctx, q);
  const rows = await selectRows<{
    intent: Intent;
    n: number;
    unread: number;
  }>(
    ctx.db,
    sql`
    with t as (
      select ${LATEST_INTENT}::text as intent, bool_or(r.read_at is null) as has_unread
      from replies r where ${where}
      group by r.lead_id ${having})
    select t.intent, count(*)::int as n, count(*) filter (where t.has_unread)::int as unread from t group by t.intent`,
  );
  const intents = Object.fromEntries(INTENTS.map((i) => [i, 0])) as Record<Intent, number>;
  let all = 0;
  let unread = 0;
  for (const r of rows) {
    intents[r.intent] = r.n;
    all += r.n;
    unread += r.unread;
  }
  return { all, unread, intents };
}

export async function unreadCount(ctx: Ctx) {
  requireAccess(ctx, "read");
  const [r] = await selectRows<{
    messages: number;
    conversations: number;
  }>(
    ctx.db,
    sql`
    select count(*)::int as messages, count(distinct lead_id)::int as conversations
    from replies where workspace_id = ${ctx.workspaceId} and lead_id is not null and read_at is null`,
  );
  return r;
}

/** GET /replies/summary: replies received today, yesterday and earlier (UTC days). */
export async function summary(ctx: Ctx) {
  requireAccess(ctx, "read");
  const now = ctx.clock.now();
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const yesterday = new Date(today.getTime() - 86_400_000);
  const [r] = await selectRows<{
    today: number;
    yesterday: number;
    earlier: number;
  }>(
    ctx.db,
    sql`
    select count(*) filter (where received_at >= ${today.toISOString()}::timestamptz)::int as today,
      count(*) filter (where received_at >= ${yesterday.toISOString()}::timestamptz and received_at < ${today.toISOString()}::timestamptz)::int as yesterday,
      count(*) filter (where received_at < ${yesterday.toISOString()}::timestamptz)::int as earlier
    from replies where workspace_id = ${ctx.workspaceId} and lead_id is not null`,
  );
  return r;
}

export async function markThreadRead(ctx: Ctx, leadId: string) {
  requireAccess(ctx, "write");
  const [lead] = await ctx.db
    .select({ id: leads.id })
    .from(leads)
    .where(and(eq(leads.id, leadId), eq(leads.workspaceId, ctx.workspaceId)));
  if (!lead) throw new NotFoundError("Lead");
  const rows = await ctx.db
    .update(replies)
    .set({ readAt: ctx.clock.now() })
    .where(and(eq(replies.leadId, leadId), eq(replies.workspaceId, ctx.workspaceId), isNull(replies.readAt)))
    .returning({ id: replies.id });
  return { marked: rows.length };
}

async function updateReply(ctx: Ctx, id: string, set: Partial<ReplyRow>) {
  requireAccess(ctx, "write");
  const [r] = await ctx.db
    .update(replies)
    .set(set)
    .where(and(eq(replies.id, id), eq(replies.workspaceId, ctx.workspaceId)))
    .returning();
  if (!r) throw new NotFoundError("Reply");
  return replyView(r);
}

export const starReply = (ctx: Ctx, id: string, starred: boolean) => updateReply(ctx, id, { starred });
export const remindReply = (ctx: Ctx, id: string, remindAt: string | null) =>
  updateReply(ctx, id, { remindAt: remindAt ? new Date(remindAt) : null });

function unmatchedView(r: ReplyRow, mailboxEmail: string) {
  return { ...replyView(r), mailboxEmail, folder: r.folder, to: r.to, cc: r.cc };
}

/** GET /replies/unmatched: received messages that matched no lead, kept for the user to see (not dropped). */
export async function listUnmatched(ctx: Ctx, q: { page: number; limit: number }) {
  requireAccess(ctx, "read");
  const where = and(eq(replies.workspaceId, ctx.workspaceId), isNull(replies.leadId));
  const [rows, [{ n }]] = await Promise.all([
    ctx.db
      .select({ r: replies, mailboxEmail: mailboxes.email })
      .from(replies)
      .innerJoin(mailboxes, eq(mailboxes.id, replies.mailboxId))
      .where(where)
      .orderBy(desc(replies.receivedAt), desc(replies.id))
      .limit(q.limit)
      .offset(offsetOf(q)),
    ctx.db.select({ n: sql<number>`count(*)::int` }).from(replies).where(where),
  ]);
  return { rows: rows.map(({ r, mailboxEmail }) => unmatchedView(r, mailboxEmail)), total: n };
}

/**
 * GET /replies/unmatched/<id>: one message that matched no lead, as a list row plus its HTML (as
 * received: clients sanitise it) and its files. A message that belongs to a lead is not found here.
 */
export async function getUnmatched(ctx: Ctx, id: string) {
  requireAccess(ctx, "read");
  const [row] = await ctx.db
    .select({ r: replies, mailboxEmail: mailboxes.email })
    .from(replies)
    .innerJoin(mailboxes, eq(mailboxes.id, replies.mailboxId))
    .where(and(eq(replies.id, id), eq(replies.workspaceId, ctx.workspaceId), isNull(replies.leadId)));
  if (!row) throw new NotFoundError("Unmatched message");
  const attached = await filesOf(ctx.db, { replyIds: [row.r.id] });
  return { ...unmatchedView(row.r, row.mailboxEmail), html: row.r.htmlBody, attachments: attached.get(row.r.id) ?? [] };
}
