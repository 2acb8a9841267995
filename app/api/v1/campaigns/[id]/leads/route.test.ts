import { beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { campaignLeads, leads, mailboxes } from "@/db/schema";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { insertMailbox } from "@/test/factories";
import { POST as CREATE_LEADS } from "../../../leads/route";
import { POST as ADD_SUPPRESSIONS } from "../../../suppressions/route";
import { POST as CREATE_TAG } from "../../../tags/route";
import { POST as TAG_MAILBOX } from "../../../mailboxes/[id]/tags/route";
import { POST as CREATE_CAMPAIGN } from "../../route";
import { PATCH as PATCH_SETTINGS } from "../settings/route";
import { PATCH as STATUS } from "../status/route";
import { GET as LIST, POST as ADD } from "./route";
import { DELETE as REMOVE_ONE } from "./[leadId]/route";
import { POST as REMOVE } from "./remove/route";
import { POST as REASSIGN } from "./reassign/route";
import { GET as POOL, PUT as PUT_POOL } from "../mailboxes/route";
import { POST as SELECT } from "../mailboxes/select/route";
import { POST as POOL_REMOVE } from "../mailboxes/remove/route";
import { DELETE as POOL_REMOVE_ONE } from "../mailboxes/[mailboxId]/route";

let ws: TestWorkspace;
beforeAll(async () => {
  ws = await makeWorkspace();
});
const p = (id: string, extra: Record<string, string> = {}) => ({ params: { id, ...extra } });
const newCampaign = async (body: Record<string, unknown> = {}) =>
  (await call(CREATE_CAMPAIGN, "POST", "/campaigns", { key: ws.fullKey, body: { name: "C", ...body } })).body.id as string;
async function makeLeads(prefix: string, n: number, extra: Record<string, unknown> = {}) {
  return (
    await call(CREATE_LEADS, "POST", "/leads", {
      key: ws.fullKey,
      body: { leads: Array.from({ length: n }, (_, i) => ({ email: `${prefix}${i}@leads.test`, ...extra })) },
    })
  ).body.leadIds as string[];
}
const add = (c: string, leadIds: string[]) => call(ADD, "POST", "", { key: ws.fullKey, ...p(c), body: { leadIds } });

describe("POST /campaigns/<id>/leads", () => {
  it("assigns each lead a pool mailbox, balanced by load, and skips mailboxes that cannot send", async () => {
    const c = await newCampaign();
    const m1 = await insertMailbox(ws.workspaceId, "m1@bal.test");
    const m2 = await insertMailbox(ws.workspaceId, "m2@bal.test");
    const off = await insertMailbox(ws.workspaceId, "off@bal.test", { sendingEnabled: false });
    await call(PUT_POOL, "PUT", "", { key: ws.fullKey, ...p(c), body: { mailboxIds: [m1.id, m2.id, off.id] } });
    const r = await add(c, await makeLeads("bal", 6));
    expect(r.body.added).toBe(6);
    expect(r.body.results.every((x: any) => x.result === "assigned")).toBe(true);
    const counts: Record<string, number> = {};
    for (const x of r.body.results) counts[x.mailboxId] = (counts[x.mailboxId] ?? 0) + 1;
    expect(counts).toEqual({ [m1.id]: 3, [m2.id]: 3 });
    // The next batch keeps the balance with what is already assigned.
    const more = await add(c, await makeLeads("bal2-", 1));
    expect([m1.id, m2.id]).toContain(more.body.results[0].mailboxId);
  });

  it("reports suppressed (not added), no_eligible_mailbox (added unassigned), error for unknown ids, and is idempotent", async () => {
    const c = await newCampaign();
    const [ok, sup] = await makeLeads("res", 2);
    await call(ADD_SUPPRESSIONS, "POST", "/suppressions", { key: ws.fullKey, body: { emails: ["res1@leads.test"] } });
    const r = await add(c, [ok, sup, "lead_nope"]);
    expect(r.body.results.map((x: any) => [x.leadId, x.result, x.mailboxId])).toEqual([
      [ok, "no_eligible_mailbox", null],
      [sup, "suppressed", null],
      ["lead_nope", "error", null],
    ]);
    expect(r.body.added).toBe(1);
    const list = await call(LIST, "GET", "", { key: ws.readKey, ...p(c) });
    expect(list.body.leads.map((l: any) => [l.id, l.mailboxId])).toEqual([[ok, null]]);
    expect((await add(c, [ok])).body).toMatchObject({ added: 0, results: [{ leadId: ok, result: "no_eligible_mailbox" }] });
  });

  it("matches providers: STRICT blocks a lead with no same-class mailbox (seg_blocked), PREFER falls back, UNKNOWN matches any", async () => {
    const c = await newCampaign({ espMatching: "STRICT" });
    const g = await insertMailbox(ws.workspaceId, "g@esp.test", { espClass: "GOOGLE" });
    await call(PUT_POOL, "PUT", "", { key: ws.fullKey, ...p(c), body: { mailboxIds: [g.id] } });
    const [gl, ml, ul] = await makeLeads("esp", 3);
    await getDb().update(leads).set({ espClass: "GOOGLE" }).where(eq(leads.id, gl));
    await getDb().update(leads).set({ espClass: "MICROSOFT" }).where(eq(leads.id, ml));
    const r = await add(c, [gl, ml, ul]);
    expect(r.body.results.map((x: any) => x.result)).toEqual(["assigned", "seg_blocked", "assigned"]);
    expect(r.body.added).toBe(3);
    await call(PATCH_SETTINGS, "PATCH", "", { key: ws.fullKey, ...p(c), body: { espMatching: "PREFER" } });
    const re = await call(REASSIGN, "POST", "", { key: ws.fullKey, ...p(c), body: { leadIds: [ml] } });
    expect(re.body.reassigned).toBe(1);
  });

  it("lists with paging up to 1000 and refuses more", async () => {
    const c = await newCampaign();
    await add(c, await makeLeads("page", 5));
    const r = await call(LIST, "GET", "/campaigns/x/leads?page=2&limit=2", { key: ws.readKey, ...p(c) });
    expect(r.body).toMatchObject({ page: 2, limit: 2, total: 5 });
    expect(r.body.leads.map((l: any) => l.email)).toEqual(["page2@leads.test", "page3@leads.test"]);
    expect((await call(LIST, "GET", "/campaigns/x/leads?limit=1001", { key: ws.readKey, ...p(c) })).status).toBe(400);
    expect((await call(LIST, "GET", "/campaigns/x/leads", { key: ws.readKey, ...p(c) })).body.limit).toBe(100);
  });

  it("removes one lead or many", async () => {
    const c = await newCampaign();
    const ids = await makeLeads("rm", 3);
    await add(c, ids);
    expect((await call(REMOVE_ONE, "DELETE", "", { key: ws.fullKey, ...p(c, { leadId: ids[0] }) })).body).toEqual({
      removed: true,
      leadId: ids[0],
    });
    expect((await call(REMOVE_ONE, "DELETE", "", { key: ws.fullKey, ...p(c, { leadId: ids[0] }) })).status).toBe(404);
    const r = await call(REMOVE, "POST", "", { key: ws.fullKey, ...p(c), body: { leadIds: [ids[1], ids[2], "lead_x"] } });
    expect(r.body).toEqual({ removed: 2, notInCampaign: ["lead_x"] });
    expect(
      (await call(REMOVE, "POST", "", { key: ws.fullKey, ...p(c), body: { leadIds: Array.from({ length: 5001 }, (_, i) => `l${i}`) } }))
        .status,
    ).toBe(400);
  });
});

describe("reassign", () => {
  it("moves only leads not yet emailed; a lead in conversation keeps its mailbox; more: true when over 1,000", async () => {
    const c = await newCampaign();
    const old = await insertMailbox(ws.workspaceId, "old@re.test");
    await call(PUT_POOL, "PUT", "", { key: ws.fullKey, ...p(c), body: { mailboxIds: [old.id] } });
    const ids = await makeLeads("re", 3);
    await add(c, ids);
    await getDb()
      .update(campaignLeads)
      .set({ firstEmailedAt: new Date() })
      .where(and(eq(campaignLeads.campaignId, c), eq(campaignLeads.leadId, ids[0])));
    const fresh = await insertMailbox(ws.workspaceId, "new@re.test");
    const put = await call(PUT_POOL, "PUT", "", { key: ws.fullKey, ...p(c), body: { mailboxIds: [fresh.id] } });
    expect(put.body).toEqual({ poolSize: 1, added: 1, removed: 1, notFound: [], leadsOutsidePool: 3 }); // the pool change moved nobody
    const r = await call(REASSIGN, "POST", "", { key: ws.fullKey, ...p(c), body: { all: true } });
    expect(r.body).toMatchObject({ reassigned: 2, leftUnassigned: 0, skippedAlreadyEmailed: 0, more: false });
    const rows = await getDb().select().from(campaignLeads).where(eq(campaignLeads.campaignId, c));
    const by = new Map(rows.map((x) => [x.leadId, x.mailboxId]));
    expect([by.get(ids[0]), by.get(ids[1]), by.get(ids[2])]).toEqual([old.id, fresh.id, fresh.id]);
    const explicit = await call(REASSIGN, "POST", "", { key: ws.fullKey, ...p(c), body: { leadIds: [ids[0], "lead_zz"] } });
    expect(explicit.body).toMatchObject({ skippedAlreadyEmailed: 1, notInCampaign: ["lead_zz"] });
  });

  it("works in batches of 1,000 with more: true", async () => {
    const c = await newCampaign();
    const m = await insertMailbox(ws.workspaceId, "batch@re.test");
    await getDb().execute(sql`
      with l as (
        insert into leads (id, workspace_id, email) select 'lead_b' || g, ${ws.workspaceId}, 'b' || g || '@batch.test' from generate_series(1, 1001) g returning id)
      insert into campaign_leads (workspace_id, campaign_id, lead_id) select ${ws.workspaceId}, ${c}, id from l`);
    await call(PUT_POOL, "PUT", "", { key: ws.fullKey, ...p(c), body: { mailboxIds: [m.id] } });
    const first = await call(REASSIGN, "POST", "", { key: ws.fullKey, ...p(c), body: { all: true } });
    expect(first.body).toMatchObject({ reassigned: 1000, more: true });
    const second = await call(REASSIGN, "POST", "", { key: ws.fullKey, ...p(c), body: { all: true } });
    expect(second.body).toMatchObject({ reassigned: 1, more: false });
  });
});

describe("the mailbox pool", () => {
  it("adds by ids, by tag and at random; removes one or many; reports which mailboxes actively send", async () => {
    const c = await newCampaign();
    const a = await insertMailbox(ws.workspaceId, "a@pool.test");
    const b = await insertMailbox(ws.workspaceId, "b@pool.test");
    const t = await insertMailbox(ws.workspaceId, "t@pool.test");
    const tag = (await call(CREATE_TAG, "POST", "/tags", { key: ws.fullKey, body: { name: "pool-tag" } })).body;
    await call(TAG_MAILBOX, "POST", "", { key: ws.fullKey, params: { id: t.id }, body: { tagId: tag.id } });
    const manual = await call(SELECT, "POST", "", { key: ws.fullKey, ...p(c), body: { mode: "manual", mailboxIds: [a.id, "mbx_nope"] } });
    expect(manual.body).toEqual({ poolSize: 1, added: 1, removed: 0, notFound: ["mbx_nope"], leadsOutsidePool: 0 });
    expect((await call(SELECT, "POST", "", { key: ws.fullKey, ...p(c), body: { mode: "tag", tagIds: [tag.id] } })).body).toMatchObject({
      poolSize: 2,
      added: 1,
    });
    // Random within a tag that only b carries, so the pick is known.
    const tag2 = (await call(CREATE_TAG, "POST", "/tags", { key: ws.fullKey, body: { name: "pool-random" } })).body;
    await call(TAG_MAILBOX, "POST", "", { key: ws.fullKey, params: { id: b.id }, body: { tagId: tag2.id } });
    const rand = await call(SELECT, "POST", "", { key: ws.fullKey, ...p(c), body: { mode: "random", count: 5, tagIds: [tag2.id] } });
    expect(rand.body).toMatchObject({ added: 1, poolSize: 3 });
    expect((await call(SELECT, "POST", "", { key: ws.fullKey, ...p(c), body: { mode: "random" } })).status).toBe(400);
    await add(c, await makeLeads("pool", 3));
    await call(STATUS, "PATCH", "", { key: ws.fullKey, ...p(c), body: { status: "ACTIVE", confirm: true } });
    const pool = await call(POOL, "GET", "", { key: ws.readKey, ...p(c) });
    expect(pool.body.poolSize).toBe(3);
    expect(pool.body.activelySending).toBe(3);
    expect(pool.body.mailboxes.every((m: any) => m.canSend && m.assignedLeads === 1)).toBe(true);
    await getDb().update(mailboxes).set({ loginFailingSince: new Date() }).where(eq(mailboxes.id, b.id));
    expect((await call(POOL, "GET", "", { key: ws.readKey, ...p(c) })).body.activelySending).toBe(2);
    const one = await call(POOL_REMOVE_ONE, "DELETE", "", { key: ws.fullKey, ...p(c, { mailboxId: a.id }) });
    expect(one.body).toMatchObject({ removed: 1, poolSize: 2, leadsOutsidePool: 1 });
    const many = await call(POOL_REMOVE, "POST", "", { key: ws.fullKey, ...p(c), body: { mailboxIds: [t.id, b.id, a.id] } });
    expect(many.body).toMatchObject({ removed: 2, notInPool: [a.id], poolSize: 0, leadsOutsidePool: 3 });
  });
});
