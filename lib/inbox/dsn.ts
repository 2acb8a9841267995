import { systemCtx } from "../ctx";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { campaignLeads, emails, mailboxes } from "../../db/schema";
import type { Clock } from "../clock";
import { emitEvent } from "../events/emit";
import type { ParsedMail } from "mailparser";
import { classifySendError } from "../sending/bounce";
import { checkBounceSpike } from "../sending/engine";
import { addSuppressions } from "../suppressions/suppressions";
import { unsubscribeLeadOf } from "../sending/track";

/**
 * A report a mail system sent back about one of our messages: a delivery status notification
 * (RFC 3464, `delivery`) or a complaint in the Abuse Reporting Format (RFC 5965, `feedback`).
 */
export interface DsnReport {
  kind: "delivery" | "feedback";
  /** The Message-ID of the message reported on, from the attached original or its headers. */
  originalMessageId: string | null;
  /** The address it could not be delivered to (or whose owner complained), lower-cased. */
  recipient: string | null;
  /** The RFC 3463 status ("5.1.1", "4.4.1"), else the SMTP reply code the report quotes ("554"). */
  status: string | null;
  diagnostic: string | null;
  /** The recipient's Action (failed, delayed, delivered, relayed, expanded); null when the report gives none. */
  action: string | null;
  /** An ARF report's Feedback-Type (abuse, fraud, not-spam …). */
  feedbackType?: string | null;
}

/** What a report means: hard and soft bounces, a complaint, or nothing (a delivered or relayed notice). */
export type ReportType = "hard" | "soft" | "complaint" | "none";

type Fields = Map<string, string>;

/** Header-style fields of RFC 3464/5965 blocks: folded lines unfolded, blocks split at blank lines. */
function blocksOf(text: string): Fields[] {
  const unfolded = text.replace(/\r\n/g, "\n").replace(/\n[ \t]+/g, " ");
  return unfolded.split(/\n\s*\n/).map((block) => {
    const f: Fields = new Map();
    for (const line of block.split("\n")) {
      const m = /^([A-Za-z][A-Za-z0-9-]*):\s*(.*)$/.exec(line);
      if (m && !f.has(m[1].toLowerCase())) f.set(m[1].toLowerCase(), m[2].trim());
    }
    return f;
  });
}

const contentTypeOf = (m: ParsedMail) => m.headers.get("content-type") as { value?: string; params?: Record<string, string> } | undefined;
const addressOf = (v: string | undefined): string | null =>
  v
    ?.replace(/^rfc822;\s*/i, "")
    .replace(/^<|>$/g, "")
    .trim()
    .toLowerCase() || null;
/**
 * "smtp; 550 …", "X-Postfix; connect to …": the text without its type. A multi-line SMTP answer
 * ("550-5.1.1 … 550-5.1.1 … 550 5.1.1 …", as Gmail quotes it) keeps its code once.
 */
function diagnosticOf(v: string | undefined): string | null {
  if (!v) return null;
  const d = v.replace(/^[A-Za-z][\w-]*;\s*/, "").trim();
  const first = /^(\d{3})[- ](\d\.\d{1,3}\.\d{1,3})\s+/.exec(d);
  if (!first) return d || null;
  const rest = d.slice(first[0].length).replace(new RegExp(`\\s+${first[1]}[- ]${first[2].replace(/\./g, "\\.")}\\s+`, "g"), " ");
  return `${first[1]} ${first[2]} ${rest}`.trim();
}
const ENHANCED = /\b[245]\.\d{1,3}\.\d{1,3}\b/;
const REPLY_CODE = /(?:^|[\s(:])([45]\d\d)(?=[\s\-:])/;

/** The Message-ID of the original, from an attached message or header block, else from the text. */
function originalIdOf(m: ParsedMail): string | null {
  const parts = m.attachments.filter((a) => /message\/(rfc822|global)|text\/rfc822-headers|message\/global-headers/i.test(a.contentType));
  for (const p of parts) {
    const id = /^Message-ID:\s*(<[^>\s]+>)/im.exec(p.content.toString("utf8"))?.[1];
    if (id) return id;
  }
  return /^Message-ID:\s*(<[^>\s]+>)/im.exec(m.text ?? "")?.[1] ?? null;
}

/** The status part's text: the attachment (kept by some parsers), else the message text where it is rendered. */
function statusTextOf(m: ParsedMail): string {
  const part = m.attachments.find((a) => /message\/(global-)?delivery-status/i.test(a.contentType));
  if (part) return part.content.toString("utf8");
  const text = m.text ?? "";
  const at = text.search(/^(Reporting-MTA|Original-Envelope-Id|Arrival-Date|Final-Recipient|Original-Recipient):/im);
  return at >= 0 ? text.slice(at) : "";
}

/** An RFC 3464 report: the first failed recipient, else the first delayed one, else the first named. */
function deliveryReport(m: ParsedMail): DsnReport | undefined {
  const recipients = blocksOf(statusTextOf(m)).filter((b) => b.has("final-recipient") || b.has("original-recipient"));
  const pick =
    recipients.find((b) => /^failed/i.test(b.get("action") ?? "")) ??
    recipients.find((b) => /^delayed/i.test(b.get("action") ?? "")) ??
    recipients[0];
  if (!pick) return undefined;
  const diagnostic = diagnosticOf(pick.get("diagnostic-code"));
  const failedHeader = m.headers.get("x-failed-recipients");
  return {
    kind: "delivery",
    originalMessageId: originalIdOf(m),
    recipient: addressOf(pick.get("final-recipient")) ?? addressOf(pick.get("original-recipient")) ?? addressOf(String(failedHeader ?? "")),
    status: pick.get("status")?.match(ENHANCED)?.[0] ?? diagnostic?.match(ENHANCED)?.[0] ?? diagnostic?.match(REPLY_CODE)?.[1] ?? null,
    diagnostic,
    action: pick.get("action")?.toLowerCase().split(/\s/)[0] ?? null,
  };
}

/** A delivery report naming no recipient: still a report (never a reply), about nothing it can say. */
function unreadable(m: ParsedMail): DsnReport {
  return { kind: "delivery", originalMessageId: originalIdOf(m), recipient: null, status: null, diagnostic: null, action: null };
}

/** An ARF complaint (a feedback loop): who complained about which message. */
function feedbackReport(m: ParsedMail): DsnReport {
  const part = m.attachments.find((a) => /message\/feedback-report/i.test(a.contentType));
  const f = blocksOf(part?.content.toString("utf8") ?? m.text ?? "")[0] ?? new Map<string, string>();
  const original = m.attachments.find((a) => /message\/rfc822|text\/rfc822-headers/i.test(a.contentType))?.content.toString("utf8") ?? "";
  const originalTo = /^To:\s*(?:.*<)?([^\s<>,]+@[^\s<>,]+)/im.exec(original)?.[1];
  return {
    kind: "feedback",
    originalMessageId: originalIdOf(m),
    recipient: addressOf(f.get("original-rcpt-to")) ?? addressOf(originalTo),
    status: null,
    diagnostic: null,
    action: null,
    feedbackType: f.get("feedback-type")?.toLowerCase() ?? null,
  };
}

const DAEMON_FROM = /^(mailer-daemon|mail-daemon|postmaster|mailerdaemon)@/i;
const BOUNCE_SUBJECT =
  /failure notice|undeliver|returned mail|delivery (status notification|failure|has failed|failed)|mail delivery (failed|failure)|could not be delivered|delivery notification/i;

/**
 * A bounce without a delivery-status part (qmail's and Yahoo's "Failure Notice", older systems): only
 * from a mailer daemon or postmaster, with a bounce's subject, naming the recipient as `<address>:`
 * followed by the server's answer. An automatic reply from a person is never one.
 */
function plainTextBounce(m: ParsedMail): DsnReport | undefined {
  const from = m.from?.value[0]?.address ?? "";
  if (!DAEMON_FROM.test(from) || !BOUNCE_SUBJECT.test(m.subject ?? "")) return undefined;
  const text = (m.text ?? "").replace(/\r\n/g, "\n");
  const hit = /^<([^\s<>]+@[^\s<>]+)>:\s*\n?([\s\S]*?)(?:\n\s*\n|$)/m.exec(text);
  const header = m.headers.get("x-failed-recipients");
  const recipient = addressOf(hit?.[1] ?? (header ? String(header).split(",")[0] : undefined));
  if (!recipient) return undefined;
  const diagnostic = hit?.[2]?.replace(/\s+/g, " ").trim() || null;
  return {
    kind: "delivery",
    originalMessageId: originalIdOf(m),
    recipient,
    status: diagnostic?.match(ENHANCED)?.[0] ?? diagnostic?.match(/^([45]\d\d)\b/)?.[1] ?? diagnostic?.match(REPLY_CODE)?.[1] ?? null,
    diagnostic,
    action: "failed",
  };
}

/**
 * Reads a report about one of our messages: a delivery status notification (multipart/report;
 * report-type=delivery-status, or a message/delivery-status part — Gmail, Microsoft 365, Exchange,
 * Postfix …), a plain-text bounce from a mailer daemon (plainTextBounce), or an ARF complaint
 * (report-type=feedback-report). Undefined for anything else, including automatic replies.
 */
export function parseDsn(m: ParsedMail): DsnReport | undefined {
  const ct = contentTypeOf(m);
  const reportType = (ct?.params?.["report-type"] ?? "").toLowerCase();
  const isReport = String(ct?.value ?? "").toLowerCase() === "multipart/report";
  const hasFeedback = m.attachments.some((a) => /message\/feedback-report/i.test(a.contentType));
  if ((isReport && reportType === "feedback-report") || hasFeedback) return feedbackReport(m);
  const hasStatus = m.attachments.some((a) => /message\/(global-)?delivery-status/i.test(a.contentType));
  if ((isReport && reportType === "delivery-status") || hasStatus) return deliveryReport(m) ?? plainTextBounce(m) ?? unreadable(m);
  return plainTextBounce(m);
}

/** Texts that say the address does not exist, for reports that give no enhanced status code. */
const NO_SUCH_USER = new RegExp(
  [
    "user unknown|unknown user|no such (user|mailbox|recipient|address)|does(n't| not) exist|doesn't have an? [\\w.-]+ account",
    "mailbox (not found|unavailable)|recipient not found|invalid (recipient|mailbox)|address rejected",
  ].join("|"),
  "i",
);

/**
 * Hard or soft: a delayed notice, and a failure with a transient (4.x.x) status, are soft bounces (the
 * message did not arrive, the address may be fine); a permanent status is classified as at send time
 * (classifySendError: 5.1.x hard, mailbox full, too large and policy soft); without an enhanced code,
 * a text saying the address does not exist is hard. Delivered, relayed and expanded notices are none.
 * An ARF report is a complaint, unless its Feedback-Type is not-spam.
 */
export function reportTypeOf(r: DsnReport): ReportType {
  if (r.kind === "feedback") return r.feedbackType === "not-spam" ? "none" : "complaint";
  if (r.action && !/^(failed|delayed)$/.test(r.action)) return "none";
  if (r.action === "delayed") return "soft";
  const code = r.status ?? "";
  const text = `${code} ${r.diagnostic ?? ""}`;
  if (/^4/.test(code)) return "soft";
  if (!ENHANCED.test(text) && NO_SUCH_USER.test(text)) return "hard";
  const outcome = classifySendError(/^\d{3}$/.test(code) ? Number(code) : undefined, text);
  if (outcome.kind === "bounce") return outcome.bounceType === "HARD" ? "hard" : "soft";
  return code || r.diagnostic ? "soft" : "none";
}

type EmailRow = typeof emails.$inferSelect;

/**
 * The campaign email a report is about: by the original's Message-ID (sent from this mailbox); when the
 * report carries none (an ARF report whose original was shown inline, a plain-text bounce that quotes
 * no headers), the latest email this mailbox sent to the reported address.
 */
async function reportedEmail(tx: DbOrTx, mailboxId: string, r: DsnReport): Promise<EmailRow | undefined> {
  if (r.originalMessageId) {
    const [e] = await tx
      .select()
      .from(emails)
      .where(and(eq(emails.mailboxId, mailboxId), eq(emails.messageId, r.originalMessageId)));
    return e;
  }
  if (!r.recipient) return undefined;
  const [e] = await tx
    .select()
    .from(emails)
    .where(
      and(eq(emails.mailboxId, mailboxId), sql`lower(${emails.leadEmail}) = ${r.recipient}`, inArray(emails.status, ["SENT", "BOUNCED"])),
    )
    .orderBy(desc(emails.createdAt))
    .limit(1);
  return e;
}

/**
 * A complaint (an ARF feedback report: the recipient marked the email as spam) is handled as an
 * unsubscribe, the least a complaint must mean: the address is suppressed (reason `complaint`), its
 * sequences stop (UNSUBSCRIBED), the email records an UNSUBSCRIBE event and lead.unsubscribed fires
 * with source `complaint`. Idempotent: a second report for the same address changes nothing.
 */
function applyComplaint(tx: DbOrTx, clock: Clock, e: EmailRow): Promise<void> {
  return unsubscribeLeadOf(tx, clock, e, "complaint", "complaint");
}

/**
 * A report about one of our campaign emails (see reportTypeOf for what it means). A bounce: the email
 * becomes BOUNCED (HARD or SOFT, with the status code and the server's reason), email.bounced fires, a
 * hard bounce suppresses the address and stops its sequences, and the mailbox's bounce rate is checked
 * (auto-pause). An email already BOUNCED stays as it is, unless a hard bounce follows a soft one: it
 * then becomes HARD, with all a hard bounce does. A complaint: applyComplaint. Returns whether a
 * bounce was recorded.
 */
export async function applyDsn(db: DbOrTx, clock: Clock, mailboxId: string, r: DsnReport): Promise<boolean> {
  const type = reportTypeOf(r);
  if (type === "none") return false;
  const now = clock.now();
  return db.transaction(async (tx) => {
    const e = await reportedEmail(tx, mailboxId, r);
    if (!e) return false;
    if (type === "complaint") {
      await applyComplaint(tx, clock, e);
      return false;
    }
    const bounceType = type === "hard" ? "HARD" : "SOFT";
    // Reported once already: only a hard bounce after a soft one (a delay, then the failure) changes it.
    if (e.status === "BOUNCED" && !(e.bounceType === "SOFT" && bounceType === "HARD")) return false;
    await tx
      .update(emails)
      .set({ status: "BOUNCED", bounceType, smtpCode: r.status, smtpResponse: r.diagnostic })
      .where(eq(emails.id, e.id));
    await emitEvent(tx, e.workspaceId, "email.bounced", { sendEventId: e.id, leadEmail: e.leadEmail, bounceType }, now);
    if (bounceType === "HARD") {
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
