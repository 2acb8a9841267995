import { randomBytes } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as BULK_DELETE } from "@/app/api/v1/leads/bulk-delete/route";
import { getDb } from "@/db/client";
import {
  analyticsCampaignMarks,
  analyticsLeadLast,
  analyticsRollups,
  campaignLeads,
  campaignSteps,
  campaigns,
  emails,
  leads,
  mailboxes,
  workspaces,
} from "@/db/schema";
import { ManualClock } from "@/lib/clock";
import { newId } from "@/lib/ids";
import { scheduleDue } from "@/lib/sending/engine";
import { insertMailbox } from "@/test/factories";
import { call, makeWorkspace } from "@/test/helpers";
import { race } from "@/test/race";

/**
 * emails has no foreign keys (migrations 0027, 0028): what they did on delete is done by triggers, a
 * statement per delete. Each rule here failed before its trigger existed (the FKs were dropped with them).
 */

const hex = () => randomBytes(3).toString("hex");

/** A workspace with a mailbox, a campaign, four leads in it, and a SENT campaign email to each of the first three. */
async function world() {
  const ws = await makeWorkspace();
  const mbx = await insertMailbox(ws.workspaceId, `seller-${hex()}@refs.test`);
  const [cmp] = await getDb()
    .insert(campaigns)
    .values({ id: newId("cmp"), workspaceId: ws.workspaceId, name: "Refs", status: "ACTIVE" })
    .returning();
  const leadRows = await getDb()
    .insert(leads)
    .values([0, 1, 2, 3].map((i) => ({ id: newId("lead"), workspaceId: ws.workspaceId, email: `lee${i}-${hex()}@buyer.test` })))
    .returning();
  await getDb()
    .insert(campaignLeads)
    .values(leadRows.map((l) => ({ workspaceId: ws.workspaceId, campaignId: cmp.id, leadId: l.id, mailboxId: mbx.id })));
  const emailRows = await getDb()
    .insert(emails)
    .values(leadRows.slice(0, 3).map((l) => emailRow(ws.workspaceId, mbx.id, cmp.id, l)))
    .returning();
  return { ws, mbx, cmp, leads: leadRows, emails: emailRows };
}

function emailRow(workspaceId: string, mailboxId: string, campaignId: string, lead: { id: string; email: string }) {
  return {
    id: newId("eml"),
    workspaceId,
    mailboxId,
    campaignId,
    stepOrder: 0,
    leadId: lead.id,
    leadEmail: lead.email,
    messageId: `<${newId("eml")}@refs.test>`,
    subject: "Idea",
    status: "SENT" as const,
  };
}

const emailsOf = (ids: string[]) =>
  getDb().select({ id: emails.id, leadId: emails.leadId, leadEmail: emails.leadEmail }).from(emails).where(inArray(emails.id, ids));

/** The analytics rows a workspace has (its emails are campaign emails, so the triggers count them). */
async function analyticsRows(workspaceId: string): Promise<number> {
  const db = getDb();
  const counts = await Promise.all(
    [analyticsRollups, analyticsLeadLast, analyticsCampaignMarks].map((t) => db.$count(t, eq(t.workspaceId, workspaceId))),
  );
  return counts.reduce((a, b) => a + b, 0);
}

/** The 23503 a delete fails with, or undefined when it succeeds. */
const fkError = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: { cause?: { code?: string; detail?: string; constraint_name?: string } }) => e.cause,
  );

describe("what emails' references do on delete (migrations 0027, 0028)", () => {
  it("a deleted lead's emails stay, with lead_id cleared and the address kept; another lead's email keeps its lead", async () => {
    const w = await world();
    const kept = await getDb()
      .insert(emails)
      .values(emailRow(w.ws.workspaceId, w.mbx.id, w.cmp.id, w.leads[3]))
      .returning();
    const r = await call(BULK_DELETE, "POST", "", { key: w.ws.fullKey, body: { leadIds: [w.leads[0].id, w.leads[1].id] } });
    expect(r.body).toMatchObject({ deleted: 2 });
    await getDb().delete(leads).where(eq(leads.id, w.leads[2].id));
    const rows = await emailsOf(w.emails.map((e) => e.id));
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row.leadId).toBeNull();
      expect(w.leads.map((l) => l.email)).toContain(row.leadEmail);
    }
    expect(await emailsOf([kept[0].id])).toEqual([{ id: kept[0].id, leadId: w.leads[3].id, leadEmail: w.leads[3].email }]);
  });

  it("a mailbox that has emails cannot be deleted (23503, nothing deleted, not even a mailbox deleted with it); one without can", async () => {
    const w = await world();
    const idle = await insertMailbox(w.ws.workspaceId, `idle-${hex()}@refs.test`);
    const err = await fkError(
      getDb()
        .delete(mailboxes)
        .where(inArray(mailboxes.id, [idle.id, w.mbx.id])),
    );
    expect(err?.code).toBe("23503");
    expect(err?.constraint_name).toBe("emails_mailbox_id_mailboxes_id_fk");
    expect(err?.detail).toContain(w.mbx.id);
    expect(await getDb().$count(mailboxes, inArray(mailboxes.id, [idle.id, w.mbx.id]))).toBe(2);
    await getDb().delete(mailboxes).where(eq(mailboxes.id, idle.id));
    expect(await getDb().$count(mailboxes, eq(mailboxes.id, idle.id))).toBe(0);
  });

  it("a deleted workspace takes its emails, mailboxes and analytics rows with it, and leaves another workspace's alone", async () => {
    const gone = await world();
    const kept = await world();
    expect(await analyticsRows(gone.ws.workspaceId)).toBeGreaterThan(0);
    await getDb().delete(workspaces).where(eq(workspaces.id, gone.ws.workspaceId));
    expect(await emailsOf(gone.emails.map((e) => e.id))).toHaveLength(0);
    expect(await getDb().$count(mailboxes, eq(mailboxes.id, gone.mbx.id))).toBe(0);
    expect(await analyticsRows(gone.ws.workspaceId)).toBe(0);
    const still = await emailsOf(kept.emails.map((e) => e.id));
    expect(still.map((e) => e.leadId).sort()).toEqual(
      kept.leads
        .slice(0, 3)
        .map((l) => l.id)
        .sort(),
    );
    expect(await analyticsRows(kept.ws.workspaceId)).toBeGreaterThan(0);
  });

  it("a workspace deleted while a send is being committed waits for it, then deletes its email too", async () => {
    const w = await world();
    let deleted: Awaited<ReturnType<typeof fkError>> | "pending" = "pending";
    // The engine's commit, held open (the lead moved on and its email inserted as SENDING), raced by the
    // workspace delete, whose cascade to campaign_leads waits for the engine's row lock.
    const waited = await race(
      getDb().$client,
      async (tx) => {
        await tx`update campaign_leads set next_step_order = 1 where campaign_id = ${w.cmp.id} and lead_id = ${w.leads[3].id}`;
        const e = emailRow(w.ws.workspaceId, w.mbx.id, w.cmp.id, w.leads[3]);
        await tx`insert into emails (id, workspace_id, mailbox_id, campaign_id, step_order, lead_id, lead_email, message_id, subject, status)
          values (${e.id}, ${e.workspaceId}, ${e.mailboxId}, ${e.campaignId}, 0, ${e.leadId}, ${e.leadEmail}, ${e.messageId}, ${e.subject}, 'SENDING')`;
      },
      async () => {
        deleted = await fkError(getDb().delete(workspaces).where(eq(workspaces.id, w.ws.workspaceId)));
      },
    );
    expect(waited).toBe(true);
    expect(deleted).toBeUndefined();
    expect(await getDb().$count(emails, eq(emails.workspaceId, w.ws.workspaceId))).toBe(0);
    expect(await getDb().$count(workspaces, eq(workspaces.id, w.ws.workspaceId))).toBe(0);
    expect(await getDb().$count(campaignLeads, and(eq(campaignLeads.campaignId, w.cmp.id), eq(campaignLeads.leadId, w.leads[3].id)))).toBe(
      0,
    );
  });

  it("the engine's commit writes an email only for a lead it moves: a lead deleted while the pass decides gets none", async () => {
    // The references hold by construction (there are no foreign keys to catch a dangling one).
    const w = await world();
    await getDb()
      .delete(campaignLeads)
      .where(
        and(
          eq(campaignLeads.campaignId, w.cmp.id),
          inArray(
            campaignLeads.leadId,
            w.leads.slice(0, 3).map((l) => l.id),
          ),
        ),
      );
    await getDb()
      .insert(campaignSteps)
      .values({
        id: newId("stp"),
        workspaceId: w.ws.workspaceId,
        campaignId: w.cmp.id,
        stepOrder: 0,
        subject: "Hi",
        bodyTemplate: "Hello",
      });
    await getDb()
      .update(campaigns)
      .set({ sendDaysOfWeek: [0, 1, 2, 3, 4, 5, 6], sendWindowStartHour: 0, sendWindowEndHour: 24 })
      .where(eq(campaigns.id, w.cmp.id));
    const gone = w.leads[3];
    let work: unknown[] | undefined;
    // The delete (its campaign_leads row goes with it) held open; the pass reads the lead, picks it, and
    // its commit waits on the row.
    const waited = await race(
      getDb().$client,
      (tx) => tx`delete from leads where id = ${gone.id}`,
      async () => {
        work = (await scheduleDue(getDb(), new ManualClock(new Date()), { mailboxIds: [w.mbx.id] })).work;
      },
    );
    expect(waited).toBe(true);
    expect(work).toEqual([]);
    expect(await getDb().$count(emails, eq(emails.leadEmail, gone.email))).toBe(0);
    expect(await getDb().$count(emails, and(eq(emails.mailboxId, w.mbx.id), eq(emails.status, "SENDING")))).toBe(0);
  });
});
