import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";
import * as r from "@/test/fixtures/delivery-reports";
import { PARSE_OPTIONS } from "./ingest";
import { parseDsn, type ReportType, reportTypeOf } from "./dsn";

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
