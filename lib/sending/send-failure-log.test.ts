import { describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { emails, mailboxes } from "@/db/schema";
import { ManualClock, useClock } from "@/lib/clock";
import { memoryLogger } from "@/lib/log";
import { connectMailboxes, launchCampaign, mailSuite } from "@/test/campaign-setup";
import { sendDue } from "./engine";

/**
 * A send whose outcome cannot be written is logged once, through the context's
 * logger, with its mailbox and email ids; the email stays SENDING and is never resent. Here the stored
 * password cannot be opened (the secret it was sealed with is gone: a FAILED outcome, not a throw) and
 * the database refuses to record that outcome (a trigger of this test's own raises).
 */
const suite = mailSuite({ domain: "faillog.test", users: { "f@faillog.test": "pw" } });

describe("a send that fails outside SMTP", () => {
  it("is logged once with mailbox and email id, and left SENDING (never resent)", async () => {
    const clock = new ManualClock(new Date("2026-11-03T10:00:00Z"));
    useClock(clock);
    const [mbx] = await connectMailboxes(suite.ws.fullKey, [{ email: "f@faillog.test", appPassword: "pw" }]);
    const { launched } = await launchCampaign(suite.ws.fullKey, {
      campaign: { name: "Fail log", sendDaysOfWeek: [0, 1, 2, 3, 4, 5, 6], minGapMinutes: 1 },
      steps: [{ stepOrder: 0, subject: "Hello", bodyTemplate: "Hi" }],
      mailboxIds: [mbx.id],
      leads: [{ email: "one@leads.test" }],
    });
    expect(launched.body.status).toBe("ACTIVE");
    const db = getDb();
    await db.update(mailboxes).set({ smtpPasswordEnc: "not-a-sealed-secret" }).where(eq(mailboxes.id, mbx.id));
    await db.execute(sql`create function faillog_refuse() returns trigger language plpgsql as $$
      begin raise exception 'the database is refusing writes'; end $$`);
    await db.execute(
      sql.raw(`create trigger faillog_refuse before update on emails for each row
      when (new.status = 'FAILED' and new.mailbox_id = '${mbx.id}') execute function faillog_refuse()`),
    );

    const log = memoryLogger();
    let report: Awaited<ReturnType<typeof sendDue>>;
    try {
      report = await sendDue(db, clock, { mailboxIds: [mbx.id], log });
    } finally {
      await db.execute(sql`drop trigger faillog_refuse on emails`);
      await db.execute(sql`drop function faillog_refuse()`);
    }
    expect(report).toMatchObject({ sent: 0, bounced: 0, failed: 0 });
    const rows = await db.select().from(emails).where(eq(emails.mailboxId, mbx.id));
    expect(rows).toHaveLength(1);
    expect(rows[0].status).toBe("SENDING");
    expect(log.lines.filter((l) => l.level === "error")).toEqual([
      { level: "error", message: "send: failed", fields: expect.objectContaining({ mailboxId: mbx.id, emailId: rows[0].id }) },
    ]);
    expect(suite.world.smtp.received).toHaveLength(0);

    // After the lease lapses the mailbox is free again; the lead has moved on, so nothing is resent or logged.
    clock.advance(10 * 60_000);
    expect(await sendDue(db, clock, { mailboxIds: [mbx.id], log })).toMatchObject({ sent: 0 });
    expect(log.lines.filter((l) => l.level === "error")).toHaveLength(1);
    expect(await db.select().from(emails).where(eq(emails.mailboxId, mbx.id))).toHaveLength(1);
  });
});
