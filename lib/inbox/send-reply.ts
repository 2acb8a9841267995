import { selectRows } from "../../db/bulk";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { files, leads, mailboxes, messageFiles, replies, sentReplies, type Address } from "../../db/schema";
import type { Clock } from "../clock";
import { requireAccess, type Ctx } from "../ctx";
import { normalizeEmail } from "../emails";
import { ConflictError, ForbiddenError, NotFoundError, PayloadTooLargeError, UpstreamError, ValidationError } from "../errors";
import { decodeBase64, storeFile } from "../files/files";
import { newId } from "../ids";
import { newMessageId } from "../mail/message-id";
import { classifySmtpError } from "../mail/smtp";
import { sendPooledAs } from "../sending/transports";
import type { addressInput, sendReplyBody } from "./schemas";

/** A background reply still SENDING after this long shows as FAILED and may be retried. */
export const STALE_SENDING_MS = 10 * 60_000;

type SentRow = typeof sentReplies.$inferSelect;

export function shownStatus(r: Pick<SentRow, "status" | "queuedAt">, now: Date): "SENDING" | "SENT" | "FAILED" {
  return r.status === "SENDING" && now.getTime() - r.queuedAt.getTime() > STALE_SENDING_MS ? "FAILED" : r.status;
}

/** Canonical bare addresses (lower-cased), so display names and comments cannot smuggle recipients. */
function canonical(list: z.infer<typeof addressInput>[] | undefined, field: string): Address[] {
  return (list ?? []).map((a, i) => {
    const raw = typeof a === "string" ? a : a.address;
    const bare = /<([^<>]+)>\s*$/.exec(raw)?.[1] ?? raw;
    const n = normalizeEmail(bare);
    if (!n.ok || /[\s,;()<>"]/.test(bare.trim()))
      throw ValidationError.field(`${field}.${i}`, n.ok ? "must be one plain address" : n.reason);
    return { name: typeof a === "string" ? null : (a.name ?? null), address: n.email.toLowerCase() };
  });
}

/** Everyone already in the conversation: the lead, the writers and recipients of their replies, our mailbox. */
async function conversationAddresses(
  db: DbOrTx,
  workspaceId: string,
  leadId: string,
  leadEmail: string,
  mailboxEmail: string,
): Promise<Set<string>> {
  const rows = await db
    .select({ from: replies.from, to: replies.to, cc: replies.cc })
    .from(replies)
    .where(and(eq(replies.workspaceId, workspaceId), eq(replies.leadId, leadId)));
  const set = new Set([leadEmail.toLowerCase(), mailboxEmail.toLowerCase()]);
  for (const r of rows) for (const a of [r.from, ...r.to, ...r.cc]) if (a?.address) set.add(a.address.toLowerCase());
  return set;
}

async function deliver(db: DbOrTx, clock: Clock, row: SentRow, m: typeof mailboxes.$inferSelect): Promise<SentRow> {
  const fmt = (a: Address) => (a.name ? { name: a.name, address: a.address } : a.address);
  const attached = await db
    .select({ filename: messageFiles.filename, contentType: messageFiles.contentType, cid: messageFiles.cid, data: files.data })
    .from(messageFiles)
    .innerJoin(files, eq(files.id, messageFiles.fileId))
    .where(eq(messageFiles.sentReplyId, row.id));
  let status: "SENT" | "FAILED" = "SENT";
  let error: string | null = null;
  let code: string | null = null;
  try {
    const info = await sendPooledAs({ db, clock }, m, {
      from: m.senderName ? { name: m.senderName, address: m.email } : m.email,
      to: row.to.map(fmt),
      cc: row.cc.length ? row.cc.map(fmt) : undefined,
      bcc: row.bcc.length ? row.bcc.map(fmt) : undefined,
      // The envelope is built from the bare addresses only.
      envelope: { from: m.email, to: [...row.to, ...row.cc, ...row.bcc].map((a) => a.address) },
      subject: row.subject,
      text: row.body,
      html: row.html ?? undefined,
      messageId: row.messageId,
      inReplyTo: row.inReplyTo ?? undefined,
      references: row.references.length ? row.references : undefined,
      attachments: attached.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.data, cid: a.cid ?? undefined })),
    });
    if (info.rejected.length) {
      status = "FAILED";
      error = `Refused: ${String(info.response)}`;
    }
  } catch (e) {
    const err = classifySmtpError(e);
    status = "FAILED";
    error = err.message;
    code = err.responseCode ? String(err.responseCode) : null;
  }
  const [updated] = await db
    .update(sentReplies)
    .set({ status, error, smtpCode: code, sentAt: status === "SENT" ? clock.now() : null, leasedUntil: null })
    .where(eq(sentReplies.id, row.id))
    .returning();
  return updated;
}

type Found = { r: typeof replies.$inferSelect; m: typeof mailboxes.$inferSelect; leadEmail: string | null };
type Canonical = ReturnType<typeof canonical>;

/** Through an API key (or an agent) only people already in the conversation may receive a reply. */
async function checkRecipients(ctx: Ctx, found: Found, to: Canonical, cc: Canonical, bcc: Canonical): Promise<void> {
  const { r, m } = found;
  if (ctx.actor.type !== "apiKey" && ctx.actor.type !== "system") return;
  const allowed = r.leadId
    ? await conversationAddresses(ctx.db, ctx.workspaceId, r.leadId, found.leadEmail ?? "", m.email)
    : new Set([r.from?.address ?? ""]);
  const outside = [...to, ...cc, ...bcc].filter((a) => !allowed.has(a.address));
  if (outside.length)
    throw new ForbiddenError(
      `Through the API a reply may only go to people already in the conversation; not: ${outside.map((a) => a.address).join(", ")}`,
    );
}

/** A reply's files, checked: up to 10, 20 MB in all, uploads included. */
async function replyFiles(ctx: Ctx, input: z.infer<typeof sendReplyBody>) {
  const inlineFiles = (input.attachments ?? []).map((a, i) => {
    const data = decodeBase64(a.contentBase64);
    if (!data) throw ValidationError.field(`attachments.${i}.contentBase64`, "is not valid base64");
    return { ...a, data };
  });
  const uploads = input.uploadIds?.length
    ? await ctx.db
        .select()
        .from(messageFiles)
        .where(
          and(
            eq(messageFiles.workspaceId, ctx.workspaceId),
            inArray(messageFiles.id, input.uploadIds),
            eq(messageFiles.upload, true),
            sql`${messageFiles.sentReplyId} is null`,
          ),
        )
    : [];
  if (uploads.length !== new Set(input.uploadIds ?? []).size) throw new NotFoundError("Upload (unknown, already sent or expired)");
  if (inlineFiles.length + uploads.length > 10) throw ValidationError.field("attachments", "at most 10 files in all, uploads included");
  const totalBytes = inlineFiles.reduce((n, f) => n + f.data.length, 0) + uploads.reduce((n, u) => n + u.size, 0);
  if (totalBytes > 20 * 1024 * 1024)
    throw new PayloadTooLargeError(`A reply's files may total at most 20 MB; these are ${(totalBytes / 1048576).toFixed(1)} MB`);
  return { inlineFiles, uploads };
}

/** The files of a sent reply: attachments stored, uploads taken over. */
async function attachFiles(ctx: Ctx, sentReplyId: string, files: Awaited<ReturnType<typeof replyFiles>>): Promise<void> {
  const { inlineFiles, uploads } = files;
  for (const f of inlineFiles) {
    const fileId = await storeFile(ctx.db, ctx.workspaceId, { filename: f.filename, contentType: f.contentType, data: f.data });
    await ctx.db.insert(messageFiles).values({
      id: newId("mfl"),
      workspaceId: ctx.workspaceId,
      sentReplyId,
      fileId,
      filename: f.filename,
      contentType: f.contentType,
      size: f.data.length,
      cid: f.cid ?? null,
    });
  }
  if (uploads.length)
    await ctx.db
      .update(messageFiles)
      .set({ sentReplyId, upload: false })
      .where(
        inArray(
          messageFiles.id,
          uploads.map((u) => u.id),
        ),
      );
}

/** What sendReply did: queued for the background job, or sent (the server accepted it). */
export type SendReplyResult =
  | { queued: true; status: "SENDING"; sentReplyId: string }
  | { sent: true; sentReplyId: string; sentAt: string };

/**
 * POST /replies/<id>/send. The reply is written first (it shows in the conversation at
 * once), threaded to the message answered. Synchronously it returns once the server accepted it
 * (`{ sent: true, … }`); with `background` it returns `{ queued: true, … }` and a job sends it (the
 * route answers that with 202). Through an API key only addresses already in the
 * conversation may receive it (403); a dashboard session may address anyone.
 */
export async function sendReply(ctx: Ctx, replyId: string, input: z.infer<typeof sendReplyBody>): Promise<SendReplyResult> {
  requireAccess(ctx, "write");
  const [found] = await ctx.db
    .select({ r: replies, m: mailboxes, leadEmail: leads.email })
    .from(replies)
    .innerJoin(mailboxes, eq(mailboxes.id, replies.mailboxId))
    .leftJoin(leads, eq(leads.id, replies.leadId))
    .where(and(eq(replies.id, replyId), eq(replies.workspaceId, ctx.workspaceId)));
  if (!found) throw new NotFoundError("Reply");
  const { r, m } = found;
  const to = input.to?.length ? canonical(input.to, "to") : r.from ? [r.from] : [];
  if (to.length === 0) throw ValidationError.field("to", "the message answered has no sender; give `to`");
  const cc = canonical(input.cc, "cc");
  const bcc = canonical(input.bcc, "bcc");
  await checkRecipients(ctx, found, to, cc, bcc);
  const files = await replyFiles(ctx, input);
  const now = ctx.clock.now();
  const [row] = await ctx.db
    .insert(sentReplies)
    .values({
      id: newId("srp"),
      workspaceId: ctx.workspaceId,
      mailboxId: m.id,
      leadId: r.leadId,
      replyId: r.id,
      to,
      cc,
      bcc,
      subject: /^re:/i.test(r.subject) ? r.subject : `Re: ${r.subject}`,
      body: input.body,
      html: input.html ?? null,
      status: "SENDING",
      sentBy: ctx.actor.type === "session" ? "HUMAN" : ctx.actor.type === "system" ? "AGENT" : "API",
      sentByUserId: ctx.actor.type === "session" ? ctx.actor.userId : null,
      messageId: newMessageId(m.email),
      inReplyTo: r.messageId,
      references: [...r.references.filter((x) => x !== r.messageId), r.messageId],
      background: !!input.background,
      queuedAt: now,
      createdAt: now,
      // A synchronous send holds its row so the background job does not pick it up as well.
      leasedUntil: input.background ? null : new Date(now.getTime() + STALE_SENDING_MS),
    })
    .returning();
  await attachFiles(ctx, row.id, files);
  if (input.background) return { queued: true as const, status: "SENDING" as const, sentReplyId: row.id };
  const done = await deliver(ctx.db, ctx.clock, row, m);
  if (done.status !== "SENT")
    throw new UpstreamError(done.error ?? "The mail server refused the reply", {
      sentReplyId: row.id,
      smtpResponseCode: done.smtpCode ? Number(done.smtpCode) : null,
    });
  return { sent: true as const, sentReplyId: row.id, sentAt: done.sentAt!.toISOString() };
}

/** POST /replies/sent/<id>/retry: a FAILED reply (or one stuck SENDING for 10 minutes) is sent again; 202. */
export async function retryReply(ctx: Ctx, sentReplyId: string) {
  requireAccess(ctx, "write");
  const now = ctx.clock.now();
  const [row] = await ctx.db
    .select()
    .from(sentReplies)
    .where(and(eq(sentReplies.id, sentReplyId), eq(sentReplies.workspaceId, ctx.workspaceId)));
  if (!row) throw new NotFoundError("Sent reply");
  if (shownStatus(row, now) !== "FAILED")
    throw new ConflictError(`Only a failed reply can be retried; this one is ${shownStatus(row, now)}`);
  await ctx.db
    .update(sentReplies)
    .set({ status: "SENDING", error: null, smtpCode: null, queuedAt: now, leasedUntil: null, background: true })
    .where(eq(sentReplies.id, row.id));
  return { queued: true, status: "SENDING" as const, sentReplyId: row.id };
}

/** Sends queued background replies; never resends one that failed. */
export async function sendQueuedReplies(db: DbOrTx, clock: Clock): Promise<{ sent: number; failed: number }> {
  const now = clock.now();
  const fresh = new Date(now.getTime() - STALE_SENDING_MS).toISOString();
  const claimed = await selectRows<{ id: string }>(
    db,
    sql`
    update sent_replies set leased_until = ${new Date(now.getTime() + 120_000).toISOString()}::timestamptz
    where id in (select id from sent_replies where status = 'SENDING' and queued_at > ${fresh}::timestamptz
                 and (leased_until is null or leased_until < ${now.toISOString()}::timestamptz)
                 order by queued_at limit 50 for update skip locked)
    returning id`,
  );
  if (claimed.length === 0) return { sent: 0, failed: 0 };
  const rows = await db
    .select({ s: sentReplies, m: mailboxes })
    .from(sentReplies)
    .innerJoin(mailboxes, eq(mailboxes.id, sentReplies.mailboxId))
    .where(
      inArray(
        sentReplies.id,
        claimed.map((c) => c.id),
      ),
    );
  let sent = 0;
  let failed = 0;
  for (const { s, m } of rows) {
    const d = await deliver(db, clock, s, m);
    if (d.status === "SENT") sent++;
    else failed++;
  }
  return { sent, failed };
}

/**
 * POST /replies/<id>/forward: the original message (text, HTML and files) to another address, from the
 * conversation's mailbox, as "Fwd: …" with the original's headers quoted above it.
 */
export async function forwardReply(ctx: Ctx, replyId: string, input: { to: z.infer<typeof addressInput>; body?: string }) {
  requireAccess(ctx, "write");
  const [found] = await ctx.db
    .select({ r: replies, m: mailboxes })
    .from(replies)
    .innerJoin(mailboxes, eq(mailboxes.id, replies.mailboxId))
    .where(and(eq(replies.id, replyId), eq(replies.workspaceId, ctx.workspaceId)));
  if (!found) throw new NotFoundError("Reply");
  const { r, m } = found;
  const [to] = canonical([input.to], "to");
  const attached = await ctx.db
    .select({ filename: messageFiles.filename, contentType: messageFiles.contentType, data: files.data })
    .from(messageFiles)
    .innerJoin(files, eq(files.id, messageFiles.fileId))
    .where(eq(messageFiles.replyId, r.id));
  const from = r.from ? `${r.from.name ? `${r.from.name} ` : ""}<${r.from.address}>` : "unknown";
  const header = `---------- Forwarded message ---------\nFrom: ${from}\nDate: ${r.receivedAt.toUTCString()}\nSubject: ${r.subject}\n\n`;
  const text = `${input.body ? `${input.body}\n\n` : ""}${header}${r.textBody}`;
  const messageId = newMessageId(m.email);
  try {
    await sendPooledAs(ctx, m, {
      from: m.senderName ? { name: m.senderName, address: m.email } : m.email,
      to: to.name ? { name: to.name, address: to.address } : to.address,
      envelope: { from: m.email, to: [to.address] },
      subject: /^fwd?:/i.test(r.subject) ? r.subject : `Fwd: ${r.subject}`,
      text,
      html: r.htmlBody ? `${input.body ? `<p>${escapeText(input.body)}</p>` : ""}<pre>${escapeText(header)}</pre>${r.htmlBody}` : undefined,
      messageId,
      attachments: attached.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.data })),
    });
  } catch (e) {
    const err = classifySmtpError(e);
    throw new UpstreamError(err.message, { smtpResponseCode: err.responseCode ?? null });
  }
  return { forwarded: true, to: to.address, messageId, sentAt: ctx.clock.now().toISOString() };
}

/** Text into HTML: the three characters that would change its meaning there. */
function escapeText(text: string): string {
  return text.replace(/[<>&]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;" })[c]!);
}
