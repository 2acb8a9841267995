import { beforeAll, describe, expect, it } from "vitest";
import { ManualClock, systemClock, useClock } from "@/lib/clock";
import { addMember, call, makeWorkspace, sessionCookie, type TestWorkspace } from "@/test/helpers";
import { POST as CREATE_LEADS } from "@/app/api/v1/leads/route";
import { POST as ATTACH } from "@/app/api/v1/leads/[id]/tags/route";
import { DELETE as DETACH } from "@/app/api/v1/leads/[id]/tags/[tagId]/route";
import { GET as TIMELINE } from "@/app/api/v1/leads/[id]/timeline/route";
import { GET as LEAD_CAMPAIGNS } from "@/app/api/v1/leads/[id]/campaigns/route";
import { POST as CREATE_TAG } from "@/app/api/v1/tags/route";
import { DELETE as DELETE_TAG } from "@/app/api/v1/tags/[tagId]/route";
import { POST as CREATE_CAMPAIGN } from "@/app/api/v1/campaigns/route";
import { DELETE as DELETE_CAMPAIGN } from "@/app/api/v1/campaigns/[id]/route";
import { POST as ADD_TO_CAMPAIGN } from "@/app/api/v1/campaigns/[id]/leads/route";
import { POST as REMOVE_FROM_CAMPAIGN } from "@/app/api/v1/campaigns/[id]/leads/remove/route";
import { DELETE as REMOVE_ONE } from "@/app/api/v1/campaigns/[id]/leads/[leadId]/route";
import { POST as ADD_SUPPRESSIONS } from "@/app/api/v1/suppressions/route";
import { POST as UNTAG } from "../bulk-untag/route";
import { POST as TAG } from "./route";

let ws: TestWorkspace;
let cookie: string;
const clock = new ManualClock(new Date("2026-11-05T08:00:00Z"));

beforeAll(async () => {
  ws = await makeWorkspace();
  cookie = await sessionCookie(ws.userId);
  useClock(clock);
  return () => useClock(systemClock);
});

const tick = () => clock.advance(60_000);
const leadsOf = async (emails: string[]) =>
  (await call(CREATE_LEADS, "POST", "/leads", { key: ws.fullKey, body: { leads: emails.map((email) => ({ email })) } })).body
    .leadIds as string[];
const newTag = async (name: string) => (await call(CREATE_TAG, "POST", "/tags", { key: ws.fullKey, body: { name } })).body.id as string;
const newCampaign = async (name: string) =>
  (await call(CREATE_CAMPAIGN, "POST", "/campaigns", { key: ws.fullKey, body: { name } })).body.id as string;
const events = async (id: string) =>
  (await call(TIMELINE, "GET", `/leads/${id}/timeline`, { key: ws.readKey, params: { id } })).body.events as any[];
const kinds = async (id: string) => (await events(id)).map((e) => e.kind);

describe("POST /leads/bulk-tag and /leads/bulk-untag", () => {
  it("tags many leads at once, counting those that had it and listing unknown ids", async () => {
    const [a, b] = await leadsOf(["bt-a@example.com", "bt-b@example.com"]);
    const tagId = await newTag("Hot");
    await call(ATTACH, "POST", "", { key: ws.fullKey, params: { id: a }, body: { tagId } });
    const r = await call(TAG, "POST", "/leads/bulk-tag", { key: ws.fullKey, body: { leadIds: [a, b, b, "lead_nope"], tagId } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ tag: { id: tagId, name: "Hot" }, tagged: 1, alreadyTagged: 1, notFound: ["lead_nope"] });
    const byName = await call(TAG, "POST", "/leads/bulk-tag", { cookie, body: { leadIds: [a], name: "Brand new" } });
    expect(byName.body).toMatchObject({ tag: { name: "Brand new" }, tagged: 1 });
    expect((await kinds(b)).filter((k) => k === "tagged")).toHaveLength(1);
  });

  it("takes a tag off many leads and records untagged on each, keeping when it was attached", async () => {
    const [a, b, c] = await leadsOf(["bu-a@example.com", "bu-b@example.com", "bu-c@example.com"]);
    const tagId = await newTag("Cold");
    const taggedAt = clock.now().toISOString();
    await call(TAG, "POST", "/leads/bulk-tag", { key: ws.fullKey, body: { leadIds: [a, b], tagId } });
    tick();
    const r = await call(UNTAG, "POST", "/leads/bulk-untag", { key: ws.fullKey, body: { leadIds: [a, b, c, "lead_nope"], tagId } });
    expect(r.body).toEqual({ tagId, untagged: 2, notTagged: 1, notFound: ["lead_nope"] });
    const [untagged, tagged] = await events(a);
    expect(untagged).toEqual({
      at: clock.now().toISOString(),
      kind: "untagged",
      detail: { reason: "removed", tag: { id: tagId, name: "Cold" } },
    });
    expect(tagged).toEqual({ at: taggedAt, kind: "tagged", detail: { tag: { id: tagId, name: "Cold" } } });
    expect(await kinds(c)).toEqual([]);
    const unknown = await call(UNTAG, "POST", "/leads/bulk-untag", { key: ws.fullKey, body: { leadIds: [a], tagId: "tag_nope" } });
    expect([unknown.status, unknown.body.code]).toEqual([404, "NOT_FOUND"]);
    const tooMany = await call(UNTAG, "POST", "/leads/bulk-untag", { key: ws.fullKey, body: { leadIds: Array(1001).fill(a), tagId } });
    expect([tooMany.status, tooMany.body.code]).toEqual([400, "VALIDATION_ERROR"]);
  });

  it("records untagged when one tag is removed from a lead and when the tag itself is deleted", async () => {
    const [a] = await leadsOf(["bu-one@example.com"]);
    const first = await newTag("First");
    const second = await newTag("Second");
    await call(ATTACH, "POST", "", { key: ws.fullKey, params: { id: a }, body: { tagId: first } });
    await call(ATTACH, "POST", "", { key: ws.fullKey, params: { id: a }, body: { tagId: second } });
    tick();
    expect((await call(DETACH, "DELETE", "", { key: ws.fullKey, params: { id: a, tagId: first } })).body.removed).toBe(true);
    tick();
    expect((await call(DELETE_TAG, "DELETE", "", { key: ws.fullKey, params: { tagId: second } })).status).toBe(200);
    const evs = await events(a);
    expect(evs.map((e) => [e.kind, e.detail.tag.name, e.detail.reason ?? null])).toEqual([
      ["untagged", "Second", "tag_deleted"],
      ["untagged", "First", "removed"],
      ["tagged", "Second", null],
      ["tagged", "First", null],
    ]);
  });

  it("refuses a client seat and a read-only key", async () => {
    const [a] = await leadsOf(["bt-role@example.com"]);
    const tagId = await newTag("Roles");
    const client = await addMember(ws.workspaceId, "client");
    for (const key of [client.key, ws.readKey]) {
      const r = await call(TAG, "POST", "/leads/bulk-tag", { key, body: { leadIds: [a], tagId } });
      expect([r.status, r.body.code]).toEqual([403, "FORBIDDEN"]);
    }
  });
});

describe("campaign membership on the timeline", () => {
  it("records campaign_removed when a lead is taken out of a campaign, one or many at once", async () => {
    const [a, b] = await leadsOf(["cr-a@example.com", "cr-b@example.com"]);
    const campaignId = await newCampaign("Removal test");
    const addedAt = clock.now().toISOString();
    await call(ADD_TO_CAMPAIGN, "POST", "", { key: ws.fullKey, params: { id: campaignId }, body: { leadIds: [a, b] } });
    tick();
    const many = await call(REMOVE_FROM_CAMPAIGN, "POST", "", { key: ws.fullKey, params: { id: campaignId }, body: { leadIds: [a] } });
    expect(many.body.removed).toBe(1);
    expect((await call(REMOVE_ONE, "DELETE", "", { key: ws.fullKey, params: { id: campaignId, leadId: b } })).status).toBe(200);
    for (const id of [a, b]) {
      const [removed, added] = await events(id);
      const campaign = { id: campaignId, name: "Removal test" };
      expect(removed).toEqual({ at: clock.now().toISOString(), kind: "campaign_removed", campaign, detail: { reason: "removed" } });
      expect(added).toEqual({ at: addedAt, kind: "campaign_added", campaign, detail: {} });
    }
  });

  it("records campaign_removed with the campaign's name when the campaign is deleted; lists the campaigns a lead is in", async () => {
    const [a] = await leadsOf(["cd-a@example.com"]);
    const kept = await newCampaign("Kept campaign");
    const doomed = await newCampaign("Doomed campaign");
    await call(ADD_TO_CAMPAIGN, "POST", "", { key: ws.fullKey, params: { id: kept }, body: { leadIds: [a] } });
    tick();
    await call(ADD_TO_CAMPAIGN, "POST", "", { key: ws.fullKey, params: { id: doomed }, body: { leadIds: [a] } });
    const listed = await call(LEAD_CAMPAIGNS, "GET", "", { key: ws.readKey, params: { id: a } });
    expect(listed.body.campaigns.map((c: any) => [c.name, c.status, c.leadStatus, c.mailbox])).toEqual([
      ["Doomed campaign", "DRAFT", "ACTIVE", null],
      ["Kept campaign", "DRAFT", "ACTIVE", null],
    ]);
    tick();
    expect((await call(DELETE_CAMPAIGN, "DELETE", "", { cookie, params: { id: doomed } })).status).toBe(200);
    const [removed] = await events(a);
    expect(removed).toMatchObject({
      kind: "campaign_removed",
      campaign: { id: doomed, name: "Doomed campaign" },
      detail: { reason: "campaign_deleted" },
    });
    expect((await call(LEAD_CAMPAIGNS, "GET", "", { key: ws.readKey, params: { id: a } })).body.campaigns.map((c: any) => c.id)).toEqual([
      kept,
    ]);
    const client = await addMember(ws.workspaceId, "client");
    expect((await call(LEAD_CAMPAIGNS, "GET", "", { key: client.key, params: { id: a } })).status).toBe(403);
    expect((await call(LEAD_CAMPAIGNS, "GET", "", { key: ws.readKey, params: { id: "lead_nope" } })).status).toBe(404);
  });
});

describe("adding one lead by hand (the Add lead form's POST /leads)", () => {
  it("answers created, then updated for the same address in another case, merging only what was sent", async () => {
    const body = (lead: Record<string, unknown>) => ({ leads: [lead] });
    const first = await call(CREATE_LEADS, "POST", "/leads", {
      cookie,
      body: body({ email: "hand@example.com", firstName: "Hana", jobTitle: "CTO", customFields: { plan: "pro" } }),
    });
    expect(first.body).toMatchObject({ created: 1, updated: 0, leads: [{ email: "hand@example.com", status: "created" }] });
    const again = await call(CREATE_LEADS, "POST", "/leads", {
      cookie,
      body: body({ email: "HAND@Example.com", lastName: "Ito", customFields: { team: "7" } }),
    });
    expect(again.body).toMatchObject({ created: 0, updated: 1, leads: [{ id: first.body.leadIds[0], status: "updated" }] });
  });

  it("answers suppressed (no id) for a listed address, invalid with the reason for a malformed one, a warning for an unknown zone", async () => {
    await call(ADD_SUPPRESSIONS, "POST", "/suppressions", { key: ws.fullKey, body: { domains: ["blocked-hand.test"] } });
    const sup = await call(CREATE_LEADS, "POST", "/leads", { cookie, body: { leads: [{ email: "x@blocked-hand.test" }] } });
    expect(sup.body).toMatchObject({ created: 0, suppressed: 1, suppressedEmails: ["x@blocked-hand.test"], leadIds: [] });
    const bad = await call(CREATE_LEADS, "POST", "/leads", { cookie, body: { leads: [{ email: "not-an-address" }] } });
    expect(bad.body).toMatchObject({ created: 0, invalid: 1, invalidEmails: [{ index: 0, email: "not-an-address" }] });
    expect(bad.body.invalidEmails[0].reason).toMatch(/not-an-address/);
    const zone = await call(CREATE_LEADS, "POST", "/leads", {
      cookie,
      body: { leads: [{ email: "tz@example.com", timezone: "Mars/Base" }] },
    });
    expect(zone.body).toMatchObject({ created: 1, warnings: [{ field: "timezone" }] });
    const field = await call(CREATE_LEADS, "POST", "/leads", {
      cookie,
      body: { leads: [{ email: "cf@example.com", customFields: { "{bad}": "x" } }] },
    });
    expect([field.status, Object.keys(field.body.details.fieldErrors)]).toEqual([400, ["leads.0.customFields.{bad}"]]);
  });
});
