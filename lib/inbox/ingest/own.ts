import { and, eq, sql } from "drizzle-orm";
import type { ParsedMail } from "mailparser";
import { anyOf } from "../../../db/bulk";
import type { DbOrTx } from "../../../db/client";
import { type Address, emails, leads, replies, sentReplies } from "../../../db/schema";
import type { Clock } from "../../clock";
import { newId } from "../../ids";
import { storeMessageFiles } from "../files";
import type { Mailbox } from "./intent";
import { serviceMailIds } from "../../warmup/known";
import { addresses, clean, dateOf, refsOf, unique } from "./parse";

/** A Sent-folder message with the fields its matching reads. */
type Own = { m: ParsedMail; messageId: string | undefined; refs: string[]; to: Address[] };
/** The lead whose conversation an answer belongs to, and the lead's reply it answers when known. */
type Conversation = { leadId: string; replyId: string | null };

/** The Message-IDs among `ids` we sent ourselves from this mailbox: campaign emails and replies from the app. */
async function ourMessageIds(db: DbOrTx, mb: Mailbox, ids: string[]): Promise<Set<string>> {
  const [sent, answered, service] = await Promise.all([
    db
      .select({ id: emails.messageId })
      .from(emails)
      .where(and(eq(emails.mailboxId, mb.id), sql`${emails.messageId} = ${anyOf(ids)}`)),
    db
      .select({ id: sentReplies.messageId })
      .from(sentReplies)
      .where(and(eq(sentReplies.mailboxId, mb.id), sql`${sentReplies.messageId} = ${anyOf(ids)}`)),
    serviceMailIds(db, ids),
  ]);
  return new Set([...[...sent, ...answered].map((r) => r.id), ...service]);
}

/** By the thread headers: a reply of the lead's this answers, else one of our campaign emails it follows. */
async function byThread(db: DbOrTx, mb: Mailbox, items: Own[], todo: number[], found: Map<number, Conversation>): Promise<void> {
  const refs = unique(todo.flatMap((i) => items[i].refs));
  if (!refs.length) return;
  const rs = await db
    .select({ id: replies.id, leadId: replies.leadId, messageId: replies.messageId })
    .from(replies)
    .where(and(eq(replies.mailboxId, mb.id), sql`${replies.messageId} = ${anyOf(refs)}`));
  for (const i of todo) {
    const r = rs.find((x) => x.leadId && items[i].refs.includes(x.messageId));
    if (r?.leadId) found.set(i, { leadId: r.leadId, replyId: r.id });
  }
  const rest = todo.filter((i) => !found.has(i) && items[i].refs.length);
  if (!rest.length) return;
  const es = await db
    .select({ leadId: emails.leadId, messageId: emails.messageId })
    .from(emails)
    .where(and(eq(emails.mailboxId, mb.id), sql`${emails.messageId} = ${anyOf(unique(rest.flatMap((i) => items[i].refs)))}`));
  for (const i of rest) {
    const e = es.find((x) => x.leadId && items[i].refs.includes(x.messageId));
    if (e?.leadId) found.set(i, { leadId: e.leadId, replyId: null });
  }
}

/** Else by a recipient among the workspace's leads. */
async function byRecipient(db: DbOrTx, mb: Mailbox, items: Own[], todo: number[], found: Map<number, Conversation>): Promise<void> {
  const byTo = todo.filter((i) => !found.has(i) && items[i].to.length);
  if (!byTo.length) return;
  const ls = await db
    .select({ id: leads.id, address: sql<string>`lower(${leads.email})` })
    .from(leads)
    .where(
      and(
        eq(leads.workspaceId, mb.workspaceId),
        sql`lower(${leads.email}) = ${anyOf(unique(byTo.flatMap((i) => items[i].to.map((a) => a.address))))}`,
      ),
    );
  const leadOf = new Map(ls.map((l) => [l.address, l.id]));
  for (const i of byTo) {
    const a = items[i].to.find((x) => leadOf.has(x.address));
    if (a) found.set(i, { leadId: leadOf.get(a.address)!, replyId: null });
  }
}

/** The sent_replies row of an answer written in a mail client (sentBy HUMAN), dated by its Date header. */
function sentRow(mb: Mailbox, id: string, it: Own, c: Conversation, now: Date): typeof sentReplies.$inferInsert {
  const { m } = it;
  const at = dateOf(m, now);
  return {
    id,
    workspaceId: mb.workspaceId,
    mailboxId: mb.id,
    leadId: c.leadId,
    replyId: c.replyId,
    to: it.to,
    cc: addresses(m.cc),
    bcc: addresses(m.bcc),
    subject: clean(m.subject ?? ""),
    body: clean(m.text ?? ""),
    html: typeof m.html === "string" ? clean(m.html) : null,
    status: "SENT",
    sentBy: "HUMAN",
    messageId: it.messageId!,
    inReplyTo: m.inReplyTo ? clean(m.inReplyTo) : null,
    references: it.refs,
    queuedAt: at,
    sentAt: at,
    createdAt: at,
  };
}

/**
 * Answers written directly in a mail client, read from the Sent folder: shown in the conversation as
 * our replies with sentBy HUMAN. Messages we sent ourselves (campaign emails, replies from the app) are
 * recognised by their Message-ID and skipped, as are warmup traffic and messages that belong to no
 * lead's conversation. Their files are kept as received ones are (storeMessageFiles), in one
 * transaction with them. Returns the new sent-reply id per message (undefined when skipped).
 */
export async function ingestOwnMessages(db: DbOrTx, clock: Clock, mb: Mailbox, ms: ParsedMail[]): Promise<(string | undefined)[]> {
  const out: (string | undefined)[] = ms.map(() => undefined);
  const items: Own[] = ms.map((m) => ({
    m,
    messageId: m.messageId ? clean(m.messageId) : undefined,
    refs: refsOf(m),
    to: addresses(m.to),
  }));
  const ids = unique(items.flatMap((i) => (i.messageId ? [i.messageId] : [])));
  if (!ids.length) return out;
  const known = await ourMessageIds(db, mb, ids);
  const todo: number[] = [];
  const seen = new Set<string>();
  items.forEach((it, i) => {
    if (!it.messageId || known.has(it.messageId) || seen.has(it.messageId)) return;
    seen.add(it.messageId);
    todo.push(i);
  });
  if (!todo.length) return out;
  const found = new Map<number, Conversation>();
  await byThread(db, mb, items, todo, found);
  await byRecipient(db, mb, items, todo, found);
  const now = clock.now();
  const kept = todo.filter((i) => found.has(i)); // not part of a lead's conversation: skipped
  if (!kept.length) return out;
  for (const i of kept) out[i] = newId("srp");
  const rows = kept.map((i) => sentRow(mb, out[i]!, items[i], found.get(i)!, now));
  // Their files, kept like received ones (`attachments` of our replies): in one transaction with them.
  const withFiles = kept.filter((i) => items[i].m.attachments?.length);
  if (!withFiles.length) await db.insert(sentReplies).values(rows);
  else {
    await db.transaction(async (tx) => {
      await tx.insert(sentReplies).values(rows);
      for (const i of withFiles) await storeMessageFiles(tx, mb.workspaceId, { sentReplyId: out[i]! }, items[i].m.attachments);
    });
  }
  return out;
}
