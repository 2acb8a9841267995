import { randomBytes } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { analyticsCampaignMarks, analyticsLeadLast, analyticsRollups, campaigns, emails, leads } from "@/db/schema";
import { campaignLifetimes } from "@/lib/analytics/rollups";
import { newId } from "@/lib/ids";
import { insertMailbox } from "@/test/factories";
import { makeWorkspace } from "@/test/helpers";
import { race } from "@/test/race";

/**
 * The emails triggers at scale: an update that changes no column the rollups read returns before the
 * rollup statements (the retention job clearing bodies on thousands of rows must not run them), and a
 * lead deleted with its workspace leaves its emails to the workspace's delete instead of clearing each
 * one's lead_id first.
 */

const hex = () => randomBytes(3).toString("hex");

/** A workspace with a mailbox, a campaign, three leads and a SENT campaign email with a body to each. */
async function world() {
  const ws = await makeWorkspace();
  const mbx = await insertMailbox(ws.workspaceId, `seller-${hex()}@trig.test`);
  const [cmp] = await getDb()
    .insert(campaigns)
    .values({ id: newId("cmp"), workspaceId: ws.workspaceId, name: "Trig", status: "ACTIVE", trackOpens: true })
    .returning();
  const leadRows = await getDb()
    .insert(leads)
    .values([0, 1, 2].map((i) => ({ id: newId("lead"), workspaceId: ws.workspaceId, email: `lee${i}-${hex()}@buyer.test` })))
    .returning();
  const emailRows = await getDb()
    .insert(emails)
    .values(
      leadRows.map((l) => ({
        id: newId("eml"),
        workspaceId: ws.workspaceId,
        mailboxId: mbx.id,
        campaignId: cmp.id,
        stepOrder: 0,
        leadId: l.id,
        leadEmail: l.email,
        messageId: `<${newId("eml")}@trig.test>`,
        subject: "Idea",
        bodyText: "Hello there",
        status: "SENT" as const,
      })),
    )
    .returning();
  return { ws, cmp, leads: leadRows, emails: emailRows };
}

/** Every analytics row of the workspace, in a fixed order. */
async function analyticsOf(workspaceId: string) {
  const db = getDb();
  return Promise.all([
    db
      .select()
      .from(analyticsRollups)
      .where(eq(analyticsRollups.workspaceId, workspaceId))
      .orderBy(analyticsRollups.span, analyticsRollups.start),
    db
      .select()
      .from(analyticsLeadLast)
      .where(eq(analyticsLeadLast.workspaceId, workspaceId))
      .orderBy(analyticsLeadLast.metric, analyticsLeadLast.lead),
    db
      .select()
      .from(analyticsCampaignMarks)
      .where(eq(analyticsCampaignMarks.workspaceId, workspaceId))
      .orderBy(analyticsCampaignMarks.metric, analyticsCampaignMarks.lead),
  ]);
}

/**
 * Runs `update` while another transaction holds analytics_campaign_marks locked against writers:
 * the rollup statements write that table, so `update` waits exactly when the trigger goes past its
 * early returns. Returns whether it waited.
 */
const reachesRollups = (update: () => Promise<unknown>) =>
  race(getDb().$client, (tx) => tx`lock table analytics_campaign_marks in exclusive mode`, update);

/**
 * Runs `write` in a transaction on a connection of its own (no plan cached from before) that reads by
 * index wherever one fits; returns how many times emails' lead_id index was read meanwhile.
 */
async function leadIndexScans(write: (tx: postgres.TransactionSql) => Promise<unknown>): Promise<number> {
  const pg = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
  try {
    return await pg.begin(async (tx) => {
      await tx`set local enable_seqscan = off`;
      await write(tx);
      const [row] = await tx<{ n: number }[]>`select pg_stat_get_xact_numscans('emails_lead_idx'::regclass)::int as n`;
      return row.n;
    });
  } finally {
    await pg.end();
  }
}

describe("emails triggers", () => {
  it("an update of columns the rollups do not read returns at once and leaves them exact; a counted one still updates them", async () => {
    const w = await world();
    const ids = w.emails.map((e) => e.id);
    const before = await analyticsOf(w.ws.workspaceId);
    const uncounted = () =>
      getDb().update(emails).set({ bodyText: null, bodyHtml: null, machineOpenedAt: new Date() }).where(inArray(emails.id, ids));
    expect(await reachesRollups(uncounted)).toBe(false);
    expect(await analyticsOf(w.ws.workspaceId)).toEqual(before);
    const lifetime = await campaignLifetimes(getDb(), w.ws.workspaceId, [w.cmp.id]);
    expect(lifetime.get(w.cmp.id)).toMatchObject({ sent: 3, leadsContacted: 3, opened: 0 });

    const opened = () =>
      getDb()
        .update(emails)
        .set({ openedAt: new Date() })
        .where(inArray(emails.id, ids.slice(0, 2)));
    expect(await reachesRollups(opened)).toBe(true);
    const after = await campaignLifetimes(getDb(), w.ws.workspaceId, [w.cmp.id]);
    expect(after.get(w.cmp.id)).toMatchObject({ sent: 3, leadsContacted: 3, opened: 2 });
  });

  it("a lead deleted alone clears its emails' lead_id; leads deleted with their workspace leave the emails to that delete", async () => {
    const w = await world();
    const alone = await leadIndexScans((tx) => tx`delete from leads where id = ${w.leads[0].id}`);
    const [cleared] = await getDb().select({ leadId: emails.leadId }).from(emails).where(eq(emails.id, w.emails[0].id));
    expect(cleared.leadId).toBeNull();
    expect(alone).toBeGreaterThan(0);
    // The workspace's other leads go by its cascade, its emails by emails_workspaces_delete: the leads'
    // trigger reads none of them (it used to look up each lead's emails, deleted in the same statement).
    expect(await leadIndexScans((tx) => tx`delete from workspaces where id = ${w.ws.workspaceId}`)).toBe(0);
    expect(await getDb().$count(emails, eq(emails.workspaceId, w.ws.workspaceId))).toBe(0);
    expect(await getDb().$count(leads, eq(leads.workspaceId, w.ws.workspaceId))).toBe(0);
    expect(await getDb().$count(analyticsRollups, eq(analyticsRollups.workspaceId, w.ws.workspaceId))).toBe(0);
  });
});
