import { and, desc, eq, gt, ne, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { agentReplies, leads, mailboxes, replies, sentReplies } from "../../db/schema";
import { aiProviderFor } from "../ai/resolve";
import { useCredit } from "../ai/settings";
import { agentForCampaign, type AgentRow } from "./crud";
import { searchKnowledge } from "./search";
import type { Clock } from "../clock";
import { systemCtx } from "../ctx";
import { AppError, RateLimitedError } from "../errors";
import { newText } from "../ai/classify";
import { sendReply } from "../inbox/send-reply";
import type { AgentReplyRow, Outcome } from "./claim-replies";
import { composeAnswer, followUpText } from "./compose";
import { ANSWERED_INTENTS } from "../inbox/ingest/agent-queue";

/** How many passages ground an answer. */
export const PASSAGES = 3;
const DAY_MS = 86_400_000;

type Found = { r: typeof replies.$inferSelect; firstName: string | null; senderName: string | null };

async function load(db: DbOrTx, row: AgentReplyRow): Promise<Found | undefined> {
  const [f] = await db
    .select({ r: replies, firstName: leads.firstName, senderName: mailboxes.senderName })
    .from(replies)
    .innerJoin(mailboxes, eq(mailboxes.id, replies.mailboxId))
    .leftJoin(leads, eq(leads.id, replies.leadId))
    .where(and(eq(replies.id, row.replyId), eq(replies.workspaceId, row.workspaceId)));
  return f;
}

/** The agent still attached to the reply's campaign, the same one, with autonomy (and, for a follow-up, follow-ups) on. */
async function activeAgent(db: DbOrTx, row: AgentReplyRow, r: Found["r"]): Promise<AgentRow | null> {
  const a = r.campaignId ? await agentForCampaign(db, row.workspaceId, r.campaignId) : null;
  if (!a || a.id !== row.agentId || !a.autonomousReplies) return null;
  return row.kind === "FOLLOW_UP" && !a.followUpsEnabled ? null : a;
}

/** Anything of ours sent in the lead's conversation at or after `since` (a person's answer, from the app or a mail client). */
async function answeredSince(db: DbOrTx, leadId: string, since: Date, except?: string | null): Promise<boolean> {
  const [hit] = await db
    .select({ id: sentReplies.id })
    .from(sentReplies)
    .where(
      and(
        eq(sentReplies.leadId, leadId),
        sql`coalesce(${sentReplies.sentAt}, ${sentReplies.createdAt}) >= ${since.toISOString()}::timestamptz`,
        ne(sentReplies.status, "FAILED"),
        except ? ne(sentReplies.id, except) : undefined,
      ),
    )
    .limit(1);
  return !!hit;
}

/** A message the lead (or a colleague) wrote after `since` — not an automatic reply. */
async function leadWroteSince(db: DbOrTx, leadId: string, since: Date): Promise<boolean> {
  const [hit] = await db
    .select({ id: replies.id })
    .from(replies)
    .where(and(eq(replies.leadId, leadId), gt(replies.receivedAt, since), eq(replies.isAutoReply, false)))
    .limit(1);
  return !!hit;
}

/** One AI credit for the agent's message; out of credits is an outcome (nothing sent), not an error. */
async function takeCredit(db: DbOrTx, workspaceId: string, now: Date): Promise<Outcome | undefined> {
  try {
    await useCredit(db, workspaceId, now);
    return undefined;
  } catch (e) {
    if (e instanceof RateLimitedError) return { status: "SKIPPED", reason: "NO_CREDITS", detail: e.message };
    throw e;
  }
}

/** Sends `body` through the inbox's reply path as the system actor (sentBy AGENT), threaded to the message. */
async function send(db: DbOrTx, clock: Clock, f: Found, body: string, provider: string): Promise<Outcome> {
  try {
    const sent = await sendReply(systemCtx(f.r.workspaceId, { db, clock }), f.r.id, { body });
    return { status: "SENT", body, provider, sentReplyId: sent.sentReplyId };
  } catch (e) {
    const extra = e instanceof AppError ? (e.extra as { sentReplyId?: string } | undefined) : undefined;
    return { status: "FAILED", reason: "SEND_FAILED", detail: (e as Error).message, body, provider, sentReplyId: extra?.sentReplyId };
  }
}

/** The agent's answer to a lead's INTERESTED or QUESTION reply. */
export async function answer(db: DbOrTx, clock: Clock, row: AgentReplyRow): Promise<Outcome> {
  const now = clock.now();
  const f = await load(db, row);
  if (!f?.r.leadId) return { status: "SKIPPED", reason: "GONE" };
  const agent = await activeAgent(db, row, f.r);
  if (!agent) return { status: "SKIPPED", reason: "AGENT_OFF" };
  if (f.r.isAutoReply || !ANSWERED_INTENTS.includes(f.r.intent)) return { status: "SKIPPED", reason: "INTENT", detail: f.r.intent };
  if (await answeredSince(db, f.r.leadId, f.r.receivedAt)) return { status: "SKIPPED", reason: "ANSWERED" };
  if (await leadWroteSince(db, f.r.leadId, f.r.receivedAt)) return { status: "SKIPPED", reason: "NEWER_MESSAGE" };
  const question = newText(f.r.textBody).trim() || f.r.subject;
  const passages = await searchKnowledge(db, row.workspaceId, agent.id, question, PASSAGES, now);
  if (!passages.length)
    return { status: "SKIPPED", reason: "NO_PASSAGE", detail: "Nothing in the agent's knowledge matches; left for a person" };
  const noCredit = await takeCredit(db, row.workspaceId, now);
  if (noCredit) return noCredit;
  const { body, provider } = await composeAnswer(
    { agent, leadName: f.firstName ?? f.r.from?.name ?? null, senderName: f.senderName, theirMessage: f.r.textBody, passages },
    (await aiProviderFor(db, row.workspaceId)).complete ?? null,
  );
  const out = await send(db, clock, f, body, provider);
  if (out.status === "SENT" && agent.followUpsEnabled) {
    await db
      .insert(agentReplies)
      .values({
        ...row,
        kind: "FOLLOW_UP",
        status: "PENDING",
        reason: null,
        detail: null,
        body: null,
        provider: null,
        sentReplyId: null,
        leaseUntil: null,
        doneAt: null,
        dueAt: new Date(now.getTime() + agent.followUpDays * DAY_MS),
        createdAt: now,
      })
      .onConflictDoNothing();
  }
  return out;
}

/** The one follow-up after followUpDays, unless the lead answered, or anyone of ours wrote, since the agent's answer. */
export async function followUp(db: DbOrTx, clock: Clock, row: AgentReplyRow): Promise<Outcome> {
  const f = await load(db, row);
  if (!f?.r.leadId) return { status: "SKIPPED", reason: "GONE" };
  const agent = await activeAgent(db, row, f.r);
  if (!agent) return { status: "SKIPPED", reason: "AGENT_OFF" };
  const [first] = await db
    .select({ id: sentReplies.id, at: sql<Date>`coalesce(${sentReplies.sentAt}, ${sentReplies.createdAt})`.mapWith(sentReplies.createdAt) })
    .from(agentReplies)
    .innerJoin(sentReplies, eq(sentReplies.id, agentReplies.sentReplyId))
    .where(and(eq(agentReplies.replyId, row.replyId), eq(agentReplies.kind, "ANSWER"), eq(agentReplies.status, "SENT")))
    .orderBy(desc(sentReplies.createdAt));
  if (!first) return { status: "SKIPPED", reason: "GONE" };
  if (await leadWroteSince(db, f.r.leadId, first.at)) return { status: "SKIPPED", reason: "LEAD_ANSWERED" };
  if (await answeredSince(db, f.r.leadId, first.at, first.id)) return { status: "SKIPPED", reason: "ANSWERED" };
  const noCredit = await takeCredit(db, row.workspaceId, clock.now());
  if (noCredit) return noCredit;
  return send(db, clock, f, followUpText(agent, f.firstName ?? f.r.from?.name ?? null, f.senderName), "fallback");
}
