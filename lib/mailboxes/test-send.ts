import { requireAccess, type Ctx } from "../ctx";
import { NotFoundError, UpstreamError } from "../errors";
import { SmtpError } from "../mail/smtp";
import { sendSmtpAs } from "./credentials";
import { findMailbox } from "./view";

/**
 * POST /mailboxes/<id>/test-send: a real email through the mailbox's SMTP server. A failure answers
 * 502 with the server's reply in `error` and its code in `smtpResponseCode`.
 * Not recorded as a send: it is no history and counts for no cap.
 */
export async function testSendMailbox(ctx: Ctx, id: string, input: { to: string; subject?: string; body?: string }) {
  requireAccess(ctx, "write");
  const m = await findMailbox(ctx.db, ctx.workspaceId, id);
  if (!m) throw new NotFoundError("Mailbox");
  const subject = input.subject?.trim() || `Test email from ${m.email}`;
  const text = input.body ?? `This is a test email sent by Outreach from ${m.email} to check that the mailbox can send.`;
  try {
    const info = await sendSmtpAs(ctx, m, { from: { name: m.senderName, address: m.email }, to: input.to, subject, text });
    return { sent: true, messageId: info.messageId, response: info.response, sentAt: ctx.clock.now().toISOString() };
  } catch (e) {
    if (e instanceof SmtpError) {
      throw new UpstreamError(e.message, { smtpResponseCode: e.responseCode ?? null });
    }
    throw e;
  }
}
