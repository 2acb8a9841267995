import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { campaigns, domains, emails, leads } from "@/db/schema";
import { addMember, call, makeWorkspace, sessionCookie, type TestWorkspace } from "@/test/helpers";
import { insertMailbox } from "@/test/factories";
import { POST as CREATE_LEADS } from "../leads/route";
import { GET as LIST, POST as CREATE } from "./route";
import { DELETE, GET as GET_ONE, PATCH } from "./[id]/route";
import { GET as GET_SETTINGS, PATCH as PATCH_SETTINGS } from "./[id]/settings/route";
import { PATCH as STATUS } from "./[id]/status/route";
import { GET as DELETE_PREVIEW } from "./[id]/delete-preview/route";
import { POST as DUPLICATE } from "./[id]/duplicate/route";
import { PATCH as BULK_SETTINGS } from "./bulk-settings/route";
import { POST as BULK_ARCHIVE } from "./bulk-archive/route";
import { GET as LAUNCH_CHECK } from "./[id]/launch-check/route";
import { GET as STEPS, POST as CREATE_STEP } from "./[id]/steps/route";
import { POST as ADD_ATTACHMENT } from "./[id]/steps/[stepId]/attachments/route";
import { GET as ATTACHMENTS } from "./[id]/steps/[stepId]/attachments/route";
import { POST as ADD_LEADS, GET as CAMPAIGN_LEADS } from "./[id]/leads/route";
import { GET as POOL, PUT as PUT_POOL } from "./[id]/mailboxes/route";

let ws: TestWorkspace;
beforeAll(async () => {
  ws = await makeWorkspace();
});

const create = (body: Record<string, unknown>, key = ws.fullKey) => call(CREATE, "POST", "/campaigns", { key, body });
const p = (id: string, extra: Record<string, string> = {}) => ({ params: { id, ...extra } });

async function campaignWithEverything(name = "Full") {
  const c = (await create({ name, defaultTimezone: "Europe/Berlin" })).body;
  await call(CREATE_STEP, "POST", "", {
    key: ws.fullKey,
    ...p(c.id),
    body: { subject: "Hi {{firstName}}", bodyTemplate: "Hello {{firstName}}" },
  });
  // A sender with nothing to warn about: steady warmup on a domain whose SPF, DKIM and DMARC pass.
  const m = await insertMailbox(ws.workspaceId, `sender-${c.id.slice(-6)}@pool.test`, { warmupStatus: "STEADY" });
  await getDb()
    .update(domains)
    .set({ spfStatus: "PASS", dkimStatus: "PASS", dmarcStatus: "PASS", lastCheckedAt: new Date() })
    .where(eq(domains.id, m.domainId));
  await call(PUT_POOL, "PUT", "", { key: ws.fullKey, ...p(c.id), body: { mailboxIds: [m.id] } });
  const leadIds = (
    await call(CREATE_LEADS, "POST", "/leads", {
      key: ws.fullKey,
      body: { leads: [{ email: `a-${c.id}@x.test`, firstName: "A", timezone: "Europe/Paris" }] },
    })
  ).body.leadIds;
  await call(ADD_LEADS, "POST", "", { key: ws.fullKey, ...p(c.id), body: { leadIds } });
  return { c, m, leadIds };
}

describe("POST /campaigns and settings", () => {
  it("creates a DRAFT with the documented defaults", async () => {
    const r = await create({ name: "Q4 outbound" });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      name: "Q4 outbound",
      status: "DRAFT",
      folder: null,
      sendWindowStartHour: 9,
      sendWindowEndHour: 17,
      sendDaysOfWeek: [1, 2, 3, 4, 5],
      startAt: null,
      dailyNewLeadCap: null,
      defaultTimezone: null,
      abVariantOptimization: false,
      trackOpens: false,
      trackClicks: false,
      stopOnReply: true,
      stopOnAutoReply: false,
      unsubscribeHeader: true,
      textOnly: false,
      espMatching: "OFF",
      minGapMinutes: 9,
      sentCount: 0,
      leadsContacted: 0,
      openedRate: 0,
      repliedCount: 0,
      bouncedRate: 0,
      opensTracked: false,
      clicksTracked: false,
    });
    expect(r.body.id).toMatch(/^cmp_/);
  });

  it("rejects an unknown defaultTimezone, a cap out of range, a startAt without offset and an inverted window", async () => {
    const tz = await create({ name: "x", defaultTimezone: "Mars/Base" });
    expect(tz.status).toBe(400);
    expect(tz.body.details.fieldErrors.defaultTimezone[0]).toContain("unknown timezone");
    expect((await create({ name: "x", dailyNewLeadCap: 0 })).status).toBe(400);
    expect((await create({ name: "x", dailyNewLeadCap: 100_001 })).status).toBe(400);
    expect((await create({ name: "x", startAt: "2026-12-01T09:00:00" })).body.details.fieldErrors.startAt).toBeDefined();
    expect(
      (await create({ name: "x", sendWindowStartHour: 17, sendWindowEndHour: 9 })).body.details.fieldErrors.sendWindowEndHour,
    ).toBeDefined();
    expect((await create({ name: "x", sendDaysOfWeek: [7] })).status).toBe(400);
  });

  it("changes only the sent settings, and checks the window against the stored half", async () => {
    const c = (await create({ name: "S", dailyNewLeadCap: 50, folder: "EU" })).body;
    const r = await call(PATCH_SETTINGS, "PATCH", "", {
      key: ws.fullKey,
      ...p(c.id),
      body: { trackOpens: true, startAt: "2026-12-01T09:00:00+01:00" },
    });
    expect(r.body).toMatchObject({
      trackOpens: true,
      opensTracked: true,
      dailyNewLeadCap: 50,
      folder: "EU",
      startAt: "2026-12-01T08:00:00.000Z",
    });
    const cleared = await call(PATCH, "PATCH", "", {
      key: ws.fullKey,
      ...p(c.id),
      body: { startAt: null, dailyNewLeadCap: null, folder: "" },
    });
    expect(cleared.body).toMatchObject({ startAt: null, dailyNewLeadCap: null, folder: null });
    const bad = await call(PATCH_SETTINGS, "PATCH", "", { key: ws.fullKey, ...p(c.id), body: { sendWindowStartHour: 17 } });
    expect(bad.status).toBe(400);
    const s = await call(GET_SETTINGS, "GET", "", { key: ws.readKey, ...p(c.id) });
    expect(s.body).toMatchObject({ sendWindowStartHour: 9, trackOpens: true });
    expect((await call(PATCH, "PATCH", "", { key: ws.readKey, ...p(c.id), body: { name: "no" } })).status).toBe(403);
  });

  it("keeps holiday, blackout and out-of-office settings; a blackout date that is not a day is refused by name", async () => {
    const c = (await create({ name: "H" })).body;
    expect(c).toMatchObject({ skipHolidays: false, blackoutDates: [], oooResume: true, oooDefaultPauseDays: 7 });
    const r = await call(PATCH_SETTINGS, "PATCH", "", {
      key: ws.fullKey,
      ...p(c.id),
      body: { skipHolidays: true, blackoutDates: ["2026-12-31", "2026-12-24", "2026-12-31"], oooResume: false, oooDefaultPauseDays: 14 },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const s = await call(GET_SETTINGS, "GET", "", { key: ws.readKey, ...p(c.id) });
    expect(s.body).toMatchObject({
      skipHolidays: true,
      blackoutDates: ["2026-12-24", "2026-12-31"],
      oooResume: false,
      oooDefaultPauseDays: 14,
    });
    const bad = await call(PATCH_SETTINGS, "PATCH", "", { key: ws.fullKey, ...p(c.id), body: { blackoutDates: ["24.12.2026"] } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("VALIDATION_ERROR");
    expect(JSON.stringify(bad.body.details)).toContain("blackoutDates");
    const zero = await call(PATCH_SETTINGS, "PATCH", "", { key: ws.fullKey, ...p(c.id), body: { oooDefaultPauseDays: 0 } });
    expect(zero.status).toBe(400);
    expect((await call(GET_SETTINGS, "GET", "", { key: ws.readKey, ...p(c.id) })).body.oooDefaultPauseDays).toBe(14);
  });
});

describe("GET /campaigns", () => {
  it("is a plain array with headers, filtered by name, folder (empty = none) and a status list", async () => {
    const own = await makeWorkspace();
    const mk = async (name: string, folder?: string) => (await create({ name, ...(folder ? { folder } : {}) }, own.fullKey)).body;
    const a = await mk("Alpha launch", "EU");
    const b = await mk("Beta", "US");
    const g = await mk("Gamma launch");
    await call(STATUS, "PATCH", "", { key: own.fullKey, ...p(b.id), body: { status: "PAUSED" } });
    const all = await call(LIST, "GET", "/campaigns", { key: own.readKey });
    expect(all.body.map((c: any) => c.name)).toEqual(["Gamma launch", "Beta", "Alpha launch"]);
    expect([all.headers.get("X-Total-Count"), all.headers.get("X-Page"), all.headers.get("X-Limit")]).toEqual(["3", "1", "500"]);
    expect((await call(LIST, "GET", "/campaigns?q=launch", { key: own.readKey })).body.map((c: any) => c.id)).toEqual([g.id, a.id]);
    expect((await call(LIST, "GET", "/campaigns?folder=EU", { key: own.readKey })).body.map((c: any) => c.id)).toEqual([a.id]);
    expect((await call(LIST, "GET", "/campaigns?folder=", { key: own.readKey })).body.map((c: any) => c.id)).toEqual([g.id]);
    expect((await call(LIST, "GET", "/campaigns?status=PAUSED,ARCHIVED", { key: own.readKey })).body.map((c: any) => c.id)).toEqual([b.id]);
    expect((await call(LIST, "GET", "/campaigns?status=DONE", { key: own.readKey })).status).toBe(400);
    expect(all.body[0]).toMatchObject({ sentCount: 0, leadsContacted: 0, bouncedCount: 0, opensTracked: false });
  });
});

describe("PATCH /campaigns/<id>/status and the launch check", () => {
  it("refuses DRAFT as a target", async () => {
    const c = (await create({ name: "d" })).body;
    const r = await call(STATUS, "PATCH", "", { key: ws.fullKey, ...p(c.id), body: { status: "DRAFT" } });
    expect(r.status).toBe(400);
  });

  it("answers 409 LAUNCH_NEEDS_CONFIRMATION with the report when blockers remain, and activates with confirm", async () => {
    const c = (await create({ name: "empty" })).body;
    const r = await call(STATUS, "PATCH", "", { key: ws.fullKey, ...p(c.id), body: { status: "ACTIVE" } });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe("LAUNCH_NEEDS_CONFIRMATION");
    expect(r.body.ready).toBe(false);
    expect(r.body.blockers.map((b: any) => b.code)).toEqual(["NO_STEPS", "NO_LEADS", "NO_ELIGIBLE_MAILBOX"]);
    expect(r.body.details.blockers).toHaveLength(3);
    expect((await call(GET_ONE, "GET", "", { key: ws.readKey, ...p(c.id) })).body.status).toBe("DRAFT");
    const ok = await call(STATUS, "PATCH", "", { key: ws.fullKey, ...p(c.id), body: { status: "ACTIVE", confirm: true } });
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe("ACTIVE");
    for (const s of ["PAUSED", "ARCHIVED", "PAUSED"])
      expect((await call(STATUS, "PATCH", "", { key: ws.fullKey, ...p(c.id), body: { status: s } })).body.status).toBe(s);
  });

  it("activates a ready campaign without confirmation", async () => {
    const { c } = await campaignWithEverything("Ready");
    const report = await call(LAUNCH_CHECK, "GET", "", { key: ws.readKey, ...p(c.id) });
    expect(report.body).toEqual({ ready: true, blockers: [], warnings: [] });
    const r = await call(STATUS, "PATCH", "", { key: ws.fullKey, ...p(c.id), body: { status: "ACTIVE" } });
    expect(r.status).toBe(200);
    expect(r.body.launchReport.ready).toBe(true);
  });

  it("blocks on raw template tokens and asks to confirm warming mailboxes", async () => {
    const { c, m } = await campaignWithEverything("Tokens");
    await call(CREATE_STEP, "POST", "", {
      key: ws.fullKey,
      ...p(c.id),
      body: { bodyTemplate: "Following up, {{frstName}}", delayHoursAfterPrevious: 48 },
    });
    const r = await call(LAUNCH_CHECK, "GET", "", { key: ws.readKey, ...p(c.id) });
    expect(r.body.blockers).toEqual([{ code: "TEMPLATE_TOKENS", message: expect.stringContaining("{{frstName}}") }]);
    const { c: c2, m: m2 } = await campaignWithEverything("Warming");
    await getDb()
      .update((await import("@/db/schema")).mailboxes)
      .set({ warmupStatus: "EARLY" })
      .where(eq((await import("@/db/schema")).mailboxes.id, m2.id));
    const w = await call(STATUS, "PATCH", "", { key: ws.fullKey, ...p(c2.id), body: { status: "ACTIVE" } });
    expect(w.status).toBe(409);
    expect(w.body.blockers).toEqual([]);
    expect(w.body.warnings.map((x: any) => x.code)).toEqual(["WARMING_MAILBOXES"]);
    expect(m.id).not.toBe(m2.id);
  });

  it("warns about pool mailboxes that cannot send, unassigned leads, missing timezone and a future start", async () => {
    const c = (await create({ name: "Warnings", startAt: "2099-01-01T00:00:00Z" })).body;
    await call(CREATE_STEP, "POST", "", { key: ws.fullKey, ...p(c.id), body: { subject: "s", bodyTemplate: "b" } });
    const leadIds = (await call(CREATE_LEADS, "POST", "/leads", { key: ws.fullKey, body: { leads: [{ email: "w1@x.test" }] } })).body
      .leadIds;
    await call(ADD_LEADS, "POST", "", { key: ws.fullKey, ...p(c.id), body: { leadIds } }); // empty pool: added unassigned
    const good = await insertMailbox(ws.workspaceId, "good@warn.test");
    const broken = await insertMailbox(ws.workspaceId, "broken@warn.test", { loginFailingSince: new Date(), loginError: "535" });
    await call(PUT_POOL, "PUT", "", { key: ws.fullKey, ...p(c.id), body: { mailboxIds: [good.id, broken.id] } });
    const r = await call(LAUNCH_CHECK, "GET", "", { key: ws.readKey, ...p(c.id) });
    expect(r.body.ready).toBe(true);
    const deliverability = ["DOMAIN_NOT_AUTHENTICATED", "MAILBOX_NOT_WARMED"]; // launch-deliverability.test.ts covers those
    expect(r.body.warnings.map((x: any) => x.code).filter((code: string) => !deliverability.includes(code))).toEqual([
      "MAILBOXES_CANNOT_SEND",
      "LEADS_WITHOUT_MAILBOX",
      "NO_TIMEZONE",
      "SCHEDULED_START",
    ]);
    expect(r.body.warnings[0].message).toContain("broken@warn.test");
  });

  it("warns about blackout dates and the leads' countries' public holidays in the two weeks after the start", async () => {
    const c = (
      await create({ name: "Skips", startAt: "2027-12-20T00:00:00Z", skipHolidays: true, blackoutDates: ["2027-12-24", "2028-02-01"] })
    ).body;
    const leadIds = (
      await call(CREATE_LEADS, "POST", "/leads", {
        key: ws.fullKey,
        body: {
          leads: [
            { email: "sk1@x.test", timezone: "Europe/Berlin" },
            { email: "sk2@x.test", customFields: { country: "FR" } },
          ],
        },
      })
    ).body.leadIds;
    await call(ADD_LEADS, "POST", "", { key: ws.fullKey, ...p(c.id), body: { leadIds } });
    const r = await call(LAUNCH_CHECK, "GET", "", { key: ws.readKey, ...p(c.id) });
    const skipped = r.body.warnings.find((x: any) => x.code === "SKIPPED_DAYS");
    expect(skipped?.message).toMatch(/^In the next 14 days nothing is sent on blackout dates 2027-12-24; /);
    expect(skipped.message).toContain("DE (1 lead): 2027-12-25");
    expect(skipped.message).toContain("FR (1 lead): 2027-12-25");
    expect(skipped.message).toContain("2028-01-01");
    expect(skipped.message).not.toContain("2028-02-01"); // outside the two weeks
    await call(PATCH_SETTINGS, "PATCH", "", { key: ws.fullKey, ...p(c.id), body: { skipHolidays: false, blackoutDates: [] } });
    const none = await call(LAUNCH_CHECK, "GET", "", { key: ws.readKey, ...p(c.id) });
    expect(none.body.warnings.map((x: any) => x.code)).not.toContain("SKIPPED_DAYS");
  });
});

describe("DELETE /campaigns/<id> and the delete preview", () => {
  it("is for owners and admins only", async () => {
    const c = (await create({ name: "del" })).body;
    const member = await addMember(ws.workspaceId, "member");
    expect((await call(DELETE, "DELETE", "", { key: member.key, ...p(c.id) })).status).toBe(403);
    expect((await call(DELETE_PREVIEW, "GET", "", { key: member.key, ...p(c.id) })).status).toBe(403);
    const admin = await addMember(ws.workspaceId, "admin");
    expect((await call(DELETE, "DELETE", "", { key: admin.key, ...p(c.id) })).body).toMatchObject({
      deleted: true,
      id: c.id,
      leadsDeleted: 0,
      leadsKept: 0,
    });
  });

  it("through an API key deletes only a DRAFT that never sent, and never with deleteLeads", async () => {
    const c = (await create({ name: "active" })).body;
    await call(STATUS, "PATCH", "", { key: ws.fullKey, ...p(c.id), body: { status: "PAUSED" } });
    const r = await call(DELETE, "DELETE", "/campaigns/x?deleteLeads=false", { key: ws.fullKey, ...p(c.id) });
    expect(r.status).toBe(409);
    expect(r.body.error).toContain("archive");
    const d = (await create({ name: "draft-with-send" })).body;
    const m = await insertMailbox(ws.workspaceId, "hist@del.test");
    await getDb().insert(emails).values({
      id: "eml_del1",
      workspaceId: ws.workspaceId,
      mailboxId: m.id,
      leadEmail: "l@x.test",
      campaignId: d.id,
      messageId: "<d@x>",
      subject: "s",
      status: "SENT",
    });
    expect((await call(DELETE, "DELETE", "", { key: ws.fullKey, ...p(d.id) })).status).toBe(409);
    const e = (await create({ name: "draft" })).body;
    expect((await call(DELETE, "DELETE", "/campaigns/x?deleteLeads=true", { key: ws.fullKey, ...p(e.id) })).status).toBe(403);
  });

  it("from the dashboard deletes leads in no other campaign with deleteLeads=true, keeping sent emails", async () => {
    const a = (await create({ name: "A" })).body;
    const b = (await create({ name: "B" })).body;
    const ids = (
      await call(CREATE_LEADS, "POST", "/leads", {
        key: ws.fullKey,
        body: { leads: [{ email: "only@del.test" }, { email: "both@del.test" }] },
      })
    ).body.leadIds;
    await call(ADD_LEADS, "POST", "", { key: ws.fullKey, ...p(a.id), body: { leadIds: ids } });
    await call(ADD_LEADS, "POST", "", { key: ws.fullKey, ...p(b.id), body: { leadIds: [ids[1]] } });
    const m = await insertMailbox(ws.workspaceId, "keep@del.test");
    await getDb().insert(emails).values({
      id: "eml_del2",
      workspaceId: ws.workspaceId,
      mailboxId: m.id,
      leadId: ids[0],
      leadEmail: "only@del.test",
      campaignId: a.id,
      messageId: "<k@x>",
      subject: "s",
      status: "SENT",
    });
    await getDb().update(campaigns).set({ status: "ACTIVE", firstSentAt: new Date() }).where(eq(campaigns.id, a.id));
    const cookie = await sessionCookie(ws.userId);
    expect((await call(DELETE_PREVIEW, "GET", "", { cookie, ...p(a.id) })).body).toEqual({
      leadsOnlyHere: 1,
      leadsInOtherCampaigns: 1,
      sends: 1,
      replies: 0,
    });
    const r = await call(DELETE, "DELETE", "/campaigns/x?deleteLeads=true", { cookie, ...p(a.id) });
    expect(r.body).toEqual({ deleted: true, id: a.id, leadsDeleted: 1, leadsKept: 1 });
    expect((await getDb().select().from(leads).where(eq(leads.id, ids[0]))).length).toBe(0);
    expect((await getDb().select().from(leads).where(eq(leads.id, ids[1]))).length).toBe(1);
    const [kept] = await getDb().select().from(emails).where(eq(emails.id, "eml_del2"));
    expect(kept).toMatchObject({ leadId: null, leadEmail: "only@del.test", campaignId: a.id });
    expect((await call(GET_ONE, "GET", "", { key: ws.readKey, ...p(a.id) })).status).toBe(404);
  });
});

describe("duplicate, bulk settings, bulk archive", () => {
  it("copies steps, settings, attachments and the pool into a DRAFT, without leads", async () => {
    const { c } = await campaignWithEverything("Source");
    await call(PATCH_SETTINGS, "PATCH", "", { key: ws.fullKey, ...p(c.id), body: { dailyNewLeadCap: 30, trackClicks: true } });
    const step = (await call(STEPS, "GET", "", { key: ws.readKey, ...p(c.id) })).body.steps[0];
    await call(ADD_ATTACHMENT, "POST", "", {
      key: ws.fullKey,
      ...p(c.id, { stepId: step.id }),
      body: { filename: "deck.pdf", contentType: "application/pdf", contentBase64: Buffer.from("%PDF-1.4 test").toString("base64") },
    });
    await call(STATUS, "PATCH", "", { key: ws.fullKey, ...p(c.id), body: { status: "ACTIVE" } });
    const r = await call(DUPLICATE, "POST", "", { key: ws.fullKey, ...p(c.id), body: { name: "Copy", folder: "Copies" } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      name: "Copy",
      folder: "Copies",
      status: "DRAFT",
      dailyNewLeadCap: 30,
      trackClicks: true,
      defaultTimezone: "Europe/Berlin",
    });
    const steps = (await call(STEPS, "GET", "", { key: ws.readKey, ...p(r.body.id) })).body.steps;
    expect(steps.map((s: any) => s.subject)).toEqual(["Hi {{firstName}}"]);
    const atts = (await call(ATTACHMENTS, "GET", "", { key: ws.readKey, ...p(r.body.id, { stepId: steps[0].id }) })).body.attachments;
    expect(atts.map((a: any) => a.filename)).toEqual(["deck.pdf"]);
    expect((await call(POOL, "GET", "", { key: ws.readKey, ...p(r.body.id) })).body.poolSize).toBe(1);
    expect((await call(CAMPAIGN_LEADS, "GET", "", { key: ws.readKey, ...p(r.body.id) })).body.total).toBe(0);
    const noPool = await call(DUPLICATE, "POST", "", { key: ws.fullKey, ...p(c.id), body: { name: "Copy 2", includeMailboxPool: false } });
    expect((await call(POOL, "GET", "", { key: ws.readKey, ...p(noPool.body.id) })).body.poolSize).toBe(0);
  });

  it("bulk settings report updated, failed and notFound; bulk archive archives", async () => {
    const a = (await create({ name: "b1" })).body;
    const b = (await create({ name: "b2", sendWindowEndHour: 10, sendWindowStartHour: 8 })).body;
    const r = await call(BULK_SETTINGS, "PATCH", "/campaigns/bulk-settings", {
      key: ws.fullKey,
      body: { campaignIds: [a.id, b.id, "cmp_nope"], settings: { sendWindowStartHour: 12, trackOpens: true } },
    });
    expect(r.body.updated).toBe(1);
    expect(r.body.failed).toEqual([{ id: b.id, error: expect.stringContaining("window") }]);
    expect(r.body.notFound).toEqual(["cmp_nope"]);
    expect((await call(GET_ONE, "GET", "", { key: ws.readKey, ...p(a.id) })).body).toMatchObject({
      sendWindowStartHour: 12,
      trackOpens: true,
    });
    const tooMany = await call(BULK_SETTINGS, "PATCH", "/campaigns/bulk-settings", {
      key: ws.fullKey,
      body: { campaignIds: Array.from({ length: 501 }, (_, i) => `cmp_${i}`), settings: { trackOpens: true } },
    });
    expect(tooMany.status).toBe(400);
    const arch = await call(BULK_ARCHIVE, "POST", "/campaigns/bulk-archive", {
      key: ws.fullKey,
      body: { campaignIds: [a.id, "cmp_nope"] },
    });
    expect(arch.body).toEqual({ archived: 1, notFound: ["cmp_nope"] });
    expect((await call(GET_ONE, "GET", "", { key: ws.readKey, ...p(a.id) })).body.status).toBe("ARCHIVED");
  });
});
