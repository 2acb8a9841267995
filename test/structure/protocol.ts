import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The mail-protocol edge: only lib/mail talks to the IMAP library (imapflow) or builds SMTP transports
 * (nodemailer); inbox, warmup, placement and the rest call lib/mail's functions and use its types.
 * Tests and their protocol peers may use the libraries directly (they play the other side).
 */
const root = path.resolve(import.meta.dirname, "..", "..");

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (/\.(tsx?|mjs)$/.test(name) && !/\.test\.tsx?$|\.d\.ts$/.test(name)) out.push(p);
  }
  return out;
}

const files = ["lib", "app", "components", "inngest"]
  .flatMap((d) => sources(path.join(root, d)))
  .map((p) => ({ rel: path.relative(root, p).split(path.sep).join("/"), text: readFileSync(p, "utf8") }))
  .filter((f) => !f.rel.startsWith("lib/mail/"));

const importsOf = (text: string, lib: string) => new RegExp(`(from|import\\(|require\\()\\s*["']${lib}(/[^"']*)?["']`).test(text);

/** A call of an IMAP client's command method on a receiver named like one (client, imap, e.client, imapClient…). */
const IMAP_METHODS =
  "search|fetch|fetchOne|fetchAll|download|downloadMany|messageMove|messageCopy|messageDelete|messageFlagsAdd|messageFlagsRemove|messageFlagsSet|" +
  "mailboxOpen|mailboxClose|mailboxCreate|mailboxDelete|mailboxRename|mailboxSubscribe|getMailboxLock|getQuota|append|list|listTree|status|idle|noop|" +
  "logout|close|connect";
const imapCall = new RegExp(`\\b\\w*(client|Client|imap|Imap)\\??\\.(${IMAP_METHODS})\\(`, "g");

describe("the mail-protocol edge", () => {
  it("leaves imapflow to lib/mail (type imports too)", () => {
    expect(files.filter((f) => importsOf(f.text, "imapflow")).map((f) => f.rel)).toEqual([]);
  });

  it("leaves IMAP commands to lib/mail's functions: no client.search/fetch/messageMove/mailboxOpen/getMailboxLock/append… outside it", () => {
    const offenders = files.flatMap((f) => [...f.text.matchAll(imapCall)].map((m) => `${f.rel}: ${m[0]}`));
    expect(offenders).toEqual([]);
  });

  it("the IMAP-command rule sees a direct call (the pattern is not blind)", () => {
    const seen = (line: string) => [...line.matchAll(imapCall)].length;
    for (const line of [
      "await client.mailboxOpen(path)",
      "e.client.close()",
      "for await (const m of client.fetch(range, q))",
      "imap?.append(p, raw)",
    ])
      expect(seen(line), line).toBe(1);
    for (const line of ["await fetch(url)", "db.select().from(t)", "server.close()"]) expect(seen(line), line).toBe(0);
  });

  it("leaves nodemailer to lib/mail: the send engine sends through lib/mail's MailSender", () => {
    expect(files.filter((f) => importsOf(f.text, "nodemailer")).map((f) => f.rel)).toEqual([]);
  });
});
