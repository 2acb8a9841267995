import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { simpleParser } from "mailparser";
import nodemailer from "nodemailer";
import { getDb } from "@/db/client";
import { campaignLeads, emails, mailboxes, suppressions } from "@/db/schema";
import { GET as STATS } from "@/app/api/v1/campaigns/[id]/stats/route";
import { systemCtx } from "@/lib/ctx";
import { ManualClock, systemClock, useClock } from "@/lib/clock";
import { sendDue } from "@/lib/sending/engine";
import { imapClient } from "@/lib/mail/imap";
import { closeAllTransports } from "@/lib/sending/transports";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { connectMailboxes, launchCampaign, workspaceEvents } from "@/test/campaign-setup";
import { localProvidersFile } from "@/test/mail-setup";
import { startDnsPeer } from "@/test/peers/dns";
import { type MailSystem, startMailSystem } from "@/test/peers/mail-system";
import { arfComplaint } from "@/test/fixtures/delivery-reports";
import { syncMailbox } from "./sync";

/**
 * Campaign email through a real mail system (Postfix and Dovecot, test/peers/mail-system.ts): the
 * bounce reports the product reads are the ones Postfix writes itself. Postfix delivers
 * asynchronously, so the test waits for its mail (bounded polls); the product's time is the manual clock.
 */
const clock = new ManualClock(new Date("2026-12-01T10:00:00Z")); // a Tuesday
const MARKER = "[junk-me]";
const SAM = { email: "sam@sender.test", appPassword: "pw-sam", senderName: "Sam" };
const LEADS = [
  { email: "lea@lead.test", firstName: "Lea" }, // (a) a local user: delivered to her INBOX
  { email: "jay@lead.test", firstName: `Jay ${MARKER}` }, // a local user whose subject carries the Sieve marker: Junk
  { email: "nobody@lead.test", firstName: "Nobody" }, // (b) no such user: Postfix bounces it (5.1.1)
  { email: "who@slow.test", firstName: "Who" }, // (c) relayed to a closed port: deferred, Postfix warns (4.4.1)
];
const WAIT = 90_000; // generous: a loaded 2-core machine

let ms: MailSystem;
let dns: Awaited<ReturnType<typeof startDnsPeer>>;
let ws: TestWorkspace;

beforeAll(async () => {
  ms = await startMailSystem({
    domains: ["sender.test", "lead.test"],
    users: { [SAM.email]: SAM.appPassword, "lea@lead.test": "pw-lea", "jay@lead.test": "pw-jay" },
    deferredDomains: ["slow.test"],
    junkMarker: MARKER,
  });
  dns = await startDnsPeer({});
  process.env.MAIL_PROVIDERS_FILE = localProvidersFile({ smtp: ms.smtp, imap: ms.imap }, ["sender.test"]);
  process.env.DNS_SERVERS = dns.server;
  ws = await makeWorkspace();
}, 600_000); // the first run on a machine without the packages installs them

afterAll(async () => {
  useClock(systemClock);
  closeAllTransports();
  await ms?.close();
  dns?.close();
  delete process.env.MAIL_PROVIDERS_FILE;
  delete process.env.DNS_SERVERS;
});

const subjectOf = async (raw: string) => (await simpleParser(raw)).subject ?? "";
const sync = async (mailboxId: string) => {
  const [m] = await getDb().select().from(mailboxes).where(eq(mailboxes.id, mailboxId));
  return syncMailbox(systemCtx(undefined, { db: getDb(), clock }), m);
};

/** Sends due email until every lead has one (a minute a tick), at most an hour of the manual clock. */
async function sendAll(campaignId: string): Promise<(typeof emails.$inferSelect)[]> {
  useClock(clock);
  for (let i = 0; i < 60; i++) {
    await sendDue(getDb(), clock);
    const rows = await getDb().select().from(emails).where(eq(emails.campaignId, campaignId));
    if (rows.length === LEADS.length && rows.every((r) => r.status !== "SENDING")) return rows;
    clock.advance(60_000);
  }
  throw new Error("the campaign did not send to every lead");
}

describe("campaign email through Postfix and Dovecot", () => {
  it("delivers to local users (Sieve files the marked one into Junk); Postfix's bounce is a hard bounce, its delay notice a soft one", async () => {
    const [sam] = await connectMailboxes(ws.fullKey, [SAM]);
    expect(sam.id).toEqual(expect.any(String));
    const { campaign } = await launchCampaign(ws.fullKey, {
      campaign: { name: "Real MTA", minGapMinutes: 0 },
      steps: [{ stepOrder: 0, subject: "Idea for {{firstName}}", bodyTemplate: "Hi {{firstName}}, an idea." }],
      mailboxIds: [sam.id],
      leads: LEADS,
    });
    const sent = await sendAll(campaign.id);
    expect(sent.map((e) => e.status)).toEqual(["SENT", "SENT", "SENT", "SENT"]); // Postfix accepted all four

    // (a) In Lea's INBOX; Jay's, with the marker in its subject, in his Junk.
    const lea = await ms.waitFor("lea@lead.test", "INBOX", (m) => m.raw.includes("Idea for Lea"), WAIT);
    expect(await subjectOf(lea.raw)).toBe("Idea for Lea");
    const jay = await ms.waitFor("jay@lead.test", "Junk", (m) => m.raw.includes(MARKER), WAIT);
    expect(await subjectOf(jay.raw)).toBe(`Idea for Jay ${MARKER}`);
    expect(ms.messages("jay@lead.test", "INBOX")).toEqual([]);
    // As an IMAP client sees it: Junk holds it, INBOX nothing.
    const imap = imapClient({ host: ms.imap.host, port: ms.imap.port, security: "NONE", username: "jay@lead.test", password: "pw-jay" });
    await imap.connect();
    try {
      expect(await imap.status("Junk", { messages: true })).toMatchObject({ messages: 1 });
      expect(await imap.status("INBOX", { messages: true })).toMatchObject({ messages: 0 });
    } finally {
      await imap.logout();
    }

    // (b), (c): Postfix's own reports, in Sam's INBOX.
    await ms.waitFor(SAM.email, "INBOX", (m) => /^Subject: Undelivered Mail Returned to Sender/m.test(m.raw), WAIT);
    await ms.waitFor(SAM.email, "INBOX", (m) => /^Subject: Delayed Mail \(still being retried\)/m.test(m.raw), WAIT);

    expect(await sync(sam.id)).toMatchObject({ bounces: 2 });
    const byLead = new Map((await getDb().select().from(emails).where(eq(emails.campaignId, campaign.id))).map((e) => [e.leadEmail, e]));
    expect(byLead.get("lea@lead.test")).toMatchObject({ status: "SENT", bounceType: null });
    expect(byLead.get("nobody@lead.test")).toMatchObject({ status: "BOUNCED", bounceType: "HARD", smtpCode: "5.1.1" });
    expect(byLead.get("nobody@lead.test")!.smtpResponse).toContain("User doesn't exist");
    expect(byLead.get("who@slow.test")).toMatchObject({ status: "BOUNCED", bounceType: "SOFT", smtpCode: "4.4.1" });
    expect(byLead.get("who@slow.test")!.smtpResponse).toContain("Connection refused");

    const stats = (await call(STATS, "GET", "", { key: ws.readKey, params: { id: campaign.id } })).body;
    expect(stats).toMatchObject({ sentCount: 4, bouncedCount: 2 });
    const bounced = await workspaceEvents(ws.workspaceId, "email.bounced");
    expect(bounced.map((e) => [e.data.leadEmail, e.data.bounceType]).sort()).toEqual([
      ["nobody@lead.test", "HARD"],
      ["who@slow.test", "SOFT"],
    ]);
    // Only the hard bounce is suppressed; two bounces of four sends pause the mailbox.
    const suppressed = await getDb().select().from(suppressions).where(eq(suppressions.workspaceId, ws.workspaceId));
    expect(suppressed.map((s) => [s.value, s.reason])).toEqual([["nobody@lead.test", "hard_bounce"]]);
    const [paused] = await getDb().select().from(mailboxes).where(eq(mailboxes.id, sam.id));
    expect(paused.autoPausedAt).not.toBeNull();
    expect(await workspaceEvents(ws.workspaceId, "mailbox.bounce_spike")).toHaveLength(1);

    // Read again: nothing new, nothing counted twice (Postfix may have sent a second delay notice by now).
    expect((await sync(sam.id)).bounces).toBe(0);
    expect(await workspaceEvents(ws.workspaceId, "email.bounced")).toHaveLength(2);
  }, 300_000);

  it("an ARF complaint sent through Postfix suppresses the address and counts as an unsubscribe", async () => {
    const [sam] = await getDb().select().from(mailboxes).where(eq(mailboxes.email, SAM.email));
    const [leaEmail] = await getDb()
      .select()
      .from(emails)
      .where(and(eq(emails.mailboxId, sam.id), eq(emails.leadEmail, "lea@lead.test")));
    // Lea's provider's feedback loop writes the report; it reaches Sam through Postfix like any mail.
    const lea = nodemailer.createTransport({
      host: ms.smtp.host,
      port: ms.smtp.port,
      secure: false,
      ignoreTLS: true,
      auth: { user: "lea@lead.test", pass: "pw-lea" },
    });
    const report = arfComplaint({ rcpt: "lea@lead.test", messageId: leaEmail.messageId });
    await lea.sendMail({ envelope: { from: "lea@lead.test", to: [SAM.email] }, raw: report });
    lea.close();
    await ms.waitFor(SAM.email, "INBOX", (m) => m.raw.includes("report-type=feedback-report"), WAIT);

    await sync(sam.id);
    const suppressed = await getDb()
      .select()
      .from(suppressions)
      .where(and(eq(suppressions.workspaceId, ws.workspaceId), eq(suppressions.value, "lea@lead.test")));
    expect(suppressed.map((s) => s.reason)).toEqual(["complaint"]);
    const unsubscribed = await workspaceEvents(ws.workspaceId, "lead.unsubscribed");
    expect(unsubscribed.map((e) => e.data)).toEqual([
      { replyId: null, leadId: leaEmail.leadId, leadEmail: "lea@lead.test", source: "complaint" },
    ]);
    const [cl] = await getDb().select().from(campaignLeads).where(eq(campaignLeads.leadId, leaEmail.leadId!));
    expect(cl.status).not.toBe("ACTIVE");
    const [stillSent] = await getDb().select().from(emails).where(eq(emails.id, leaEmail.id));
    expect(stillSent.status).toBe("SENT"); // a complaint is no bounce
  }, 300_000);
});
