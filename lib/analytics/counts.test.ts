import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { selectRows } from "@/db/bulk";
import { getDb } from "@/db/client";
import { campaigns, emails, leads, replies } from "@/db/schema";
import { GET as BOUNCES } from "@/app/api/v1/analytics/bounces/route";
import { GET as DOMAIN_STATS } from "@/app/api/v1/analytics/domain-stats/route";
import { GET as MAILBOX_STATS } from "@/app/api/v1/analytics/mailbox-stats/route";
import { GET as MAILBOXES } from "@/app/api/v1/analytics/mailboxes/route";
import { GET as OVERVIEW } from "@/app/api/v1/analytics/overview/route";
import { GET as TIMESERIES } from "@/app/api/v1/analytics/timeseries/route";
import { GET as CAMPAIGN_STATS } from "@/app/api/v1/campaigns/[id]/stats/route";
import { GET as CAMPAIGN_SERIES } from "@/app/api/v1/campaigns/[id]/timeseries/route";
import { GET as SENT_TRENDS } from "@/app/api/v1/campaigns/sent-trends/route";
import { GET as LIST } from "@/app/api/v1/campaigns/route";
import { GET as ANALYTICS_CSV } from "@/app/api/v1/reports/analytics.csv/route";
import { GET as BRANDED } from "@/app/api/v1/reports/branded/route";
import { GET as CAMPAIGNS_CSV } from "@/app/api/v1/reports/campaigns.csv/route";
import { ManualClock, systemClock, useClock } from "@/lib/clock";
import { newId } from "@/lib/ids";
import { insertMailbox } from "@/test/factories";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { brandedReportSchema, bouncesSchema, domainStatsSchema, mailboxStatsSchema, overviewSchema, seriesSchema } from "./schemas";

const NOW = new Date("2026-11-10T12:00:00Z");
const daysAgo = (n: number, h = 0) => new Date(NOW.getTime() - n * 86_400_000 + h * 3_600_000);

type Send = {
  lead: number;
  mbx: number;
  cmp: number;
  at: Date;
  status?: "SENT" | "BOUNCED" | "FAILED" | "SENDING";
  bounce?: "HARD" | "SOFT";
  opened?: Date;
  clicked?: Date;
  reply?: { at: Date; intent: "INTERESTED" | "QUESTION" | "OUT_OF_OFFICE"; auto?: boolean };
};

/**
 * One data set per workspace: three mailboxes on two domains (a lead emailed by two mailboxes of one
 * domain is one lead of that domain), two campaigns, sends inside and outside the 30-day period, hard
 * and soft bounces (one before 2 Oct 2026), a refusal, a send still in flight, opens, clicks, person,
 * positive and automatic replies, a lead replying twice.
 */
const PLAN: Send[] = [
  { lead: 0, mbx: 0, cmp: 0, at: daysAgo(3), opened: daysAgo(3, 2), clicked: daysAgo(2), reply: { at: daysAgo(2), intent: "INTERESTED" } },
  { lead: 0, mbx: 0, cmp: 0, at: daysAgo(1), opened: daysAgo(1, 1), reply: { at: daysAgo(0, -1), intent: "QUESTION" } },
  { lead: 1, mbx: 1, cmp: 0, at: daysAgo(3), opened: daysAgo(1) },
  { lead: 1, mbx: 0, cmp: 0, at: daysAgo(2) },
  { lead: 2, mbx: 1, cmp: 0, at: daysAgo(5), status: "BOUNCED", bounce: "HARD" },
  { lead: 3, mbx: 2, cmp: 1, at: daysAgo(4), status: "BOUNCED", bounce: "SOFT" },
  { lead: 3, mbx: 2, cmp: 1, at: daysAgo(0, -2), status: "FAILED" },
  { lead: 4, mbx: 2, cmp: 1, at: daysAgo(6), reply: { at: daysAgo(5), intent: "OUT_OF_OFFICE", auto: true } },
  { lead: 5, mbx: 1, cmp: 1, at: daysAgo(45), status: "BOUNCED", bounce: "HARD", opened: daysAgo(44) },
  { lead: 5, mbx: 1, cmp: 1, at: daysAgo(40), reply: { at: daysAgo(20), intent: "INTERESTED" } },
  { lead: 2, mbx: 0, cmp: 1, at: daysAgo(0, -3), status: "SENDING" },
];

async function seed(ws: TestWorkspace, tag: string) {
  const db = getDb();
  const mbx = [
    await insertMailbox(ws.workspaceId, `a1@alpha-${tag}.test`, { dailySendCap: 3 }),
    await insertMailbox(ws.workspaceId, `a2@alpha-${tag}.test`, { dailySendCap: 10 }),
    await insertMailbox(ws.workspaceId, `b1@beta-${tag}.test`, { dailySendCap: 1, sendingEnabled: false }),
  ];
  const cmp = ["One", "Two"].map((name, i) => ({
    id: newId("cmp"),
    workspaceId: ws.workspaceId,
    name,
    trackOpens: i === 0,
    trackClicks: i === 0,
  }));
  await db.insert(campaigns).values(cmp);
  const ld = Array.from({ length: 6 }, (_, i) => ({ id: newId("lead"), workspaceId: ws.workspaceId, email: `l${i}@${tag}-lead.test` }));
  await db.insert(leads).values(ld);
  for (const s of PLAN) {
    const id = newId("eml");
    const status = s.status ?? "SENT";
    await db.insert(emails).values({
      id,
      workspaceId: ws.workspaceId,
      mailboxId: mbx[s.mbx].id,
      leadId: ld[s.lead].id,
      leadEmail: ld[s.lead].email,
      campaignId: cmp[s.cmp].id,
      stepOrder: 0,
      messageId: `<${randomUUID()}@x.test>`,
      subject: "s",
      status,
      bounceType: s.bounce ?? null,
      smtpCode: status === "BOUNCED" || status === "FAILED" ? "550 5.1.1" : null,
      smtpResponse: status === "BOUNCED" || status === "FAILED" ? "no such user" : null,
      createdAt: s.at,
      sentAt: status === "SENDING" ? null : s.at,
      openedAt: s.opened ?? null,
      clickedAt: s.clicked ?? null,
    });
    if (s.reply) {
      await db.insert(replies).values({
        id: newId("rep"),
        workspaceId: ws.workspaceId,
        mailboxId: mbx[s.mbx].id,
        leadId: ld[s.lead].id,
        campaignId: cmp[s.cmp].id,
        emailId: id,
        messageId: `<${randomUUID()}@lead.test>`,
        receivedAt: s.reply.at,
        intent: s.reply.intent,
        isAutoReply: s.reply.auto ?? false,
      });
    }
  }
  // Warmup mail is elsewhere; a non-campaign email (a test send) must not count either.
  await db.insert(emails).values({
    id: newId("eml"),
    workspaceId: ws.workspaceId,
    mailboxId: mbx[0].id,
    leadEmail: "someone@else.test",
    messageId: `<${randomUUID()}@x.test>`,
    subject: "test",
    status: "SENT",
    createdAt: daysAgo(1),
  });
  return { mbx, cmp };
}

/** The counts written plainly, as a reader would check them in psql. */
async function plain(workspaceId: string, where: string, from?: Date, to?: Date) {
  const p = (col: string) => (from && to ? `${col} >= '${from.toISOString()}' and ${col} < '${to.toISOString()}'` : `${col} is not null`);
  const base = `e.workspace_id = '${workspaceId}' and e.campaign_id is not null and ${where}`;
  const rbase = `r.workspace_id = '${workspaceId}' and r.campaign_id is not null and r.lead_id is not null and not r.is_auto_reply and ${where.replaceAll("e.", "r.")}`;
  const q = `select
    (select count(*) from emails e join mailboxes m on m.id = e.mailbox_id join domains d on d.id = m.domain_id
      where ${base} and e.status in ('SENT','BOUNCED') and ${p("e.created_at")})::int as sent,
    (select count(*) from emails e join mailboxes m on m.id = e.mailbox_id join domains d on d.id = m.domain_id
      where ${base} and e.status = 'BOUNCED' and ${p("e.created_at")})::int as bounced,
    (select count(*) from emails e join mailboxes m on m.id = e.mailbox_id join domains d on d.id = m.domain_id
      where ${base} and e.status = 'FAILED' and ${p("e.created_at")})::int as failed,
    (select count(distinct e.lead_email) from emails e join mailboxes m on m.id = e.mailbox_id join domains d on d.id = m.domain_id
      where ${base} and e.status in ('SENT','BOUNCED') and ${p("e.created_at")})::int as contacted,
    (select count(distinct e.lead_email) from emails e join mailboxes m on m.id = e.mailbox_id join domains d on d.id = m.domain_id
      where ${base} and ${p("e.opened_at")})::int as opened,
    (select count(distinct e.lead_email) from emails e join mailboxes m on m.id = e.mailbox_id join domains d on d.id = m.domain_id
      where ${base} and ${p("e.clicked_at")})::int as clicked,
    (select count(distinct r.lead_id) from replies r join mailboxes m on m.id = r.mailbox_id join domains d on d.id = m.domain_id
      where ${rbase} and ${p("r.received_at")})::int as replied,
    (select count(distinct r.lead_id) from replies r join mailboxes m on m.id = r.mailbox_id join domains d on d.id = m.domain_id
      where ${rbase} and r.intent = 'INTERESTED' and ${p("r.received_at")})::int as positive`;
  const [row] = await selectRows<Record<string, number>>(getDb(), sql.raw(q));
  return row;
}

const get = async (handler: any, path: string, key: string, params?: Record<string, string>) => {
  const r = await call(handler, "GET", path, { key, params });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
};

describe("one counting everywhere", () => {
  let a: TestWorkspace;
  let b: TestWorkspace;
  let seeded: Awaited<ReturnType<typeof seed>>;
  const from = daysAgo(30);
  beforeAll(async () => {
    useClock(new ManualClock(NOW));
    a = await makeWorkspace();
    b = await makeWorkspace();
    seeded = await seed(a, "a");
    await seed(b, "b");
    // Workspace b gets one more send, so a leak between workspaces would show in a's numbers.
    await getDb().execute(sql`update emails set status = 'SENT' where workspace_id = ${b.workspaceId} and status = 'SENDING'`);
  });
  afterAll(() => useClock(systemClock));

  it("the campaign list, GET /stats and plain SQL agree per campaign (lifetime numbers)", async () => {
    const list = (await get(LIST, "/campaigns", a.readKey)) as any[];
    expect(list).toHaveLength(2);
    for (const c of seeded.cmp) {
      const want = await plain(a.workspaceId, `e.campaign_id = '${c.id}'`);
      const listed = list.find((x) => x.id === c.id);
      const stats = await get(CAMPAIGN_STATS, "", a.readKey, { id: c.id });
      for (const s of [listed, stats]) {
        expect(s).toMatchObject({
          sentCount: want.sent,
          leadsContacted: want.contacted,
          openedCount: want.opened,
          clickedCount: want.clicked,
          repliedCount: want.replied,
          positiveCount: want.positive,
          bouncedCount: want.bounced,
          opensTracked: c.trackOpens,
        });
      }
    }
    const one = list.find((x) => x.id === seeded.cmp[0].id);
    // Campaign One: 5 sends to 3 leads, 2 opened, 1 clicked, 1 replied (twice), positive, 1 hard bounce.
    expect(one).toMatchObject({ sentCount: 5, leadsContacted: 3, openedCount: 2, clickedCount: 1, repliedCount: 1, positiveCount: 1 });
    expect(one).toMatchObject({ bouncedCount: 1, bouncedRate: 0.2, openedRate: 0.6667, repliedRate: 0.3333 });
  });

  it("the overview, time series, mailbox and domain stats, bounces and /analytics/mailboxes agree with plain SQL", async () => {
    const want = await plain(a.workspaceId, "true", from, NOW);
    const ov = overviewSchema.parse(await get(OVERVIEW, "/analytics/overview", a.readKey));
    expect(ov).toMatchObject({
      from: from.toISOString(),
      to: NOW.toISOString(),
      totalSent: want.sent,
      leadsContacted: want.contacted,
      totalOpened: want.opened,
      totalClicked: want.clicked,
      totalReplied: want.replied,
      totalPositive: want.positive,
      totalBounced: want.bounced,
      totalLeads: 6,
      totalMailboxes: 3,
      opensTracked: true,
    });
    expect(ov.totalSent).toBe(7);
    expect(ov.totalReplied).toBe(2); // l0 (twice) and l5, whose reply came in the period although the send did not

    // Same period as from/to; the series' day rows add up to the email counts.
    const series = seriesSchema.parse(
      await get(TIMESERIES, `/analytics/timeseries?from=${from.toISOString()}&to=${NOW.toISOString()}`, a.readKey),
    );
    expect(series.days[0].date).toBe(from.toISOString().slice(0, 10));
    expect(series.days.reduce((n, d) => n + d.sent, 0)).toBe(want.sent);
    expect(series.days.reduce((n, d) => n + d.bounced, 0)).toBe(want.bounced);
    for (const d of series.days) {
      const dayFrom = new Date(`${d.date}T00:00:00Z`);
      const dayTo = new Date(dayFrom.getTime() + 86_400_000);
      const w = await plain(a.workspaceId, "true", dayFrom < from ? from : dayFrom, dayTo > NOW ? NOW : dayTo);
      expect([d.date, d.sent, d.opened, d.clicked, d.replied, d.positive]).toEqual([
        d.date,
        w.sent,
        w.opened,
        w.clicked,
        w.replied,
        w.positive,
      ]);
    }

    const ms = mailboxStatsSchema.parse(await get(MAILBOX_STATS, "/analytics/mailbox-stats", a.readKey));
    for (const m of ms.mailboxes) {
      const w = await plain(a.workspaceId, `e.mailbox_id = '${m.id}'`, from, NOW);
      expect(m).toMatchObject({ sent: w.sent, bounced: w.bounced, failed: w.failed, leadsContacted: w.contacted, opened: w.opened });
      expect(m).toMatchObject({ clicked: w.clicked, replied: w.replied, positive: w.positive });
    }
    const byEmail = Object.fromEntries(ms.mailboxes.map((m) => [m.emailAddress.split("@")[0], m]));
    // Sparklines: sent per UTC day over the last 14 days, today included.
    const sparkFrom = new Date("2026-10-28T00:00:00Z");
    const sparkTo = new Date("2026-11-11T00:00:00Z");
    expect(byEmail.a1.sentDaily).toEqual([...Array(10).fill(0), 1, 1, 1, 0]);
    for (const m of ms.mailboxes) {
      const w = await plain(a.workspaceId, `e.mailbox_id = '${m.id}'`, sparkFrom, sparkTo);
      expect([m.emailAddress, m.sentDaily.reduce((n, x) => n + x, 0)]).toEqual([m.emailAddress, w.sent]);
    }
    expect(byEmail.a1).toMatchObject({ sent: 3, activity: "active", sentLast7Days: 3 });
    expect(byEmail.a2).toMatchObject({ sent: 2, bouncedHard: 1, bouncedSoft: 0, activity: "low_activity" });
    expect(byEmail.b1).toMatchObject({ sent: 2, bouncedSoft: 1, failed: 1, activity: "not_sending" });

    const ds = domainStatsSchema.parse(await get(DOMAIN_STATS, "/analytics/domain-stats", a.readKey));
    for (const d of ds.domains) {
      const w = await plain(a.workspaceId, `d.domain = '${d.domain}'`, from, NOW);
      expect(d).toMatchObject({ sent: w.sent, leadsContacted: w.contacted, opened: w.opened, replied: w.replied, bounced: w.bounced });
    }
    const alpha = ds.domains.find((d) => d.domain.startsWith("alpha"))!;
    expect(alpha.sentDaily.reduce((n, x) => n + x, 0)).toBe(5);
    // Lead l1 was emailed by both alpha mailboxes: one lead of the domain, two of its mailboxes' rows.
    expect(alpha.leadsContacted).toBe(3);
    expect(byEmail.a1.leadsContacted + byEmail.a2.leadsContacted).toBe(4);
    expect(alpha).toMatchObject({ mailboxes: 2, activity: "active" });

    const bounces = bouncesSchema.parse(await get(BOUNCES, "/analytics/bounces", a.readKey));
    expect(bounces.total).toBe(ov.totalBounced);
    expect(bounces.bounces.map((x) => x.kind)).toEqual(["soft", "hard"]); // newest first
    expect(bounces.bounces[0]).toMatchObject({ code: "550 5.1.1", reason: "no such user", campaign: { name: "Two" } });
    const failed = bouncesSchema.parse(await get(BOUNCES, "/analytics/bounces?kind=failed", a.readKey));
    expect(failed.total).toBe(want.failed);

    const mb = (await get(MAILBOXES, "/analytics/mailboxes", a.readKey)).mailboxes as any[];
    for (const m of mb) {
      const row = ms.mailboxes.find((x) => x.id === m.id)!;
      expect([m.sent30d, m.bounced30d]).toEqual([row.sent, row.bounced]);
    }
  });

  it("activity and sentLast7Days are the last 7 days whatever the period; a domain's is the best of its mailboxes'", async () => {
    // A period two months back: other numbers, the same activity.
    const q = "?from=2026-09-11&to=2026-10-06";
    const ms = mailboxStatsSchema.parse(await get(MAILBOX_STATS, `/analytics/mailbox-stats${q}`, a.readKey));
    const byEmail = Object.fromEntries(ms.mailboxes.map((m) => [m.emailAddress.split("@")[0], m]));
    expect(byEmail.a1).toMatchObject({ sent: 0, activity: "active", sentLast7Days: 3 });
    expect(byEmail.a2).toMatchObject({ sent: 2, activity: "low_activity", sentLast7Days: 2 });
    expect(byEmail.b1).toMatchObject({ sent: 0, activity: "not_sending" });
    const ds = domainStatsSchema.parse(await get(DOMAIN_STATS, `/analytics/domain-stats${q}`, a.readKey));
    const alpha = ds.domains.find((d) => d.domain.startsWith("alpha"))!;
    expect(alpha).toMatchObject({ sent: 2, activity: "active", sentLast7Days: 5 });
    expect(ds.domains.find((d) => d.domain.startsWith("beta"))).toMatchObject({ activity: "not_sending" });
  });

  it("the campaign time series and sent-trends count as the overview does", async () => {
    const c = seeded.cmp[0];
    const ts = await get(CAMPAIGN_SERIES, "/campaigns/x/timeseries?days=7", a.readKey, { id: c.id });
    const want = await plain(
      a.workspaceId,
      `e.campaign_id = '${c.id}'`,
      new Date("2026-11-04T00:00:00Z"),
      new Date("2026-11-11T00:00:00Z"),
    );
    expect(ts.series.reduce((n: number, d: any) => n + d.sent, 0)).toBe(want.sent);
    const trends = await get(SENT_TRENDS, "/campaigns/sent-trends?days=7", a.readKey);
    expect(trends.trends[c.id].reduce((n: number, x: number) => n + x, 0)).toBe(want.sent);
    expect(ts.series.map((d: any) => d.sent)).toEqual(trends.trends[c.id]);
  });

  it("campaigns.csv, analytics.csv and the branded report carry the same numbers", async () => {
    // These reports hold no quoted cells, so splitting is enough to read them back.
    const read = async (handler: any, path: string) => {
      const r = await call(handler, "GET", path, { key: a.readKey });
      expect(r.status).toBe(200);
      const [head, ...rows] = (r.body as string)
        .trimEnd()
        .split("\r\n")
        .map((l) => l.split(","));
      return rows.map((row) => Object.fromEntries(head.map((h, i) => [h, row[i]])));
    };
    const list = (await get(LIST, "/campaigns", a.readKey)) as any[];
    const csv = await read(CAMPAIGNS_CSV, "/reports/campaigns.csv");
    const branded = brandedReportSchema.parse(await get(BRANDED, "/reports/branded", a.readKey)) as any;
    for (const c of list) {
      const row = csv.find((x) => x.id === c.id)!;
      const fromBranded = branded.campaigns.find((x: any) => x.id === c.id);
      for (const k of ["sentCount", "leadsContacted", "openedCount", "repliedCount", "positiveCount", "bouncedCount", "bouncedRate"]) {
        expect([k, Number(row[k]), fromBranded[k]]).toEqual([k, c[k], c[k]]);
      }
      expect(row.opensTracked).toBe(String(c.opensTracked));
    }
    const ov = await get(OVERVIEW, "/analytics/overview", a.readKey);
    const days = await read(ANALYTICS_CSV, "/reports/analytics.csv");
    const total = days.pop()!;
    expect(total.date).toBe("total");
    expect(days).toHaveLength(31); // 30 days back from noon touch 31 UTC days
    for (const k of ["totalSent", "leadsContacted", "totalOpened", "totalReplied", "totalPositive", "totalBounced", "replyRate"]) {
      expect([k, Number(total[k]), branded.overview[k]]).toEqual([k, ov[k], ov[k]]);
    }
    expect(days.reduce((n, d) => n + Number(d.totalSent), 0)).toBe(ov.totalSent);
    expect(branded.period).toEqual({ from: ov.from, to: ov.to });
  });

  it("bounces before 2 Oct 2026 have no code or reason", async () => {
    const old = await get(BOUNCES, "/analytics/bounces?from=2026-09-20&to=2026-10-01", a.readKey);
    expect(old.bounces).toHaveLength(1);
    expect(old.bounces[0]).toMatchObject({ kind: "hard", code: null, reason: null, stepOrder: 0 });
  });

  it("bad periods are 400 VALIDATION_ERROR on their field", async () => {
    const bad = [
      ["/analytics/overview?from=2026-13-01", "from"],
      ["/analytics/overview?from=2026-02-30&to=2026-03-02", "from"],
      ["/analytics/overview?from=2026-11-01&to=2026-10-01", "to"],
      ["/analytics/overview?from=2024-01-01&to=2026-01-01", "to"],
      ["/analytics/overview?from=2024-01-01", "from"],
      ["/analytics/overview?days=400", "days"],
      ["/analytics/overview?days=7&from=2026-11-01", "days"],
      ["/analytics/timeseries?days=91", "days"],
      ["/analytics/bounces?limit=201", "limit"],
      ["/analytics/bounces?kind=spam", "kind"],
    ];
    for (const [path, field] of bad) {
      const handler = path.includes("timeseries") ? TIMESERIES : path.includes("bounces") ? BOUNCES : OVERVIEW;
      const r = await call(handler, "GET", path, { key: a.readKey });
      expect([path, r.status, r.body.code]).toEqual([path, 400, "VALIDATION_ERROR"]);
      expect(Object.keys(r.body.details.fieldErrors), path).toContain(field);
    }
    // A bare date is midnight UTC and `to` is exclusive.
    const day = await get(OVERVIEW, "/analytics/overview?from=2026-11-07&to=2026-11-08", a.readKey);
    expect(day).toMatchObject({ from: "2026-11-07T00:00:00.000Z", to: "2026-11-08T00:00:00.000Z", totalSent: 2 });
  });
});
