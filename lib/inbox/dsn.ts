import { systemCtx } from "../ctx";
import { and, eq, inArray } from "drizzle-orm";
import type { ParsedMail } from "mailparser";
import type { DbOrTx } from "../../db/client";
import { campaignLeads, emails, mailboxes } from "../../db/schema";
import type { Clock } from "../clock";
import { emitEvent } from "../events/emit";
import { classifySendError } from "../sending/bounce";
import { checkBounceSpike } from "../sending/engine";
import { addSuppressions } from "../suppressions/suppressions";

export interface DsnReport {
  originalMessageId: string | null;
  recipient: string | null;
  status: string | null;
  diagnostic: string | null;
}

/** Reads a delivery status notification (RFC 3464: multipart/report; report-type=delivery-status). */
export function parseDsn(m: ParsedMail): DsnReport | undefined {
  const ct = String((m.headers.get("content-type") as { value?: string; params?: Record<string, string> } | undefined)?.value ?? "");
  const params = (m.headers.get("content-type") as { params?: Record<string, string> } | undefined)?.params ?? {};
  const isReport = ct.toLowerCase() === "multipart/report" && (params["report-type"] ?? "").toLowerCase() === "delivery-status";
  const statusPart = m.attachments.find((a) => /message\/(global-)?delivery-status/i.test(a.contentType));
  if (!isReport && !statusPart) return undefined;
  const status = statusPart?.content.toString("utf8") ?? m.text ?? "";
  const field = (name: string) => new RegExp(`^${name}:\\s*(.+)$`, "im").exec(status)?.[1]?.trim() ?? null;
  const original = m.attachments.find((a) => /message\/rfc822|text\/rfc822-headers|message\/global-headers/i.test(a.contentType));
  const originalText = original?.content.toString("utf8") ?? "";
  const originalMessageId = /^Message-ID:\s*(<[^>]+>)/im.exec(originalText)?.[1] ?? null;
  return {
    originalMessageId,
    recipient:
      field("Final-Recipient")
        ?.replace(/^rfc822;\s*/i, "")
        .toLowerCase() ?? null,
    status: field("Status"),
    diagnostic: field("Diagnostic-Code")?.replace(/^smtp;\s*/i, "") ?? null,
  };
}

/**
 * A bounce report for one of our campaign emails: the email becomes BOUNCED (hard or soft from the
 * status code, with code and reason), a hard bounce suppresses the address and stops its sequences,
 * email.bounced fires, and the mailbox's bounce rate is checked (auto-pause).
 */
export async function applyDsn(db: DbOrTx, clock: Clock, mailboxId: string, r: DsnReport): Promise<boolean> {
  if (!r.originalMessageId || !r.status) return false;
  const now = clock.now();
  return db.transaction(async (tx) => {
    const [e] = await tx
      .select()
      .from(emails)
      .where(and(eq(emails.mailboxId, mailboxId), eq(emails.messageId, r.originalMessageId!)));
    if (!e || e.status === "BOUNCED") return false;
    const outcome = classifySendError(undefined, `${r.status} ${r.diagnostic ?? ""}`);
    if (outcome.kind !== "bounce") return false; // a delayed-delivery notice (4.x.x) is not a bounce
    await tx
      .update(emails)
      .set({ status: "BOUNCED", bounceType: outcome.bounceType, smtpCode: r.status, smtpResponse: r.diagnostic })
      .where(eq(emails.id, e.id));
    await emitEvent(tx, e.workspaceId, "email.bounced", { sendEventId: e.id, leadEmail: e.leadEmail, bounceType: outcome.bounceType }, now);
    if (outcome.bounceType === "HARD") {
      await addSuppressions(systemCtx(e.workspaceId, { db: tx, clock }), { emails: [e.leadEmail] }, "hard_bounce");
      if (e.leadId)
        await tx
          .update(campaignLeads)
          .set({ status: "BOUNCED", nextSendAt: null })
          .where(and(eq(campaignLeads.leadId, e.leadId), inArray(campaignLeads.status, ["ACTIVE"])));
    }
    const [m] = await tx.select().from(mailboxes).where(eq(mailboxes.id, mailboxId));
    if (m) await checkBounceSpike(tx, m, now);
    return true;
  });
}
