import { describe, expect, it } from "vitest";
import { guessMailboxMapping, mailboxMappingProblems, rowToMailbox } from "./csv-mapping";

describe("mailbox CSV mapping", () => {
  const headers = [
    "Email Address",
    "From Name",
    "SMTP Server",
    "SMTP Port",
    "SMTP Encryption",
    "Password",
    "IMAP Server",
    "IMAP Port",
    "Daily Limit",
    "Notes",
  ];

  it("guesses the import fields from common headers and leaves the rest out", () => {
    const mapping = guessMailboxMapping(headers);
    expect(mapping).toEqual([
      "email",
      "senderName",
      "smtpHost",
      "smtpPort",
      "smtpSecurity",
      "smtpPassword",
      "imapHost",
      "imapPort",
      "dailySendCap",
      "ignore",
    ]);
    expect(mailboxMappingProblems(mapping)).toEqual([]);
  });

  it("names every required field that no column fills, and fields filled twice", () => {
    const problems = mailboxMappingProblems(["email", "email", "smtpHost"]);
    expect(problems).toContain("Email is mapped from more than one column.");
    expect(problems).toContain("Map a column to SMTP port: every mailbox needs it.");
    expect(problems).toContain("Map a column to IMAP host: every mailbox needs it.");
  });

  it("turns a row into an import item: numbers, security spellings, trimmed cells, blanks left out", () => {
    const mapping = guessMailboxMapping(headers);
    const row = {
      "Email Address": " ann@example.com ",
      "From Name": "",
      "SMTP Server": "smtp.example.com",
      "SMTP Port": "465",
      "SMTP Encryption": "SSL/TLS",
      Password: " secret ",
      "IMAP Server": "imap.example.com",
      "IMAP Port": "993",
      "Daily Limit": "30",
      Notes: "ignored",
    };
    expect(rowToMailbox(row, headers, mapping)).toEqual({
      ok: true,
      item: {
        email: "ann@example.com",
        smtpHost: "smtp.example.com",
        smtpPort: 465,
        smtpSecurity: "SSL",
        smtpPassword: "secret",
        imapHost: "imap.example.com",
        imapPort: 993,
        dailySendCap: 30,
      },
    });
  });

  it("reports a bad row on its own instead of sending it", () => {
    const mapping = guessMailboxMapping(headers);
    const bad = rowToMailbox({ "Email Address": "bob@example.com", "SMTP Port": "abc", "SMTP Encryption": "maybe" }, headers, mapping);
    expect(bad).toEqual({ ok: false, email: "bob@example.com", error: expect.stringContaining('SMTP Port: "abc" is not a whole number') });
    expect(bad.ok === false && bad.error).toContain('"maybe" is not SSL, STARTTLS or NONE');

    const missing = rowToMailbox({ "Email Address": "bob@example.com", "SMTP Port": "25", "IMAP Port": "143" }, headers, mapping);
    expect(missing.ok).toBe(false);
    expect(missing.ok === false && missing.error).toMatch(/SMTP host: /);
  });
});
