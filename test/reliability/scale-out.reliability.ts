import { mkdtempSync, renameSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as ADD_LEADS } from "../../app/api/v1/campaigns/[id]/leads/route";
import { PUT as PUT_POOL } from "../../app/api/v1/campaigns/[id]/mailboxes/route";
import { POST as CREATE_LEADS } from "../../app/api/v1/leads/route";
import { POST as CREATE_WEBHOOK } from "../../app/api/v1/webhooks/route";
import { selectRows } from "../../db/bulk";
import { getDb } from "../../db/client";
import { encryptSecret } from "../../lib/crypto/secretbox";
import { activateCampaign, createCampaignWithSteps } from "../campaign-setup";
import { insertMailbox } from "../factories";
import { call, makeWorkspace, type TestWorkspace } from "../helpers";
import { startSmtpPeer } from "../peers/smtp";
import { FAST, figure } from "./figures";
import { type Child, startChild } from "./processes";

/**
 * Two web processes and three worker processes on one Postgres, MAILBOXES mailboxes
 * and LEADS leads in three time zones, through a simulated week (a clock file every process reads, moved
 * in 15-minute steps once every worker has ticked at the current time). No lead gets two emails, no
 * mailbox passes its daily cap on any UTC day, every email.sent event reaches the webhook receiver
 * exactly once, and both web processes report the same, complete campaign numbers.
 */
const MAILBOXES = FAST ? 40 : 200;
const LEADS = FAST ? 1500 : 10_000;
const CAP = FAST ? 20 : 30;
const DAYS = FAST ? 3 : 7;
const STEP_MS = 15 * 60_000;
const START = new Date("2026-11-30T00:00:00Z"); // a Monday
const ZONES = ["Europe/London", "America/New_York", "Asia/Tokyo"];

let ws: TestWorkspace;
let smtp: Awaited<ReturnType<typeof startSmtpPeer>>;
let receiver: http.Server;
const deliveries = new Map<string, number>();
let clockFile: string;
let webs: Child[] = [];
let workers: Child[] = [];
const lastTick: string[] = [];

beforeAll(async () => {
  process.env.OUTBOUND_ALLOW_HOSTS = "127.0.0.1";
  ws = await makeWorkspace("scale");
  const users = Object.fromEntries(Array.from({ length: MAILBOXES }, (_, i) => [`s${i}@scale.test`, "pw"]));
  smtp = await startSmtpPeer({ users });
  receiver = http.createServer((req, res) => {
    const id = String(req.headers["x-service-event-id"] ?? "");
    deliveries.set(id, (deliveries.get(id) ?? 0) + 1);
    req.resume();
    res.end("ok");
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
  clockFile = path.join(mkdtempSync(path.join(tmpdir(), "outreach-sim-")), "now");
  setClock(START);
  const env = { SIM_CLOCK_FILE: clockFile, RATE_LIMIT_DISABLED: "1", OUTBOUND_ALLOW_HOSTS: "127.0.0.1" };
  webs = await Promise.all([0, 1].map(() => startChild("test/reliability/web-process.ts", env)));
  workers = await Promise.all([0, 1, 2].map(() => startChild("test/reliability/sim-worker.ts", env)));
  workers.forEach((w, i) => {
    w.onLine((line) => {
      if (line.startsWith("tick ")) lastTick[i] = line.slice(5);
    });
  });
}, 180_000);

afterAll(async () => {
  await Promise.all([...webs, ...workers].map((c) => c.stop()));
  await smtp?.close();
  receiver?.close();
});

async function setUp(): Promise<string> {
  const k = ws.fullKey;
  const ids: string[] = [];
  for (let i = 0; i < MAILBOXES; i++) {
    const email = `s${i}@scale.test`;
    const m = await insertMailbox(ws.workspaceId, email, {
      smtpHost: smtp.host,
      smtpPort: smtp.port,
      smtpSecurity: "NONE",
      smtpPasswordEnc: encryptSecret("pw"),
      dailySendCap: CAP,
    });
    ids.push(m.id);
  }
  const hook = await call(CREATE_WEBHOOK, "POST", "/webhooks", {
    key: k,
    body: { url: `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`, events: ["email.sent"] },
  });
  expect(hook.status).toBe(201);
  const { campaign } = await createCampaignWithSteps(k, { name: "Scale", minGapMinutes: 10, sendDaysOfWeek: [0, 1, 2, 3, 4, 5, 6] }, [
    { stepOrder: 0, subject: "Hi {{firstName}}", bodyTemplate: "Hello" },
  ]);
  await call(PUT_POOL, "PUT", "", { key: k, params: { id: campaign.id }, body: { mailboxIds: ids } });
  for (let from = 0; from < LEADS; from += 1000) {
    const leads = Array.from({ length: Math.min(1000, LEADS - from) }, (_, j) => {
      const n = from + j;
      return { email: `lead${n}@buyers${n % 50}.test`, firstName: `L${n}`, timezone: ZONES[n % ZONES.length] };
    });
    const created = await call(CREATE_LEADS, "POST", "/leads", { key: k, body: { leads } });
    await call(ADD_LEADS, "POST", "", { key: k, params: { id: campaign.id }, body: { leadIds: created.body.leadIds } });
  }
  const launched = await activateCampaign(k, campaign.id);
  expect(launched.status).toBe(200);
  return campaign.id;
}

/** Writes the simulated time atomically (a rename), so a worker never reads a half-written file. */
function setClock(at: Date): void {
  writeFileSync(`${clockFile}.next`, at.toISOString());
  renameSync(`${clockFile}.next`, clockFile);
}

/** Moves the simulated clock to `at` and waits until every worker has run a whole tick at that time. */
async function stepTo(at: Date): Promise<void> {
  const iso = at.toISOString();
  setClock(at);
  const deadline = Date.now() + 120_000;
  while (!workers.every((_, i) => lastTick[i] && lastTick[i] >= iso)) {
    if (Date.now() > deadline) {
      const logs = workers.map((w, i) => `worker ${i}: ${w.stderrTail().slice(-1500)}`).join("\n");
      throw new Error(`workers did not tick at ${iso}: ${lastTick.join(", ")}\n${logs}`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function statsFrom(web: Child, campaignId: string) {
  const res = await fetch(`http://127.0.0.1:${web.port}/api/v1/campaigns/${campaignId}/stats`, {
    headers: { authorization: `Bearer ${ws.fullKey}` },
  });
  return (await res.json()) as { sentCount: number; leadsContacted: number };
}

describe("two web processes and three workers on one Postgres, over a simulated week", () => {
  it("sends each lead once, holds every cap, delivers each event once, and agrees everywhere", async () => {
    const campaignId = await setUp();
    const started = Date.now();
    for (let t = START.getTime(); t <= START.getTime() + DAYS * 86_400_000; t += STEP_MS) await stepTo(new Date(t));
    const seconds = (Date.now() - started) / 1000;

    const perLead = new Map<string, number>();
    for (const r of smtp.received) perLead.set(r.to[0], (perLead.get(r.to[0]) ?? 0) + 1);
    const doubles = [...perLead.values()].filter((n) => n > 1).length;
    const [counts] = await selectRows<{ rows: number; sent: number; leads: number }>(
      getDb(),
      sql`select count(*)::int as rows, count(*) filter (where status = 'SENT')::int as sent, count(distinct lead_email)::int as leads
        from emails where campaign_id = ${campaignId}`,
    );
    const [worst] = await selectRows<{ n: number }>(
      getDb(),
      sql`select coalesce(max(n), 0)::int as n from (select count(*) as n from emails where campaign_id = ${campaignId}
        group by mailbox_id, (sent_at at time zone 'UTC')::date) d`,
    );
    const events = [...deliveries.entries()].filter(([id]) => id);
    const twice = events.filter(([, n]) => n > 1).length;
    const [a, b] = await Promise.all(webs.map((w) => statsFrom(w, campaignId)));

    figure({
      suite: "scale-out",
      name: `${MAILBOXES} mailboxes, ${LEADS} leads, ${DAYS} simulated days (${seconds.toFixed(0)} s)`,
      value: counts.sent,
      goal: `${LEADS} sent`,
      pass: counts.sent === LEADS,
    });
    figure({ suite: "scale-out", name: "leads emailed twice (SMTP peer)", value: doubles, goal: "0", pass: doubles === 0 });
    figure({
      suite: "scale-out",
      name: "most emails of one mailbox on one UTC day",
      value: worst.n,
      goal: `≤ ${CAP} (cap)`,
      pass: worst.n <= CAP,
    });
    figure({
      suite: "scale-out",
      name: "email.sent deliveries: events / delivered twice",
      value: `${events.length} / ${twice}`,
      goal: `${LEADS} / 0`,
      pass: events.length === LEADS && !twice,
    });
    figure({
      suite: "scale-out",
      name: "sentCount from web process 1 / 2",
      value: `${a.sentCount} / ${b.sentCount}`,
      goal: `${LEADS} / ${LEADS}`,
      pass: a.sentCount === LEADS && b.sentCount === LEADS,
    });

    expect(doubles).toBe(0);
    expect(smtp.received.length).toBe(LEADS);
    expect(counts).toEqual({ rows: LEADS, sent: LEADS, leads: LEADS });
    expect(worst.n).toBeLessThanOrEqual(CAP);
    expect(events.length).toBe(LEADS);
    expect(twice).toBe(0);
    expect([a.sentCount, b.sentCount]).toEqual([LEADS, LEADS]);
  });
});
