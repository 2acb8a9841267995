import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { emailEvents, emails, suppressions } from "@/db/schema";
import { ManualClock } from "@/lib/clock";
import { workspaceEvents } from "@/test/campaign-setup";
import { insertEmail, oneSentEmail } from "@/test/factories";
import * as r from "@/test/fixtures/delivery-reports";
import { PARSE_OPTIONS } from "./ingest";
import { applyDsn, parseDsn, type ReportType, reportTypeOf } from "./dsn";

/** What the inbox sync reads from a message: its type, the failed recipient, the status code, and which email. */
async function read(raw: string) {
  const report = parseDsn(await simpleParser(raw, PARSE_OPTIONS));
  if (!report) return { type: "none" as ReportType, recipient: null, status: null, original: null, isReport: false };
  return {
    type: reportTypeOf(report),
    recipient: report.recipient,
    status: report.status,
    original: report.originalMessageId,
    isReport: true,
  };
}

const ORIG = "<orig-1@sender.test>";

describe("delivery reports from real mail systems", () => {
  it.each([
    ["Gmail, no such user (folded 550-5.1.1 diagnostic)", r.gmailHard, "hard", "no.such.person@gmail.com", "5.1.1", ORIG],
    ["Gmail, mailbox full", r.mailboxFull, "soft", "full@gmail.com", "5.2.2", ORIG],
    ["Gmail, Delivery Status Notification (Delay)", r.gmailDelay, "soft", "slow@far.example", "4.4.1", ORIG],
    ["Microsoft 365 / Exchange Online, 5.1.10 RecipientNotFound", r.microsoft365, "hard", "gone@contoso.com", "5.1.10", ORIG],
    [
      "on-premises Exchange, 550 5.1.1, headers only with a folded Message-ID",
      r.exchangeOnPrem,
      "hard",
      "left.company@corp.example",
      "5.1.1",
      ORIG,
    ],
    ["Postfix, refused by the local delivery agent", r.postfixHard, "hard", "nobody@lead.test", "5.1.1", ORIG],
    ["Postfix, Delayed Mail (still being retried)", r.postfixDelay, "soft", "who@slow.test", "4.4.1", ORIG],
    ["Yahoo's plain-text Failure Notice (554, no enhanced code)", r.yahoo, "hard", "nobody.here@yahoo.com", "554", ORIG],
    [
      "ARF abuse report, original attached",
      r.arfComplaint({ rcpt: "annoyed@isp.example", messageId: ORIG }),
      "complaint",
      "annoyed@isp.example",
      null,
      ORIG,
    ],
    [
      "ARF abuse report, original shown inline",
      r.arfComplaint({ rcpt: "annoyed@isp.example", inline: true }),
      "complaint",
      "annoyed@isp.example",
      null,
      null,
    ],
    ["ARF not-spam report", r.arfComplaint({ rcpt: "fan@isp.example", feedbackType: "not-spam" }), "none", "fan@isp.example", null, null],
  ] as const)("%s", async (_name, raw, type, recipient, status, original) => {
    expect(await read(raw)).toMatchObject({ type, recipient, status, original, isReport: true });
  });

  it("an automatic reply that only looks like a bounce is no report (it stays a reply)", async () => {
    expect(await read(r.autoReplyLookalike)).toMatchObject({ type: "none", isReport: false });
  });

  it("a delivered notice is a report but no bounce", async () => {
    const delivered = r.postfixHard.replace("Action: failed\nStatus: 5.1.1", "Action: delivered\nStatus: 2.0.0");
    expect(await read(delivered)).toMatchObject({ type: "none", recipient: "nobody@lead.test", status: "2.0.0", isReport: true });
  });

  it("keeps the server's answer once however many lines it took (Gmail's 550-5.1.1 continuation lines)", async () => {
    const report = parseDsn(await simpleParser(r.gmailHard, PARSE_OPTIONS));
    expect(report?.diagnostic).toBe(
      "550 5.1.1 The email account that you tried to reach does not exist. Please try double-checking the recipient's email address for typos or " +
        "unnecessary spaces. For more information, go to https://support.google.com/mail/?p=NoSuchUser a1si123456wrb.76 - gsmtp",
    );
  });

  it("with several recipients, the failed one is the one reported", async () => {
    const two = r.postfixHard.replace(
      "Final-Recipient: rfc822; nobody@lead.test",
      "Final-Recipient: rfc822; fine@lead.test\nAction: delivered\nStatus: 2.0.0\n\nFinal-Recipient: rfc822; nobody@lead.test",
    );
    expect(await read(two)).toMatchObject({ type: "hard", recipient: "nobody@lead.test", status: "5.1.1" });
  });
});

describe("what a report does to the email it is about", () => {
  const clock = new ManualClock(new Date("2026-12-01T10:00:00Z"));
  const report = async (raw: string) => parseDsn(await simpleParser(raw, PARSE_OPTIONS))!;
  const suppressed = async (workspaceId: string) =>
    (await getDb().select().from(suppressions).where(eq(suppressions.workspaceId, workspaceId))).map((x) => [x.value, x.reason]);

  it("a delay warning, then the failure: soft, then hard (suppressed); the same failure again changes nothing", async () => {
    const { ws, mbx, id } = await oneSentEmail();
    await getDb().update(emails).set({ messageId: ORIG, leadEmail: "who@slow.test" }).where(eq(emails.id, id));
    expect(await applyDsn(getDb(), clock, mbx.id, await report(r.postfixDelay))).toBe(true);
    expect((await getDb().select().from(emails).where(eq(emails.id, id)))[0]).toMatchObject({
      status: "BOUNCED",
      bounceType: "SOFT",
      smtpCode: "4.4.1",
    });
    expect(await suppressed(ws.workspaceId)).toEqual([]);
    clock.advance(60_000); // the failure comes later
    const failed = (await report(r.postfixHard.replace(/nobody@lead\.test/g, "who@slow.test")))!;
    expect(await applyDsn(getDb(), clock, mbx.id, failed)).toBe(true);
    expect((await getDb().select().from(emails).where(eq(emails.id, id)))[0]).toMatchObject({ bounceType: "HARD", smtpCode: "5.1.1" });
    expect(await suppressed(ws.workspaceId)).toEqual([["who@slow.test", "hard_bounce"]]);
    expect(await applyDsn(getDb(), clock, mbx.id, failed)).toBe(false);
    expect(await applyDsn(getDb(), clock, mbx.id, await report(r.postfixDelay))).toBe(false); // hard stays hard
    const events = await workspaceEvents(ws.workspaceId, "email.bounced");
    expect(events.map((e) => e.data.bounceType)).toEqual(["SOFT", "HARD"]);
  });

  it("an ARF report without the original's Message-ID is matched by the complainer's address", async () => {
    const { ws, mbx } = await oneSentEmail();
    const older = await insertEmail(ws.workspaceId, mbx.id, {
      leadEmail: "annoyed@isp.example",
      createdAt: new Date("2026-11-01T00:00:00Z"),
    });
    const latest = await insertEmail(ws.workspaceId, mbx.id, {
      leadEmail: "annoyed@isp.example",
      createdAt: new Date("2026-11-20T00:00:00Z"),
    });
    const arf = await report(r.arfComplaint({ rcpt: "annoyed@isp.example", inline: true }));
    expect(await applyDsn(getDb(), clock, mbx.id, arf)).toBe(false); // no bounce
    expect(await suppressed(ws.workspaceId)).toEqual([["annoyed@isp.example", "complaint"]]);
    const [ev] = await workspaceEvents(ws.workspaceId, "lead.unsubscribed");
    expect(ev.data).toMatchObject({ leadEmail: "annoyed@isp.example", source: "complaint" });
    const unsub = await getDb().select().from(emailEvents).where(eq(emailEvents.kind, "UNSUBSCRIBE"));
    expect(unsub.filter((x) => x.emailId === latest || x.emailId === older).map((x) => x.emailId)).toEqual([latest]); // the latest email
    const rows = await getDb()
      .select()
      .from(emails)
      .where(and(eq(emails.mailboxId, mbx.id), eq(emails.leadEmail, "annoyed@isp.example")));
    expect(rows.map((e) => e.status)).toEqual(["SENT", "SENT"]); // a complaint is no bounce
    await applyDsn(getDb(), clock, mbx.id, arf); // a second report: nothing more
    expect(await workspaceEvents(ws.workspaceId, "lead.unsubscribed")).toHaveLength(1);
  });

  it("a report about a message this mailbox did not send changes nothing", async () => {
    const { ws, mbx } = await oneSentEmail();
    const other = await report(r.gmailHard.replace(ORIG, "<someone-else@sender.test>"));
    expect(await applyDsn(getDb(), clock, mbx.id, other)).toBe(false);
    expect(await suppressed(ws.workspaceId)).toEqual([]);
  });
});
