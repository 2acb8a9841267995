import { and, eq } from "drizzle-orm";
import { getDb } from "../db/client";
import { campaignLeads, emails, mailboxes, replies, warmupMessages } from "../db/schema";
import { POST as SEND_REPLY } from "../app/api/v1/replies/[id]/send/route";
import { type ManualClock, useClock } from "../lib/clock";
import { systemCtx } from "../lib/ctx";
import { newId } from "../lib/ids";
import { newMessageId } from "../lib/mail/message-id";
import { findMailbox } from "../lib/mailboxes/view";
import { utcDate } from "../lib/mailboxes/warmup-ramp";
import { startPlacementTest } from "../lib/placement/start";
import { sendDue } from "../lib/sending/engine";
import { answer, newConversation, replySubject } from "../lib/warmup/content";
import { deliverWarmup } from "../lib/warmup/send";
import { launchCampaign, type MailSuite } from "./campaign-setup";
import { call } from "./helpers";

/**
 * Every kind of message Outreach writes, sent by the product's own code (the send engine, the reply
 * sender, the warmup sender, the placement probe) to the SMTP peer, and kept as the bytes it received.
 */

export interface CapturedMessage {
  name: string;
  raw: string;
  from: string;
  to: string;
}

/** The bytes of the one message the SMTP peer got after `before` (the newest), with its envelope. */
function lastReceived(suite: MailSuite, name: string, before: number): CapturedMessage {
  const got = suite.world.smtp.received.slice(before);
  if (got.length === 0) throw new Error(`${name}: nothing reached the SMTP peer`);
  const r = got[got.length - 1];
  return { name, raw: r.raw, from: r.from, to: r.to[0] };
}

/** Five-minute engine passes until `done` (at most `hours`). */
async function tickUntil(clock: ManualClock, hours: number, done: () => Promise<boolean>): Promise<void> {
  const end = clock.now().getTime() + hours * 3600_000;
  while (clock.now().getTime() < end) {
    await sendDue(getDb(), clock);
    if (await done()) return;
    clock.advance(5 * 60_000);
  }
  throw new Error(`not sent within ${hours} h`);
}

export interface CampaignCase {
  name: string;
  settings: Record<string, unknown>;
  steps: Record<string, unknown>[];
  lead: Record<string, unknown>;
}

/**
 * A campaign launched for one lead and sent by the engine: its first email, and with `followUp` its
 * second step (a day later, threaded). Returns the captured messages and the first email's row.
 */
export async function sendCampaign(suite: MailSuite, clock: ManualClock, mailboxId: string, c: CampaignCase, followUp?: string) {
  useClock(clock);
  const { campaign, launched } = await launchCampaign(suite.ws.fullKey, {
    campaign: { name: c.name, startAt: clock.now().toISOString(), minGapMinutes: 0, ...c.settings },
    steps: c.steps,
    mailboxIds: [mailboxId],
    leads: [c.lead],
  });
  if (launched.status !== 200) throw new Error(`${c.name}: launch answered ${launched.status} ${JSON.stringify(launched.body)}`);
  const sent = async (n: number) =>
    (await getDb().select().from(emails).where(eq(emails.campaignId, campaign.id))).filter((e) => e.status === "SENT").length >= n;
  let before = suite.world.smtp.received.length;
  await tickUntil(clock, 72, () => sent(1));
  const out = [lastReceived(suite, c.name, before)];
  if (followUp) {
    before = suite.world.smtp.received.length;
    clock.advance(24 * 3600_000);
    await tickUntil(clock, 96, () => sent(2));
    out.push(lastReceived(suite, followUp, before));
  }
  const [first] = await getDb()
    .select()
    .from(emails)
    .where(and(eq(emails.campaignId, campaign.id), eq(emails.stepOrder, 0)));
  const [cl] = await getDb().select().from(campaignLeads).where(eq(campaignLeads.campaignId, campaign.id));
  return { messages: out, first, leadId: cl.leadId };
}

/**
 * The lead answers the first email (a reply row, as the inbox sync writes it) and the mailbox's owner
 * replies through POST /replies/<id>/send with a PDF attached.
 */
export async function sendReplyWithFile(
  suite: MailSuite,
  first: typeof emails.$inferSelect,
  leadId: string,
  lead: { name: string; address: string },
  body: string,
): Promise<CapturedMessage> {
  const replyId = newId("rep");
  await getDb()
    .insert(replies)
    .values({
      id: replyId,
      workspaceId: suite.ws.workspaceId,
      mailboxId: first.mailboxId,
      leadId,
      campaignId: first.campaignId,
      emailId: first.id,
      messageId: `<answer-${replyId}@${lead.address.split("@")[1]}>`,
      inReplyTo: first.messageId,
      references: [first.messageId],
      from: lead,
      subject: `Re: ${first.subject}`,
      textBody: "Thanks for reaching out. Could you send me the case study and pricing overview? We review vendors next week.",
      receivedAt: new Date(),
    });
  const pdf = Buffer.from(
    "%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n",
  );
  const before = suite.world.smtp.received.length;
  const res = await call(SEND_REPLY, "POST", "", {
    key: suite.ws.fullKey,
    params: { id: replyId },
    body: {
      body,
      attachments: [{ filename: "Case study - Northwind.pdf", contentType: "application/pdf", contentBase64: pdf.toString("base64") }],
    },
  });
  if (res.status !== 200) throw new Error(`reply: ${res.status} ${JSON.stringify(res.body)}`);
  return lastReceived(suite, "reply with a PDF", before);
}

/**
 * A warmup conversation's first email from `fromId` to `to`, then the answer its partner writes back
 * (the rows as the warmup job and the receiving side write them, sent by the warmup sender).
 */
export async function sendWarmupPair(suite: MailSuite, clock: ManualClock, fromId: string, toId: string): Promise<CapturedMessage[]> {
  const db = getDb();
  const [from] = await db.select().from(mailboxes).where(eq(mailboxes.id, fromId));
  const [to] = await db.select().from(mailboxes).where(eq(mailboxes.id, toId));
  const sender = (await findMailbox(db, suite.ws.workspaceId, fromId))!;
  const partner = (await findMailbox(db, suite.ws.workspaceId, toId))!;
  const now = clock.now();
  const id = newId("wum");
  const content = newConversation(to.email, from.senderName ?? from.email.split("@")[0]);
  const base = { workspaceId: suite.ws.workspaceId, warmingMailboxId: from.id, conversationId: id, day: utcDate(now), createdAt: now };
  const [first] = await db
    .insert(warmupMessages)
    .values({
      ...base,
      id,
      fromMailboxId: from.id,
      toMailboxId: to.id,
      toEmail: to.email,
      depth: 0,
      messageId: newMessageId(from.email),
      subject: content.subject,
      bodyText: content.body,
      status: "SENDING",
    })
    .returning();
  let before = suite.world.smtp.received.length;
  if (!(await deliverWarmup(db, first, sender, () => clock.now()))) throw new Error("warmup: first email not sent");
  const out = [lastReceived(suite, "warmup email", before)];
  const [reply] = await db
    .insert(warmupMessages)
    .values({
      ...base,
      id: newId("wum"),
      fromMailboxId: to.id,
      toMailboxId: from.id,
      toEmail: from.email,
      depth: 1,
      messageId: newMessageId(to.email),
      inReplyTo: first.messageId,
      references: [first.messageId],
      subject: replySubject(first.subject),
      bodyText: answer(from.email, to.senderName ?? to.email.split("@")[0]),
      status: "SENDING",
    })
    .returning();
  before = suite.world.smtp.received.length;
  if (!(await deliverWarmup(db, reply, partner, () => clock.now()))) throw new Error("warmup: answer not sent");
  out.push(lastReceived(suite, "warmup answer", before));
  return out;
}

/** A placement test from `mailboxId` with the product's own probe text, to the workspace's seed. */
export async function sendPlacementProbe(suite: MailSuite, clock: ManualClock, mailboxId: string): Promise<CapturedMessage> {
  const before = suite.world.smtp.received.length;
  const started = await startPlacementTest(systemCtx(suite.ws.workspaceId, { clock }), { mailboxId });
  if (started.status !== "RUNNING") throw new Error(`placement: ${started.status}`);
  return lastReceived(suite, "placement probe", before);
}
