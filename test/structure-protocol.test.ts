import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The mail-protocol edge: only lib/mail talks to the IMAP library (imapflow) or builds SMTP transports
 * (nodemailer); inbox, warmup, placement and the rest call lib/mail's functions and use its types.
 * Tests and their protocol peers may use the libraries directly (they play the other side).
 */
const root = path.resolve(import.meta.dirname, "..");

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

describe("the mail-protocol edge", () => {
  it("leaves imapflow to lib/mail (type imports too)", () => {
    expect(files.filter((f) => importsOf(f.text, "imapflow")).map((f) => f.rel)).toEqual([]);
  });

  it("leaves nodemailer to lib/mail: the send engine sends through lib/mail's MailSender", () => {
    expect(files.filter((f) => importsOf(f.text, "nodemailer")).map((f) => f.rel)).toEqual([]);
  });
});
