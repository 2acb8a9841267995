import { randomBytes } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as BULK_DELETE } from "@/app/api/v1/leads/bulk-delete/route";
import { getDb } from "@/db/client";
import { emails, leads, mailboxes, workspaces } from "@/db/schema";
import { newId } from "@/lib/ids";
import { insertMailbox } from "@/test/factories";
import { call, makeWorkspace } from "@/test/helpers";

/**
 * emails has no foreign keys (migration 0027): what they did on delete is done by triggers, a statement
 * per delete. Each rule here failed before its trigger existed (the FKs were dropped with them).
 */

async function world() {
  const ws = await makeWorkspace();
  const mbx = await insertMailbox(ws.workspaceId, `seller-${randomBytes(3).toString("hex")}@refs.test`);
  const leadRows = await getDb()
    .insert(leads)
    .values(
      [0, 1, 2].map((i) => ({
        id: newId("lead"),
        workspaceId: ws.workspaceId,
        email: `lee${i}-${randomBytes(3).toString("hex")}@buyer.test`,
      })),
    )
    .returning();
  const emailRows = await getDb()
    .insert(emails)
    .values(
      leadRows.map((l) => ({
        id: newId("eml"),
        workspaceId: ws.workspaceId,
        mailboxId: mbx.id,
        leadId: l.id,
        leadEmail: l.email,
        messageId: `<${l.id}@refs.test>`,
        subject: "Idea",
        status: "SENT" as const,
      })),
    )
    .returning();
  return { ws, mbx, leads: leadRows, emails: emailRows };
}

const emailsOf = (ids: string[]) =>
  getDb().select({ id: emails.id, leadId: emails.leadId, leadEmail: emails.leadEmail }).from(emails).where(inArray(emails.id, ids));

describe("what emails' references do on delete (migration 0027)", () => {
  it("a deleted lead's emails stay, with lead_id cleared and the address kept — through the API's bulk delete and a plain delete", async () => {
    const w = await world();
    const r = await call(BULK_DELETE, "POST", "", { key: w.ws.fullKey, body: { leadIds: [w.leads[0].id, w.leads[1].id] } });
    expect(r.body).toMatchObject({ deleted: 2 });
    await getDb().delete(leads).where(eq(leads.id, w.leads[2].id));
    const rows = await emailsOf(w.emails.map((e) => e.id));
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row.leadId).toBeNull();
      expect(w.leads.map((l) => l.email)).toContain(row.leadEmail);
    }
  });

  it("a mailbox that has emails cannot be deleted (23503, nothing deleted); one without can", async () => {
    const w = await world();
    const err = await getDb()
      .delete(mailboxes)
      .where(eq(mailboxes.id, w.mbx.id))
      .then(
        () => undefined,
        (e: { cause?: { code?: string; detail?: string } }) => e.cause,
      );
    expect(err?.code).toBe("23503");
    expect(err?.detail).toContain(w.mbx.id);
    expect(await getDb().select().from(mailboxes).where(eq(mailboxes.id, w.mbx.id))).toHaveLength(1);
    const idle = await insertMailbox(w.ws.workspaceId, `idle-${randomBytes(3).toString("hex")}@refs.test`);
    await getDb().delete(mailboxes).where(eq(mailboxes.id, idle.id));
    expect(await getDb().select().from(mailboxes).where(eq(mailboxes.id, idle.id))).toHaveLength(0);
  });

  it("a deleted workspace takes its emails (and mailboxes) with it, and leaves another workspace's alone", async () => {
    const gone = await world();
    const kept = await world();
    await getDb().delete(workspaces).where(eq(workspaces.id, gone.ws.workspaceId));
    expect(await emailsOf(gone.emails.map((e) => e.id))).toHaveLength(0);
    expect(await getDb().select().from(mailboxes).where(eq(mailboxes.id, gone.mbx.id))).toHaveLength(0);
    const still = await emailsOf(kept.emails.map((e) => e.id));
    expect(still.map((e) => e.leadId).sort()).toEqual(kept.leads.map((l) => l.id).sort());
  });
});
