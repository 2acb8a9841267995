import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql as dsql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { selectRows } from "@/db/bulk";
import { getDb } from "@/db/client";
import { campaigns, leads } from "@/db/schema";
import { GET as OVERVIEW } from "@/app/api/v1/analytics/overview/route";
import { GET as LIST } from "@/app/api/v1/campaigns/route";
import { ManualClock, systemClock, useClock } from "@/lib/clock";
import { newId } from "@/lib/ids";
import { insertMailbox } from "@/test/factories";
import { race as raceOn } from "@/test/race";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { countBy, countTotal, ZERO } from "./counts";
import { campaignLifetimes, type Counts, workspaceLeadCount, workspacePeriodTotals } from "./rollups";

/**
 * The trigger-maintained rollups against COUNT / COUNT(DISTINCT) on the raw rows,
 * after writes that race: two record batches of one campaign and mailbox in concurrent transactions
 * (the second waits on the first's counter rows), duplicate opens racing, a bounce after the send, a
 * refusal, a lead replying twice at once, a reply reclassified, a lead and an email deleted — in two
 * workspaces, at period edges inside an hour. Then the migration's backfill rebuilds the rollups from
 * the rows and every number is the same again.
 */

// Not on an hour: the 30-day period starts 20 minutes into an hour (the raw edge part is read).
const NOW = new Date("2026-11-10T12:20:00Z");
const ago = (days: number, minutes = 0) => new Date(NOW.getTime() - days * 86_400_000 + minutes * 60_000);

let pg: postgres.Sql;

type Fx = { ws: TestWorkspace; mbx: string[]; cmp: string[]; leads: { id: string; email: string }[] };

async function setup(tag: string): Promise<Fx> {
  const ws = await makeWorkspace();
  const mbx = [(await insertMailbox(ws.workspaceId, `m0@${tag}.test`)).id, (await insertMailbox(ws.workspaceId, `m1@${tag}.test`)).id];
  const cmp = [newId("cmp"), newId("cmp")];
  await getDb()
    .insert(campaigns)
    .values(cmp.map((id, i) => ({ id, workspaceId: ws.workspaceId, name: `C${i}`, trackOpens: true, trackClicks: true })));
  const ld = Array.from({ length: 8 }, (_, i) => ({ id: newId("lead"), workspaceId: ws.workspaceId, email: `l${i}@${tag}-lead.test` }));
  await getDb().insert(leads).values(ld);
  return { ws, mbx, cmp, leads: ld };
}

/** Emails written as the send engine claims them (SENDING); returns their ids. */
async function claim(f: Fx, rows: { lead: number; mbx: number; cmp: number; at: Date }[]): Promise<string[]> {
  const vals = rows.map((r) => ({
    id: newId("eml"),
    workspace_id: f.ws.workspaceId,
    mailbox_id: f.mbx[r.mbx],
    lead_id: f.leads[r.lead].id,
    lead_email: f.leads[r.lead].email,
    campaign_id: f.cmp[r.cmp],
    message_id: `<${randomUUID()}@x.test>`,
    subject: "s",
    status: "SENDING",
    created_at: r.at,
  }));
  await pg`insert into emails ${pg(vals)}`;
  return vals.map((v) => v.id);
}

const markSent = (tx: postgres.TransactionSql, ids: string[]) =>
  tx`update emails set status = 'SENT', sent_at = created_at where id in ${tx(ids)}`;

async function reply(
  tx: postgres.Sql | postgres.TransactionSql,
  f: Fx,
  lead: number,
  cmp: number,
  at: Date,
  intent = "QUESTION",
  auto = false,
) {
  const id = newId("rep");
  await tx`insert into replies (id, workspace_id, mailbox_id, lead_id, campaign_id, message_id, received_at, intent, is_auto_reply)
    values (${id}, ${f.ws.workspaceId}, ${f.mbx[0]}, ${f.leads[lead].id}, ${f.cmp[cmp]}, ${`<${randomUUID()}@l.test>`}, ${at}, ${intent}, ${auto})`;
  return id;
}

/** test/race.ts's race on this file's connection, `second` in a transaction of its own. */
const race = (first: (tx: postgres.TransactionSql) => Promise<unknown>, second: (tx: postgres.TransactionSql) => Promise<unknown>) =>
  raceOn(pg, first, () => pg.begin(second));

/** The numbers, counted plainly on the raw rows. */
async function raw(workspaceId: string, opts: { campaignId?: string; from?: Date; to?: Date } = {}) {
  const p = (col: string) =>
    opts.from && opts.to
      ? dsql`${dsql.raw(col)} >= ${opts.from.toISOString()}::timestamptz and ${dsql.raw(col)} < ${opts.to.toISOString()}::timestamptz`
      : dsql`${dsql.raw(col)} is not null`;
  const ec = opts.campaignId ? dsql`e.campaign_id = ${opts.campaignId}` : dsql`e.campaign_id is not null`;
  const rc = opts.campaignId ? dsql`r.campaign_id = ${opts.campaignId}` : dsql`r.campaign_id is not null`;
  const e = dsql`from emails e where e.workspace_id = ${workspaceId} and ${ec}`;
  const r = dsql`from replies r where r.workspace_id = ${workspaceId} and ${rc} and r.lead_id is not null and not r.is_auto_reply`;
  const [row] = await selectRows<Record<string, number>>(
    getDb(),
    dsql`select
      (select count(*) ${e} and e.status in ('SENT', 'BOUNCED') and ${p("e.created_at")})::int as sent,
      (select count(*) ${e} and e.status = 'BOUNCED' and ${p("e.created_at")})::int as bounced,
      (select count(*) ${e} and e.status = 'BOUNCED' and e.bounce_type = 'SOFT' and ${p("e.created_at")})::int as "bouncedSoft",
      (select count(*) ${e} and e.status = 'FAILED' and ${p("e.created_at")})::int as failed,
      (select count(distinct e.lead_email) ${e} and e.status in ('SENT', 'BOUNCED') and ${p("e.created_at")})::int as "leadsContacted",
      (select count(distinct e.lead_email) ${e} and ${p("e.opened_at")})::int as opened,
      (select count(distinct e.lead_email) ${e} and ${p("e.clicked_at")})::int as clicked,
      (select count(distinct r.lead_id) ${r} and ${p("r.received_at")})::int as replied,
      (select count(distinct r.lead_id) ${r} and r.intent = 'INTERESTED' and ${p("r.received_at")})::int as positive`,
  );
  return row;
}

const numbers = (c: Counts | undefined) => {
  const { lastSentAt: _, bouncedHard: __, ...rest } = c ?? ZERO;
  return rest;
};

const PERIODS = [
  [ago(30), NOW],
  [ago(7, -17), NOW],
  [ago(30, 30), NOW],
  [ago(0, -65), NOW],
  [ago(400), NOW],
] as const;

/** Every rollup read equals the raw count: each campaign's lifetime, and each period ending now. */
async function expectExact(fx: Fx[]) {
  for (const f of fx) {
    const lifetimes = await campaignLifetimes(getDb(), f.ws.workspaceId, f.cmp);
    for (const c of f.cmp) {
      expect(numbers(lifetimes.get(c)), `campaign ${c}`).toEqual(await raw(f.ws.workspaceId, { campaignId: c }));
    }
    for (const [from, to] of PERIODS) {
      const got = await workspacePeriodTotals(getDb(), f.ws.workspaceId, { from, to });
      expect(got, `period from ${from.toISOString()}`).not.toBeNull();
      expect(numbers(got!), `period from ${from.toISOString()}`).toEqual(await raw(f.ws.workspaceId, { from, to }));
    }
  }
}

describe("analytics rollups stay exact", () => {
  let a: Fx;
  let b: Fx;

  beforeAll(async () => {
    pg = postgres(process.env.DATABASE_URL!, { max: 4, onnotice: () => {} });
    useClock(new ManualClock(NOW));
    a = await setup("a");
    b = await setup("b");
  });
  afterAll(async () => {
    useClock(systemClock);
    await pg.end({ timeout: 5 });
  });

  it("counts racing writers, bounces, refusals, opens and replies exactly", async () => {
    for (const f of [a, b]) {
      // Old sends (outside 30 days), one inside the first part hour of the period, one just before it.
      const old = await claim(f, [
        { lead: 6, mbx: 1, cmp: 1, at: ago(45) },
        { lead: 7, mbx: 1, cmp: 1, at: ago(30, 25) },
        { lead: 5, mbx: 1, cmp: 1, at: ago(30, -5) },
      ]);
      await pg.begin((tx) => markSent(tx, old));
      // Two record batches of one campaign and mailbox, the second waiting on the first's rows.
      const batchA = await claim(
        f,
        [0, 1, 2, 3].map((lead) => ({ lead, mbx: 0, cmp: 0, at: ago(0, -30) })),
      );
      const batchB = await claim(
        f,
        [2, 3, 4, 5].map((lead) => ({ lead, mbx: 0, cmp: 0, at: ago(0, -29) })),
      );
      expect(
        await race(
          (tx) => markSent(tx, batchA),
          (tx) => markSent(tx, batchB),
        ),
      ).toBe(true);
      // Duplicate opens racing (only the first sets opened_at), and a lead opening two emails.
      const open = (tx: postgres.TransactionSql, at: Date) =>
        tx`update emails set opened_at = ${at} where id in ${tx([batchA[2], batchB[0], old[1]])} and opened_at is null`;
      expect(
        await race(
          (tx) => open(tx, ago(0, -20)),
          (tx) => open(tx, ago(0, -19)),
        ),
      ).toBe(true);
      await pg`update emails set clicked_at = ${ago(0, -10)} where id = ${batchA[2]}`;
      // A bounce after the send (a DSN), a soft bounce, a refusal and one still in flight.
      await pg`update emails set status = 'BOUNCED', bounce_type = 'HARD' where id = ${batchA[1]}`;
      await pg`update emails set status = 'BOUNCED', bounce_type = 'SOFT' where id = ${old[2]}`;
      const [failed, inFlight] = await claim(f, [
        { lead: 6, mbx: 0, cmp: 0, at: ago(0, -8) },
        { lead: 7, mbx: 0, cmp: 0, at: ago(0, -7) },
      ]);
      await pg`update emails set status = 'FAILED' where id = ${failed}`;
      expect(inFlight).toBeTruthy();
      // A lead replying twice at once (one positive), an automatic reply, an old positive reply.
      await race(
        (tx) => reply(tx, f, 0, 0, ago(0, -6), "INTERESTED"),
        (tx) => reply(tx, f, 0, 0, ago(0, -5)),
      );
      await reply(pg, f, 4, 0, ago(0, -4), "OUT_OF_OFFICE", true);
      await reply(pg, f, 7, 1, ago(30, 40), "INTERESTED");
      const later = await reply(pg, f, 3, 0, ago(0, -3), "INTERESTED");
      await expectExact([a, b]);
      // Reclassified (no longer positive), a lead deleted with its replies, an email deleted.
      await pg`update replies set intent = 'NOT_INTERESTED' where id = ${later}`;
      await pg`delete from leads where id = ${f.leads[0].id}`;
      await pg`delete from emails where id = ${batchB[3]}`;
      await expectExact([a, b]);
    }
    const lifetime = await campaignLifetimes(getDb(), a.ws.workspaceId, a.cmp);
    // Campaign C0 of a: 8 sends (one deleted → 7, one bounced), leads 0–4 contacted, lead 2 opened, lead 3 replied (not positive).
    expect(numbers(lifetime.get(a.cmp[0]))).toMatchObject({
      sent: 7,
      bounced: 1,
      failed: 1,
      leadsContacted: 5,
      opened: 1,
      replied: 1,
      positive: 0,
    });
  });

  it("the routes read the rollups: the campaign list and the 30-day overview", async () => {
    const list = (await call(LIST, "GET", "/campaigns", { key: a.ws.readKey })).body as Record<string, number | string>[];
    for (const c of a.cmp) {
      const w = await raw(a.ws.workspaceId, { campaignId: c });
      expect(list.find((x) => x.id === c)).toMatchObject({ sentCount: w.sent, leadsContacted: w.leadsContacted, openedCount: w.opened });
    }
    const ov = (await call(OVERVIEW, "GET", "/analytics/overview", { key: a.ws.readKey, params: { days: "30" } })).body as Record<
      string,
      number
    >;
    const w = await raw(a.ws.workspaceId, { from: ago(30), to: NOW });
    expect(ov).toMatchObject({ totalSent: w.sent, leadsContacted: w.leadsContacted, totalOpened: w.opened, totalReplied: w.replied });
  });

  it("a period with later activity is counted on the raw rows (the rollups cannot say), and still exactly", async () => {
    const p = { from: ago(40), to: ago(0, -25) };
    expect(await workspacePeriodTotals(getDb(), a.ws.workspaceId, p)).toBeNull();
    expect(numbers(await countTotal(getDb(), { workspaceId: a.ws.workspaceId, period: p }))).toEqual(await raw(a.ws.workspaceId, p));
    const byCampaign = await countBy(getDb(), "campaign", { workspaceId: a.ws.workspaceId, campaignIds: a.cmp });
    expect(numbers(byCampaign.get(a.cmp[1]))).toEqual(await raw(a.ws.workspaceId, { campaignId: a.cmp[1] }));
  });

  it("the migration's backfill rebuilds the same rollups from the rows", async () => {
    const snapshot = () =>
      selectRows(
        getDb(),
        dsql`select workspace_id, span, start, campaign_id, sum(sent) s, sum(bounced) b, sum(bounced_hard) bh, sum(bounced_soft) bs, sum(failed) f,
            sum(contacted) c, sum(opened) o, sum(clicked) k, sum(replied) r, sum(positive) p
          from analytics_rollups group by 1, 2, 3, 4
          having sum(sent) <> 0 or sum(bounced) <> 0 or sum(failed) <> 0 or sum(contacted) <> 0 or sum(opened) <> 0 or sum(clicked) <> 0
            or sum(replied) <> 0 or sum(positive) <> 0
          order by 1, 2, 3, 4`,
      );
    const leadLast = () =>
      selectRows(getDb(), dsql`select workspace_id, metric, lead, at from analytics_lead_last where at is not null order by 1, 2, 3`);
    const before = { rollups: await snapshot(), last: await leadLast() };
    expect(before.rollups.length).toBeGreaterThan(10);
    const file = readFileSync(path.join(process.cwd(), "db/migrations/0023_analytics_rollups.sql"), "utf8");
    const backfill = file
      .slice(file.indexOf("-- Backfill"))
      .split("--> statement-breakpoint")
      .map((s) => s.trim())
      .filter(Boolean);
    expect(backfill.length).toBe(4);
    await pg.begin(async (tx) => {
      await tx`truncate analytics_rollups, analytics_lead_last, analytics_campaign_marks`;
      for (const s of backfill) await tx.unsafe(s);
    });
    expect(await snapshot()).toEqual(before.rollups);
    expect(await leadLast()).toEqual(before.last);
    await expectExact([a, b]);
  });

  it("the lead count (the overview's totalLeads) is exact through racing imports, deletes and folds", async () => {
    const ws = a.ws.workspaceId;
    const count = async () => Number((await pg`select count(*)::int as n from leads where workspace_id = ${ws}`)[0].n);
    const add = (tx: postgres.Sql | postgres.TransactionSql, n: number, tag: string) =>
      tx`insert into leads (id, workspace_id, email) select 'lead_' || ${tag} || g, ${ws}, ${tag} || g || '@count.test' from generate_series(1, ${n}) g`;
    // Two imports at once: neither waits on the other (no shared row), both are counted.
    expect(
      await race(
        (tx) => add(tx, 30, "x"),
        (tx) => add(tx, 20, "y"),
      ),
    ).toBe(false);
    await pg`delete from leads where id in ('lead_x1', 'lead_x2', 'lead_y3')`;
    expect(await workspaceLeadCount(getDb(), ws)).toBe(await count());
    // Many statements: a read folds the deltas into one row, and the count is the same after.
    for (let i = 0; i < 40; i++) await add(pg, 1, `z${i}_`);
    expect(await workspaceLeadCount(getDb(), ws)).toBe(await count());
    const [rows] = await pg`select count(*)::int as n from analytics_lead_counts where workspace_id = ${ws}`;
    expect(rows.n).toBe(1);
    expect(await workspaceLeadCount(getDb(), ws)).toBe(await count());
    const ov = (await call(OVERVIEW, "GET", "/analytics/overview", { key: a.ws.readKey })).body as Record<string, number>;
    expect(ov.totalLeads).toBe(await count());
  });

  it("a deleted workspace leaves no rollup rows", async () => {
    await pg`delete from workspaces where id = ${b.ws.workspaceId}`;
    const [n] = await pg`select (select count(*) from analytics_rollups where workspace_id = ${b.ws.workspaceId})
      + (select count(*) from analytics_lead_last where workspace_id = ${b.ws.workspaceId})
      + (select count(*) from analytics_campaign_marks where workspace_id = ${b.ws.workspaceId})
      + (select count(*) from analytics_lead_counts where workspace_id = ${b.ws.workspaceId}) as n`;
    expect(Number(n.n)).toBe(0);
    await expectExact([a]);
  });
});
