import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { campaignLeads } from "@/db/schema";
import { ManualClock } from "@/lib/clock";
import { runJob } from "@/inngest/runner";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { insertMailbox } from "@/test/factories";
import { startDnsPeer, type Zone } from "@/test/peers/dns";
import { POST as CREATE_LEADS } from "@/app/api/v1/leads/route";
import { POST as CREATE_CAMPAIGN } from "@/app/api/v1/campaigns/route";
import { PUT as PUT_POOL } from "@/app/api/v1/campaigns/[id]/mailboxes/route";
import { POST as ADD_TO_CAMPAIGN } from "@/app/api/v1/campaigns/[id]/leads/route";
import { leadEspClassJob } from "../../inngest/functions/lead-esp-class";

// Domains no lead has used yet: leads there are UNKNOWN when added to a campaign (as right after an import).
const zone: Zone = {
  MX: {
    "rm-goog.test": [{ exchange: "aspmx.l.google.com", priority: 1 }],
    "rm-ms.test": [{ exchange: "rm-ms-test.mail.protection.outlook.com", priority: 0 }],
    "rm-zo.test": [{ exchange: "mx.zoho.eu", priority: 10 }],
    "rm-goog2.test": [{ exchange: "aspmx.l.google.com", priority: 1 }],
  },
};

let dns: Awaited<ReturnType<typeof startDnsPeer>>;
let ws: TestWorkspace;
const clock = new ManualClock(new Date("2026-11-02T09:00:00Z"));

beforeAll(async () => {
  dns = await startDnsPeer(zone);
  process.env.DNS_SERVERS = dns.server;
  ws = await makeWorkspace();
});
afterAll(() => {
  dns.close();
  delete process.env.DNS_SERVERS;
});

const runEsp = async () => (await runJob(getDb(), clock, leadEspClassJob)) as Record<string, number>;
async function createLeads(emails: string[]): Promise<Record<string, string>> {
  const r = await call(CREATE_LEADS, "POST", "/leads", { key: ws.fullKey, body: { leads: emails.map((email) => ({ email })) } });
  expect(r.status).toBe(200);
  return Object.fromEntries(emails.map((e, i) => [e.split("@")[0], r.body.leadIds[i] as string]));
}
async function campaign(espMatching: string, mailboxIds: string[]): Promise<string> {
  const c = await call(CREATE_CAMPAIGN, "POST", "/campaigns", { key: ws.fullKey, body: { name: `ESP ${espMatching}`, espMatching } });
  expect(c.status).toBe(201);
  const p = await call(PUT_POOL, "PUT", "", { key: ws.fullKey, params: { id: c.body.id }, body: { mailboxIds } });
  expect(p.status).toBe(200);
  return c.body.id;
}
async function add(campaignId: string, leadIds: string[]): Promise<(string | null)[]> {
  const r = await call(ADD_TO_CAMPAIGN, "POST", "", { key: ws.fullKey, params: { id: campaignId }, body: { leadIds } });
  expect(r.status).toBe(200);
  return r.body.results.map((x: { result: string; mailboxId: string | null }) => {
    expect(x.result).toBe("assigned");
    return x.mailboxId;
  });
}
async function mailboxOf(campaignId: string, leadId: string): Promise<string | null> {
  const [row] = await getDb()
    .select({ m: campaignLeads.mailboxId })
    .from(campaignLeads)
    .where(and(eq(campaignLeads.campaignId, campaignId), eq(campaignLeads.leadId, leadId)));
  return row.m;
}

describe("ESP matching after the lead-esp-class job", () => {
  it("moves leads added while UNKNOWN to a mailbox of their class, leaving emailed leads and OFF campaigns alone", async () => {
    const g = await insertMailbox(ws.workspaceId, "sender@gsend.test", { espClass: "GOOGLE" });
    const m = await insertMailbox(ws.workspaceId, "sender@msend.test", { espClass: "MICROSOFT" });
    const strict = await campaign("STRICT", [g.id, m.id]);
    const prefer = await campaign("PREFER", [g.id, m.id]);
    const off = await campaign("OFF", [g.id, m.id]);
    const L = await createLeads(["g1@rm-goog.test", "g2@rm-goog.test", "m1@rm-ms.test", "m2@rm-ms.test", "e@rm-ms.test", "z@rm-zo.test"]);
    const order = [L.g1, L.g2, L.m1, L.m2, L.e, L.z];

    // UNKNOWN leads match any mailbox: balanced as with matching off.
    const expectedBefore = [g.id, m.id, g.id, m.id, g.id, m.id];
    expect(await add(strict, order)).toEqual(expectedBefore);
    expect(await add(prefer, order)).toEqual(expectedBefore);
    expect(await add(off, order)).toEqual(expectedBefore);
    // e@ was emailed by the STRICT campaign (from the Google mailbox) before its class arrived.
    await getDb()
      .update(campaignLeads)
      .set({ firstEmailedAt: clock.now(), lastEmailedAt: clock.now(), nextStepOrder: 1 })
      .where(and(eq(campaignLeads.campaignId, strict), eq(campaignLeads.leadId, L.e)));

    const r = await runEsp();
    expect(r).toMatchObject({ lookedUp: 3, failed: 0, classified: 6 });

    // STRICT: each lead on the mailbox of its class; the emailed lead stays; a ZOHO lead with no ZOHO
    // mailbox in the pool is taken off its mailbox (seg_blocked, as when adding).
    expect(await mailboxOf(strict, L.g1)).toBe(g.id);
    expect(await mailboxOf(strict, L.g2)).toBe(g.id);
    expect(await mailboxOf(strict, L.m1)).toBe(m.id);
    expect(await mailboxOf(strict, L.m2)).toBe(m.id);
    expect(await mailboxOf(strict, L.e)).toBe(g.id);
    expect(await mailboxOf(strict, L.z)).toBeNull();
    // PREFER: the same moves (e@ was not emailed here); the ZOHO lead keeps a mailbox — none is of its
    // class, so it is picked again like any lead: the least loaded one.
    expect(await mailboxOf(prefer, L.g1)).toBe(g.id);
    expect(await mailboxOf(prefer, L.g2)).toBe(g.id);
    expect(await mailboxOf(prefer, L.m1)).toBe(m.id);
    expect(await mailboxOf(prefer, L.m2)).toBe(m.id);
    expect(await mailboxOf(prefer, L.e)).toBe(m.id);
    expect(await mailboxOf(prefer, L.z)).toBe(g.id);
    // OFF: nobody moves.
    for (const [i, id] of order.entries()) expect(await mailboxOf(off, id)).toBe(expectedBefore[i]);

    // STRICT: g2, m1 moved and z unassigned; PREFER: g2, m1, e and z moved.
    expect(r.rematched).toBe(7);
    expect(await runEsp()).toMatchObject({ classified: 0, rematched: 0 });
  });

  it("classifies from the cache, then re-matches, in the same pass; a lead on a mailbox of its class is not moved", async () => {
    const g = await insertMailbox(ws.workspaceId, "second@gsend.test", { espClass: "GOOGLE" });
    const m = await insertMailbox(ws.workspaceId, "second@msend.test", { espClass: "MICROSOFT" });
    const strict = await campaign("STRICT", [g.id, m.id]);
    // A new domain, and leads at it added before the job ran.
    const L = await createLeads(["a@rm-goog2.test", "b@rm-goog2.test", "c@rm-goog2.test"]);
    expect(await add(strict, [L.a, L.b, L.c])).toEqual([g.id, m.id, g.id]);
    const r = await runEsp();
    expect(r).toMatchObject({ classified: 3, rematched: 1 });
    for (const id of [L.a, L.b, L.c]) expect(await mailboxOf(strict, id)).toBe(g.id);
  });
});
