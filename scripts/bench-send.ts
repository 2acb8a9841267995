/**
 * `npm run bench:send`: the send engine (lib/sending/engine.ts sendDue) against what the machine and the
 * libraries allow. Three measurements in one run, on a throwaway embedded PostgreSQL and a local SMTP
 * sink (smtp-server in a child process, so its CPU is not the measured thread's: a real server is
 * another machine; it checks the login and keeps each message's Message-ID, and every phase is checked
 * against it — count, ids, no refused login — and against the emails table).
 *
 *  1. Delivery efficiency (target ≥ 0.5). 40 mailboxes (rows written directly, like test/factories.ts:
 *     SMTP = the sink, security NONE, the sink's login, dailySendCap 1,000,000) in one campaign set up
 *     through the route handlers like lib/sending/engine.test.ts (every day, no timezone, minGapMinutes
 *     0), 2,000 leads. Pipeline side: sendDue passes back to back (ManualClock, +1 s per pass, so pacing
 *     never blocks): the scheduler (claim the mailbox leases → pick the due lead of each under the rules
 *     → commit the emails as SENDING, set-based) then the sender (render → pooled nodemailer SMTP, 32
 *     conversations in flight, one per mailbox → record SENT + email.sent and release, in group
 *     commits); 40 emails per pass. Raw side: one pooled transport per mailbox with the engine's own
 *     options (lib/mail/smtp.ts smtpTransport), the same number of prebuilt messages (rendered ahead
 *     with the same template and headers), in the same shape: per pass one email per mailbox, a sliding
 *     pool of 32 in flight. Both sides warm (pools logged in) before timing; ABBA blocks; the ratio is
 *     the median over blocks of (pipeline emails/s ÷ raw emails/s). nodemailer as shipped leaves Nagle's
 *     algorithm on, so a message on a pooled connection waits for the sink's delayed ACK (~40 ms on
 *     Linux loopback): that is in both sides of the judged ratio. Printed, not judged: the raw side with
 *     prebuilt MIME (`raw`), and both sides again with TCP_NODELAY on the SMTP sockets.
 *  2. Scheduler tick (target ≤ 1 s). 5,000 mailboxes in 10 ACTIVE campaigns (window 9–17 Mon–Fri in
 *     the lead's zone, minGapMinutes 9), 100,000 leads in 24 timezones (20 per mailbox), seeded with
 *     generate_series into a separate database. Clock: a Tuesday 14:00 UTC, when 8 of the 24 zones are
 *     in their window. Steady state: leads outside their window already wait for its opening (the
 *     next_send_at the engine's own nextWindowOpen gives, as earlier ticks leave it); BENCH_TICK_FIRST=1
 *     makes every lead due instead, so the tick also defers them itself. The judged tick is the
 *     scheduler, scheduleDue(db, clock, { mailboxLimit: 5000 }): claim every mailbox (one UPDATE … SKIP
 *     LOCKED RETURNING *), read their caps and due leads, pick under every rule, and commit 5,000 emails
 *     as SENDING with their leads moved on — what decides who gets what from which mailbox. The sender
 *     that then delivers those emails (deliver: render, MIME, SMTP, record) is timed apart and printed,
 *     not judged: SMTP throughput is part 1's measure. By default its SMTP is instant: the engine's own
 *     pooled transports (pooledTransport returns the same object to the engine) get a sendMail that
 *     composes the MIME with nodemailer's MailComposer and hands it to an in-process sink that accepts
 *     at once — no socket. BENCH_TICK_SMTP=socket sends to the smtp-server sink instead, every pool
 *     logged in before timing (100 at a time), TCP_NODELAY on. Also the job's tick as configured
 *     (default mailboxLimit 1,000). Where the time goes: every statement Drizzle executes and every
 *     sendMail, timed on the client. claimVsBareSkipLocked (no target) = rows/s of the tick's claim ÷
 *     rows/s of a bare `update mailboxes set send_lease_until = … where id in (select id … limit N for
 *     update skip locked) returning id` over the same 5,000 rows (median of 5).
 *  3. Cap fidelity (target ≥ 0.98, zero violations). 50 mailboxes with dailySendCap 5–20, one campaign
 *     (Mon–Fri, no timezone — any hour of a weekday, days read in UTC — minGapMinutes 2, one step),
 *     4,000 leads (80 per mailbox: the lead supply binds for caps ≥ 17), sendDue on a 2-minute grid for
 *     7 days from a Thursday. A pass that claims nothing changes nothing, so after one the clock jumps
 *     (on the grid) to the first moment a mailbox can be claimed again (BENCH_CAP_EVERY_STEP=1 runs
 *     every step). Capacity per mailbox = Σ over UTC days of min(dailySendCap, what the window and gap
 *     allow, leads left), computed without the engine. capFidelity = sends ÷ capacity; violations =
 *     mailbox-days over cap + sends on a weekend + two sends of a mailbox closer than the gap + a lead
 *     emailed twice.
 *
 * Prints tables, PASS / BELOW TARGET per target and a final JSON line; exits 0 either way.
 *
 * Knobs (env): BENCH_PARTS (default "1,2,3"), BENCH_BLOCKS (part 1 ABBA blocks, default 2),
 * BENCH_PASSES (part 1 passes of 40 emails per phase, default 8), BENCH_TICK_MAILBOXES (5000),
 * BENCH_TICK_LEADS (100000), BENCH_TICK_FIRST=1, BENCH_TICK_SMTP=socket, BENCH_CAP_DAYS (7), BENCH_CAP_STEP_MIN (2),
 * BENCH_CAP_EVERY_STEP=1.
 */
import { randomBytes } from "node:crypto";
import net from "node:net";
import type { Transporter } from "nodemailer";
import postgres from "postgres";
import {
  abbaPlan,
  benchWorkspace,
  cpuMeter,
  elapsedMs,
  ensureDatabase,
  fmt,
  intEnv,
  loadAverage,
  median,
  percentile,
  pooledRate,
  round3,
  runBench,
  runPool,
  say,
  startBenchEnvironment,
  startIpcHelper,
  table,
} from "./bench-util";

const PARTS = new Set((process.env.BENCH_PARTS ?? "1,2,3").split(",").map((s) => s.trim()));
const BLOCKS = intEnv("BENCH_BLOCKS", 2);
const PASSES = intEnv("BENCH_PASSES", 8);
const D_MAILBOXES = 40;
const D_LEADS = 2000;
const CONCURRENCY = 32; // deliver's default: a sliding pool of 32 SMTP conversations, one per mailbox
const T_MAILBOXES = intEnv("BENCH_TICK_MAILBOXES", 5000);
const T_LEADS = intEnv("BENCH_TICK_LEADS", 100_000);
const T_CAMPAIGNS = 10;
const T_GAP_MIN = 9;
const FIRST_TICK = process.env.BENCH_TICK_FIRST === "1";
const TICK_SOCKET = process.env.BENCH_TICK_SMTP === "socket";
const C_MAILBOXES = 50;
const C_LEADS = 4000;
const C_DAYS = intEnv("BENCH_CAP_DAYS", 7);
const C_STEP_MIN = intEnv("BENCH_CAP_STEP_MIN", 2);
const C_GAP_MIN = 2;
const C_EVERY_STEP = process.env.BENCH_CAP_EVERY_STEP === "1";
const C_WEEKDAYS = [1, 2, 3, 4, 5];
const SINK_PASSWORD = "sink-password-1";
const TARGET_DELIVERY = 0.5;
const TARGET_TICK_S = 1;
const TARGET_FIDELITY = 0.98;

/** 24 zones, one per UTC offset (November): at 14:00 UTC, New York … Athens (8 of them) are in 9–17. */
const ZONES = [
  "Pacific/Pago_Pago",
  "Pacific/Honolulu",
  "America/Anchorage",
  "America/Los_Angeles",
  "America/Denver",
  "America/Chicago",
  "America/New_York",
  "America/Halifax",
  "America/Sao_Paulo",
  "Atlantic/South_Georgia",
  "Atlantic/Azores",
  "Europe/London",
  "Europe/Berlin",
  "Europe/Athens",
  "Europe/Moscow",
  "Asia/Dubai",
  "Asia/Karachi",
  "Asia/Dhaka",
  "Asia/Bangkok",
  "Asia/Singapore",
  "Asia/Tokyo",
  "Australia/Brisbane",
  "Pacific/Noumea",
  "Pacific/Auckland",
];

// ---------------------------------------------------------------------------------------------
// SMTP sink: smtp-server in a child process (plain JS for startIpcHelper).

const SINK_JS = `
const { SMTPServer } = require("smtp-server");
const PASSWORD = process.env.SINK_PASSWORD;
let got = [];
let bytes = 0;
let connections = 0;
let authFailures = 0;
const server = new SMTPServer({
  secure: false,
  disabledCommands: ["STARTTLS"],
  allowInsecureAuth: true,
  authMethods: ["PLAIN", "LOGIN"],
  logger: false,
  socketTimeout: 15 * 60 * 1000,
  closeTimeout: 1000,
  onConnect(session, cb) { connections++; cb(); },
  onAuth(auth, session, cb) {
    if (auth.password === PASSWORD && auth.username) return cb(null, { user: auth.username });
    authFailures++;
    const err = new Error("5.7.8 Username and Password not accepted");
    err.responseCode = 535;
    cb(err);
  },
  onData(stream, session, cb) {
    let head = "";
    let n = 0;
    stream.on("data", (c) => {
      n += c.length;
      if (head.length < 16384 && !head.includes("\\r\\n\\r\\n")) head += c.toString("latin1");
    });
    stream.on("end", () => {
      const m = /^message-id:[ \\t]*(<[^>\\r\\n]+>)/im.exec(head.split("\\r\\n\\r\\n")[0]);
      got.push([m ? m[1] : "", String(session.user || ""), session.envelope.rcptTo.map((r) => r.address).join(",")]);
      bytes += n;
      cb();
    });
  },
});
server.listen(0, "127.0.0.1", () => ipc.send({ type: "ready", port: server.server.address().port }));
ipc.on("message", (m) => {
  if (m.type === "collect") {
    ipc.send({ type: "collected", messages: got, bytes, connections, authFailures });
    got = []; bytes = 0; connections = 0; authFailures = 0;
  } else if (m.type === "close") {
    server.close(() => {});
    ipc.send({ type: "closed" });
  }
});
`;

interface SinkBatch {
  /** [Message-ID, login, recipients] per message received since the last collect. */
  messages: [string, string, string][];
  bytes: number;
  connections: number;
  authFailures: number;
}

interface Sink {
  host: string;
  port: number;
  collect(): Promise<SinkBatch>;
  close(): Promise<void>;
}

async function startSink(): Promise<Sink> {
  const helper = startIpcHelper("SMTP sink", SINK_JS, "process", { ...process.env, SINK_PASSWORD });
  const ready = await helper.next("ready");
  return {
    host: "127.0.0.1",
    port: ready.port as number,
    async collect() {
      const p = helper.next("collected");
      helper.send({ type: "collect" });
      return (await p) as unknown as SinkBatch;
    },
    close: () => helper.close(1000),
  };
}

/** Checks what the sink got: exactly `expected` (by Message-ID), each once, every login accepted. */
function checkSink(label: string, got: SinkBatch, expected: Set<string>): void {
  const problems: string[] = [];
  if (got.authFailures) problems.push(`${got.authFailures} refused logins`);
  if (got.messages.length !== expected.size) problems.push(`the sink got ${got.messages.length} messages, expected ${expected.size}`);
  const seen = new Set<string>();
  for (const [id] of got.messages) {
    if (!expected.has(id)) problems.push(`unexpected Message-ID ${id || "(none)"}`);
    else if (seen.has(id)) problems.push(`Message-ID ${id} received twice`);
    seen.add(id);
    if (problems.length > 5) break;
  }
  if (problems.length) throw new Error(`${label}: ${problems.join("; ")}`);
}

// ---------------------------------------------------------------------------------------------
// Where the time goes: every statement Drizzle executes (PostgresJsPreparedQuery.execute — selects,
// inserts, updates and db.execute(sql) alike; BEGIN/COMMIT are not included) and every sendMail of a
// wrapped transport, timed on the client. Only while `profiling` is on.

let profiling = false;
let smtpLabel = "SMTP sendMail (pooled nodemailer → sink)";
const stmtStats = new Map<string, { n: number; ms: number; all: number[] }>();
let smtpStat = { n: 0, ms: 0, all: [] as number[] };
/** One instance of each statement kind (text and parameters), to re-run under EXPLAIN ANALYZE. */
const stmtSamples = new Map<string, { sql: string; params: unknown[] }>();

const LABELS: [RegExp, string][] = [
  [
    /^update "mailboxes" set "send_lease_until" = \$1 where "mailboxes"\."id" in/i,
    "claim mailboxes (UPDATE … IN (SELECT … EXISTS due lead … SKIP LOCKED) RETURNING *)",
  ],
  [/^select mailbox_id, count\(\*\)::int as n from emails/i, "cap: emails today of every claimed mailbox"],
  [/^select x\.\* from \(select jsonb_array_elements_text/i, "due leads of every claimed mailbox (LATERAL, 2 each)"],
  [/^select .* from "campaigns" where "campaigns"\."id" in/i, "campaigns of the due leads"],
  [/^select .* from "campaign_steps" where "campaign_steps"\."campaign_id" in/i, "steps of those campaigns"],
  [/^select kind, value from suppressions/i, "suppression check (one per workspace)"],
  [/^select v\.campaign_id, \(select count/i, "cap: first emails today of each capped campaign"],
  [/^select e\.step_id, count/i, "variant stats (sends, replies)"],
  [/^select e\.campaign_id, e\.lead_id, e\.message_id/i, "earlier emails of the follow-ups (threading)"],
  [/^select .* from "leads" where "leads"\."id" = any/i, "the picked leads"],
  [/^update campaign_leads cl set status = v\.status/i, "stop/complete leads (one UPDATE)"],
  [/^update campaign_leads cl set next_send_at = v\.at/i, "defer out-of-window leads (one UPDATE)"],
  [/^select id from campaigns where id = any.* for update/i, "lock the capped campaigns"],
  [/^with v as \( ?select \* from jsonb_to_recordset/i, "tx: move the picked leads on + INSERT their emails as SENDING (one statement)"],
  [/^update mailboxes m set send_lease_until = null/i, "release mailboxes (idle ones; sent ones per group)"],
  [/from "step_attachments" inner join "files"/i, "step attachments"],
  [/^update emails e set status = 'SENT'/i, "record: mark SENT (per group)"],
  [/^insert into events/i, "record: email.sent events (per group)"],
  [/^update campaigns set first_sent_at/i, "record: campaigns.first_sent_at (first send only)"],
  [/^update campaign_leads cl set failed_attempts = 0/i, "record: reset failed attempts"],
];

function labelOf(q: string): string {
  const s = q.replace(/\s+/g, " ").trim();
  for (const [re, label] of LABELS) if (re.test(s)) return label;
  return `other: ${s.slice(0, 70)}`;
}

function resetProfile() {
  stmtStats.clear();
  stmtSamples.clear();
  smtpStat = { n: 0, ms: 0, all: [] };
}

function snapshotProfile() {
  return {
    stmts: new Map([...stmtStats].map(([k, v]) => [k, { ...v, all: [...v.all] }])),
    smtp: { ...smtpStat, all: [...smtpStat.all] },
    smtpLabel,
    samples: new Map(stmtSamples),
    serverUs: new Map<string, number>(),
  };
}

/**
 * Server time (planning + execution, µs) of each sampled statement, re-run 3 times under EXPLAIN
 * ANALYZE inside a transaction that is rolled back (median). The database has moved on since the
 * sample ran (the lead is sent, the lease released), so this is indicative, not exact; the claim and
 * the INSERTs are not re-run ("(n/a)").
 */
async function explainSamples(pg: postgres.Sql, p: Profile): Promise<void> {
  const ROLLBACK = new Error("rollback");
  for (const [label, { sql: text, params }] of p.samples) {
    // The claim finds nothing due any more (and re-inserting an email or event collides): not re-run.
    if (label.startsWith("claim") || /^insert/i.test(text.trim())) {
      p.serverUs.set(label, NaN);
      continue;
    }
    const runs: number[] = [];
    for (let i = 0; i < 3; i++) {
      await pg
        .begin(async (tx) => {
          const [r] = await tx.unsafe(`explain (analyze, format json) ${text}`, params as never[]);
          const plan = (r as Record<string, { "Planning Time": number; "Execution Time": number }[]>)["QUERY PLAN"][0];
          runs.push((plan["Planning Time"] + plan["Execution Time"]) * 1000);
          throw ROLLBACK;
        })
        .catch((e) => {
          if (e !== ROLLBACK) runs.push(NaN);
        });
    }
    p.serverUs.set(label, median(runs));
  }
}
type Profile = ReturnType<typeof snapshotProfile>;

async function installStatementTimer(): Promise<void> {
  const mod = (await import("drizzle-orm/postgres-js/session")) as unknown as {
    PostgresJsPreparedQuery: { prototype: { execute: (...a: unknown[]) => Promise<unknown>; queryString: string } };
  };
  const proto = mod.PostgresJsPreparedQuery.prototype;
  const orig = proto.execute;
  proto.execute = async function (this: { queryString: string }, ...args: unknown[]) {
    if (!profiling) return orig.apply(this, args);
    const t = process.hrtime.bigint();
    try {
      return await orig.apply(this, args);
    } finally {
      const ms = elapsedMs(t);
      const k = labelOf(this.queryString);
      if (!stmtSamples.has(k)) stmtSamples.set(k, { sql: this.queryString, params: (this as unknown as { params: unknown[] }).params });
      const e = stmtStats.get(k) ?? { n: 0, ms: 0, all: [] };
      e.n++;
      e.ms += ms;
      e.all.push(ms);
      stmtStats.set(k, e);
    }
  };
}

/** Wraps a transporter's sendMail so its time is counted while profiling. */
function timeSendMail(t: Transporter): void {
  const tt = t as unknown as { sendMail: (m: unknown) => Promise<unknown>; __timed?: boolean };
  if (tt.__timed) return;
  const orig = tt.sendMail.bind(t);
  tt.sendMail = async (m: unknown) => {
    if (!profiling) return orig(m);
    const s = process.hrtime.bigint();
    try {
      return await orig(m);
    } finally {
      const ms = elapsedMs(s);
      smtpStat.n++;
      smtpStat.ms += ms;
      smtpStat.all.push(ms);
    }
  };
  tt.__timed = true;
}

const PROFILE_HEADER = ["statement / step (client-side time, summed over lanes)", "count", "ms", "µs/call", "p50 µs", "p99 µs", "µs/PER"];

function profileHeader(p: Profile, per: string): string[] {
  const h = PROFILE_HEADER.map((x) => x.replace("PER", per));
  return p.serverUs.size ? [...h, "server µs"] : h;
}

function profileRows(p: Profile, per: number, top = 18): string[][] {
  const row = (label: string, n: number, ms: number, all: number[]) => [
    label,
    fmt(n),
    fmt(ms, 0),
    fmt((ms * 1000) / Math.max(1, n), 0),
    fmt(percentile(all, 50) * 1000, 0),
    fmt(percentile(all, 99) * 1000, 0),
    fmt((ms * 1000) / per, 0),
    ...(p.serverUs.size
      ? [!p.serverUs.has(label) ? "" : Number.isNaN(p.serverUs.get(label)) ? "(n/a)" : fmt(p.serverUs.get(label)!, 0)]
      : []),
  ];
  const rows = [...p.stmts.entries()].sort((a, b) => b[1].ms - a[1].ms);
  const out = rows.slice(0, top).map(([k, e]) => row(k, e.n, e.ms, e.all));
  const rest = rows.slice(top);
  if (rest.length)
    out.push(
      row(
        `(${rest.length} other kinds)`,
        rest.reduce((a, [, e]) => a + e.n, 0),
        rest.reduce((a, [, e]) => a + e.ms, 0),
        rest.flatMap(([, e]) => e.all),
      ),
    );
  const all = [...p.stmts.values()];
  out.push(
    row(
      "all statements",
      all.reduce((a, e) => a + e.n, 0),
      all.reduce((a, e) => a + e.ms, 0),
      all.flatMap((e) => e.all),
    ),
  );
  out.push(row(p.smtpLabel, p.smtp.n, p.smtp.ms, p.smtp.all));
  return out;
}

// ---------------------------------------------------------------------------------------------
// TCP_NODELAY switch for SMTP client sockets. nodemailer connects with net.connect and leaves Nagle's
// algorithm on; on a pooled connection each message then waits for the server's delayed ACK (~40 ms
// on Linux loopback) before its last small write goes out. postgres.js opens its sockets with
// new net.Socket(), so this switch touches only SMTP. Off for the delivery ratio (nodemailer as
// shipped, both sides); on for an extra delivery pair, the scheduler tick and the cap simulation.

const noDelay = { on: false };

function installNoDelaySwitch(): void {
  const orig = net.connect as unknown as (...a: unknown[]) => net.Socket;
  const patched = function (this: unknown, ...args: unknown[]) {
    const s = orig.apply(this, args);
    if (noDelay.on) s.setNoDelay(true);
    return s;
  };
  (net as unknown as { connect: unknown }).connect = patched;
  (net as unknown as { createConnection: unknown }).createConnection = patched;
}

// ---------------------------------------------------------------------------------------------

type App = Awaited<ReturnType<typeof loadApp>>;

async function loadApp() {
  const dbm = await import("@/db/client");
  const schema = await import("@/db/schema");
  const drizzle = await import("drizzle-orm");
  const { ManualClock } = await import("@/lib/clock");
  const { sendDue, scheduleDue, deliver } = await import("@/lib/sending/engine");
  const transports = await import("@/lib/sending/transports");
  const { smtpTransport } = await import("@/lib/mail/smtp");
  const { smtpConfigOf } = await import("@/lib/mailboxes/credentials");
  const { encryptSecret } = await import("@/lib/crypto/secretbox");
  const { renderStep } = await import("@/lib/templates/render");
  const { nextWindowOpen } = await import("@/lib/sending/window");
  const { unsubscribeUrl } = await import("@/lib/sending/tracking");
  const { newId } = await import("@/lib/ids");
  const { ensureDomain } = await import("@/lib/domains/ensure-domain");
  const { insertMailbox } = await import("@/test/factories");
  const { call, makeWorkspace } = await import("@/test/helpers");
  const routes = {
    CREATE_LEADS: (await import("@/app/api/v1/leads/route")).POST,
    CREATE_CAMPAIGN: (await import("@/app/api/v1/campaigns/route")).POST,
    PUT_STEPS: (await import("@/app/api/v1/campaigns/[id]/steps/route")).PUT,
    PUT_POOL: (await import("@/app/api/v1/campaigns/[id]/mailboxes/route")).PUT,
    ADD_LEADS: (await import("@/app/api/v1/campaigns/[id]/leads/route")).POST,
    STATUS: (await import("@/app/api/v1/campaigns/[id]/status/route")).PATCH,
  };
  const MailComposer = (await import("nodemailer/lib/mail-composer")).default;
  return {
    dbm,
    schema,
    drizzle,
    ManualClock,
    sendDue,
    scheduleDue,
    deliver,
    transports,
    smtpTransport,
    smtpConfigOf,
    encryptSecret,
    renderStep,
    nextWindowOpen,
    unsubscribeUrl,
    newId,
    ensureDomain,
    insertMailbox,
    call,
    makeWorkspace,
    routes,
    MailComposer,
  };
}

/** A campaign set up through the route handlers, as a user would (engine.test.ts does the same). */
async function routeCampaign(
  app: App,
  key: string,
  opts: {
    name: string;
    settings: Record<string, unknown>;
    mailboxIds: string[];
    leads: Record<string, string>[];
    step: { subject: string; bodyTemplate: string };
  },
): Promise<{ id: string; leadIds: string[] }> {
  const { call, routes } = app;
  const ok = (label: string, r: { status: number; body: any }) => {
    if (r.status >= 300) throw new Error(`${label} answered ${r.status}: ${JSON.stringify(r.body).slice(0, 400)}`);
    return r.body;
  };
  const c = ok(
    "POST /campaigns",
    await call(routes.CREATE_CAMPAIGN, "POST", "/campaigns", { key, body: { name: opts.name, ...opts.settings } }),
  );
  ok(
    "PUT steps",
    await call(routes.PUT_STEPS, "PUT", "", { key, params: { id: c.id }, body: { steps: [{ stepOrder: 0, ...opts.step }] } }),
  );
  ok("PUT pool", await call(routes.PUT_POOL, "PUT", "", { key, params: { id: c.id }, body: { mailboxIds: opts.mailboxIds } }));
  const leadIds: string[] = [];
  for (let i = 0; i < opts.leads.length; i += 1000) {
    const r = ok("POST /leads", await call(routes.CREATE_LEADS, "POST", "/leads", { key, body: { leads: opts.leads.slice(i, i + 1000) } }));
    leadIds.push(...(r.leadIds as string[]));
  }
  if (leadIds.length !== opts.leads.length) throw new Error(`POST /leads returned ${leadIds.length} ids for ${opts.leads.length} leads`);
  for (let i = 0; i < leadIds.length; i += 1000) {
    const r = ok(
      "POST campaign leads",
      await call(routes.ADD_LEADS, "POST", "", { key, params: { id: c.id }, body: { leadIds: leadIds.slice(i, i + 1000) } }),
    );
    const bad = (r.results as { mailboxId: string | null }[]).filter((x) => !x.mailboxId).length;
    if (bad) throw new Error(`${bad} leads were not assigned a mailbox`);
  }
  const s = ok(
    "PATCH status",
    await call(routes.STATUS, "PATCH", "", { key, params: { id: c.id }, body: { status: "ACTIVE", confirm: true } }),
  );
  if (s.status !== "ACTIVE") throw new Error(`campaign is ${s.status}, not ACTIVE`);
  return { id: c.id, leadIds };
}

/** `n` mailboxes that send to the sink (security NONE, the sink's login), rows written directly like test/factories.ts. */
async function sinkMailboxes(
  app: App,
  sink: Sink,
  workspaceId: string,
  n: number,
  mailbox: (i: number) => { email: string; dailySendCap: number; senderName: string },
) {
  const pwd = app.encryptSecret(SINK_PASSWORD);
  const mbs: Awaited<ReturnType<App["insertMailbox"]>>[] = [];
  for (let i = 0; i < n; i++) {
    const { email, dailySendCap, senderName } = mailbox(i);
    mbs.push(
      await app.insertMailbox(workspaceId, email, {
        smtpHost: sink.host,
        smtpPort: sink.port,
        smtpSecurity: "NONE",
        smtpUsername: email,
        smtpPasswordEnc: pwd,
        dailySendCap,
        senderName,
      }),
    );
  }
  return mbs;
}

/** `n` leads as POST /leads takes them: `${local}${i}@co${i % 211}.${domain}`. */
const leadInputs = (n: number, local: string, domain: string) =>
  Array.from({ length: n }, (_, i) => ({
    email: `${local}${i}@co${i % 211}.${domain}`,
    firstName: `First${i}`,
    lastName: `Last${i}`,
    companyName: `Company ${i % 211}`,
  }));

const STEP = {
  subject: "Quick question, {{firstName}}",
  bodyTemplate:
    "Hi {{firstName}},\n\nI noticed {{companyName}} has been growing its team, and wondered how you handle outbound today. " +
    "We help teams like yours book more meetings without hiring more reps.\n\nWould a 15-minute call next week make sense?\n\nBest,\n{{senderName}}",
};

// ---------------------------------------------------------------------------------------------
// 1. Delivery efficiency

interface DeliveryResult {
  ratio: number;
  pipeRate: number;
  rawRate: number;
  rawMimeRate: number;
  blockRatios: number[];
  profile: Profile;
  pipeEmails: number;
  pipeMs: number;
  pipeCpu: number;
  rawCpu: number;
  avgBytes: number;
  noDelay: { pipeRate: number; rawRate: number; profile: Profile; emails: number; ms: number };
}

async function partDelivery(app: App, sink: Sink): Promise<DeliveryResult> {
  const { dbm, schema, drizzle: d, transports } = app;
  const db = dbm.getDb();
  const need = D_MAILBOXES * (1 + 2 * BLOCKS * PASSES + 1 + PASSES); // warm-up, ABBA pipeline phases, TCP_NODELAY warm-up + phase
  const leadCount = Math.max(D_LEADS, need);
  say(
    `\n[1/3] Delivery: ${D_MAILBOXES} mailboxes, ${fmt(leadCount)} leads; ${BLOCKS} ABBA blocks, ${PASSES} passes (${fmt(PASSES * D_MAILBOXES)} emails) per phase, ${CONCURRENCY} mailboxes at a time…`,
  );
  const ws = await app.makeWorkspace("bench-delivery");
  const mbs = await sinkMailboxes(app, sink, ws.workspaceId, D_MAILBOXES, (i) => ({
    email: `sender${i}@delivery.bench.test`,
    dailySendCap: 1_000_000,
    senderName: `Sender ${i}`,
  }));
  const leads = leadInputs(leadCount, "lead", "delivery.test");
  const t0 = process.hrtime.bigint();
  const camp = await routeCampaign(app, ws.fullKey, {
    name: "Delivery bench",
    settings: { sendDaysOfWeek: [0, 1, 2, 3, 4, 5, 6], minGapMinutes: 0 },
    mailboxIds: mbs.map((m) => m.id),
    leads,
    step: STEP,
  });
  say(`  set up through the routes in ${fmt(elapsedMs(t0) / 1000, 1)} s`);

  const clock = new app.ManualClock(new Date("2026-11-02T09:00:00Z"));
  // The engine's pools, created ahead so their sendMail can be timed (the engine gets the same object back).
  for (const m of mbs) timeSendMail(transports.pooledTransport(m.id, app.smtpConfigOf(m)));

  const sentIdsBetween = async (from: Date, to: Date) =>
    new Set(
      (
        await db
          .select({ id: schema.emails.messageId })
          .from(schema.emails)
          .where(
            d.and(
              d.eq(schema.emails.campaignId, camp.id),
              d.eq(schema.emails.status, "SENT"),
              d.gte(schema.emails.createdAt, from),
              d.lt(schema.emails.createdAt, to),
            ),
          )
      ).map((r) => r.id),
    );

  const runPipe = async (passes: number, label: string, profile: boolean) => {
    await sink.collect();
    const from = clock.now();
    const cpu = cpuMeter();
    profiling = profile;
    const start = process.hrtime.bigint();
    let sent = 0;
    for (let p = 0; p < passes; p++) {
      const r = await app.sendDue(db, clock);
      if (r.sent !== D_MAILBOXES || r.failed || r.bounced)
        throw new Error(
          `${label}: a pass sent ${r.sent} of ${D_MAILBOXES} (failed ${r.failed}, bounced ${r.bounced}, mailboxes ${r.mailboxes})`,
        );
      sent += r.sent;
      clock.advance(1000);
    }
    const ms = elapsedMs(start);
    profiling = false;
    const c = cpu();
    const ids = await sentIdsBetween(from, clock.now());
    if (ids.size !== sent) throw new Error(`${label}: ${ids.size} SENT rows for ${sent} sends`);
    const got = await sink.collect();
    checkSink(label, got, ids);
    return { n: sent, ms, rate: (sent * 1000) / ms, cpuMs: c.cpuMs, bytes: got.bytes };
  };

  // Raw side: one pooled transport per mailbox with the engine's options, warmed with one message each.
  let raw = mbs.map((m) => app.smtpTransport(app.smtpConfigOf(m), { pool: true }));
  const [step] = await db.select().from(schema.campaignSteps).where(d.eq(schema.campaignSteps.campaignId, camp.id));
  const leadRows = await db
    .select()
    .from(schema.leads)
    .where(d.inArray(schema.leads.id, camp.leadIds.slice(0, D_MAILBOXES * PASSES)));
  type Msg = { mbx: number; id: string; msg: Record<string, unknown> };
  const prebuild = (passes: number): Msg[] => {
    const out: Msg[] = [];
    for (let p = 0; p < passes; p++) {
      for (let i = 0; i < D_MAILBOXES; i++) {
        const m = mbs[i];
        const lead = leadRows[(p * D_MAILBOXES + i) % leadRows.length];
        const r = app.renderStep(
          { subject: step.subject, bodyTemplate: step.bodyTemplate, bodyHtmlTemplate: step.bodyHtmlTemplate },
          lead,
          m,
          { knownCustomFields: [], htmlFromText: false },
        );
        const emailId = app.newId("eml");
        const messageId = `<${emailId.slice(4)}.${randomBytes(6).toString("hex")}@delivery.bench.test>`;
        out.push({
          mbx: i,
          id: messageId,
          msg: {
            from: { name: m.senderName!, address: m.email },
            to: lead.email,
            subject: r.subject,
            text: r.text,
            html: r.html ?? undefined,
            messageId,
            headers: { "List-Unsubscribe": `<${app.unsubscribeUrl(emailId)}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
            attachments: [],
          },
        });
      }
    }
    return out;
  };
  /** Same shape as sendDue: per pass one email per mailbox, a sliding pool of CONCURRENCY in flight. */
  const sendRaw = async (msgs: Msg[]) => {
    for (let p = 0; p < msgs.length; p += D_MAILBOXES)
      await runPool(msgs.slice(p, p + D_MAILBOXES), CONCURRENCY, (x) => raw[x.mbx].sendMail(x.msg));
  };
  const runRaw = async (passes: number, label: string, mime = false) => {
    let msgs = prebuild(passes);
    if (mime) {
      msgs = await Promise.all(
        msgs.map(async (x) => {
          const buf: Buffer = await new app.MailComposer(x.msg as never).compile().build();
          const from = (x.msg.from as { address: string }).address;
          return { ...x, msg: { envelope: { from, to: [x.msg.to as string] }, raw: buf } };
        }),
      );
    }
    await sink.collect();
    const cpu = cpuMeter();
    const start = process.hrtime.bigint();
    await sendRaw(msgs);
    const ms = elapsedMs(start);
    const c = cpu();
    const got = await sink.collect();
    checkSink(label, got, new Set(msgs.map((x) => x.id)));
    return { n: msgs.length, ms, rate: (msgs.length * 1000) / ms, cpuMs: c.cpuMs, bytes: got.bytes };
  };

  // Warm-up: one pass each (pools log in), untimed.
  const wp = await runPipe(1, "pipeline warm-up", false);
  const wr = await runRaw(1, "raw warm-up");
  say(`  warm-up: pipeline ${fmt(wp.rate)} emails/s, raw pool ${fmt(wr.rate)} emails/s (pools connected)`);

  resetProfile();
  const pipes: Awaited<ReturnType<typeof runPipe>>[] = [];
  const raws: Awaited<ReturnType<typeof runRaw>>[] = [];
  const blockRatios: number[] = [];
  for (let b = 0; b < BLOCKS; b++) {
    const plan = abbaPlan(b, "pipe", "raw");
    const bp: typeof pipes = [];
    const br: typeof raws = [];
    const line: string[] = [];
    for (const side of plan) {
      if (side === "pipe") {
        const r = await runPipe(PASSES, `pipeline block ${b + 1}`, true);
        bp.push(r);
        line.push(`pipeline ${fmt(r.rate).padStart(5)}`);
      } else {
        const r = await runRaw(PASSES, `raw block ${b + 1}`);
        br.push(r);
        line.push(`raw ${fmt(r.rate).padStart(5)}`);
      }
    }
    const r = pooledRate(bp) / pooledRate(br);
    blockRatios.push(r);
    pipes.push(...bp);
    raws.push(...br);
    say(`  block ${b + 1}: ${line.join(" | ")} emails/s → pipeline ÷ raw ${r.toFixed(3)}`);
  }
  const profile = snapshotProfile();
  const mimes = [await runRaw(PASSES, "raw MIME 1", true), await runRaw(PASSES, "raw MIME 2", true)];
  say(`  raw pool with prebuilt MIME (nodemailer raw): ${mimes.map((m) => fmt(m.rate)).join(", ")} emails/s`);

  // The same pair with TCP_NODELAY on the SMTP sockets (fresh pools on both sides), not judged.
  noDelay.on = true;
  for (const t of raw) t.close();
  transports.closeAllTransports();
  raw = mbs.map((m) => app.smtpTransport(app.smtpConfigOf(m), { pool: true }));
  for (const m of mbs) timeSendMail(transports.pooledTransport(m.id, app.smtpConfigOf(m)));
  await runPipe(1, "pipeline warm-up (TCP_NODELAY)", false);
  await runRaw(1, "raw warm-up (TCP_NODELAY)");
  resetProfile();
  const pipeNd = await runPipe(PASSES, "pipeline (TCP_NODELAY)", true);
  const profileNd = snapshotProfile();
  const rawNd = await runRaw(PASSES, "raw (TCP_NODELAY)");
  say(
    `  with TCP_NODELAY on the SMTP sockets: pipeline ${fmt(pipeNd.rate)}, raw pool ${fmt(rawNd.rate)} emails/s → ${(pipeNd.rate / rawNd.rate).toFixed(3)} (not judged)`,
  );
  for (const t of raw) t.close();
  transports.closeAllTransports();
  noDelay.on = false;
  // Leave nothing due behind: part 3 runs sendDue over the same database.
  await app.call(app.routes.STATUS, "PATCH", "", { key: ws.fullKey, params: { id: camp.id }, body: { status: "PAUSED" } });
  const pipeEmails = pipes.reduce((a, x) => a + x.n, 0);
  const pipeMs = pipes.reduce((a, x) => a + x.ms, 0);
  return {
    ratio: median(blockRatios),
    pipeRate: median(pipes.map((x) => x.rate)),
    rawRate: median(raws.map((x) => x.rate)),
    rawMimeRate: median(mimes.map((x) => x.rate)),
    blockRatios,
    profile,
    pipeEmails,
    pipeMs,
    pipeCpu: pipes.reduce((a, x) => a + x.cpuMs, 0) / pipeMs,
    rawCpu: raws.reduce((a, x) => a + x.cpuMs, 0) / raws.reduce((a, x) => a + x.ms, 0),
    avgBytes: pipes.reduce((a, x) => a + x.bytes, 0) / pipeEmails,
    noDelay: { pipeRate: pipeNd.rate, rawRate: rawNd.rate, profile: profileNd, emails: pipeNd.n, ms: pipeNd.ms },
  };
}

// ---------------------------------------------------------------------------------------------
// 2. Scheduler tick

interface TickRun {
  label: string;
  /** The scheduler's time (scheduleDue): the judged tick. */
  ms: number;
  /** The sender's time for the same emails (deliver), reported beside it. */
  deliverMs: number;
  mailboxes: number;
  sent: number;
  idle: number;
  claimMs: number;
  cpuMs: number;
  machineBusy: number;
  profile: Profile;
}

interface TickResult {
  ticks: TickRun[];
  bareMs: number[];
  bareRows: number;
  seedMs: number;
  tickSeconds: number;
  claimRatio: number;
}

async function partTick(app: App, sink: Sink, adminUrl: string, url: string): Promise<TickResult> {
  const { dbm, transports } = app;
  const { sql } = app.drizzle;
  say(
    `\n[2/3] Scheduler: ${fmt(T_MAILBOXES)} mailboxes, ${fmt(T_LEADS)} leads in ${ZONES.length} timezones, ${T_CAMPAIGNS} campaigns (separate database)…`,
  );
  await ensureDatabase(adminUrl, "bench_tick");
  await dbm.runMigrations(url);
  const db = dbm.createDb(url);
  const pg = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const t0 = process.hrtime.bigint();
    const clock = new app.ManualClock(new Date("2026-11-03T14:00:00Z")); // a Tuesday
    let dueZones = 0;
    const { workspaceId: ws } = await benchWorkspace(db, "Tick", { email: "tick@example.com", name: "Tick" });
    const domainId = await app.ensureDomain(db, ws, "tick.bench.test");
    const pwd = app.encryptSecret(SINK_PASSWORD);
    const M = T_MAILBOXES;
    const L = T_LEADS;
    const C = T_CAMPAIGNS;
    await pg.begin(async (tx) => {
      await tx`insert into campaigns (id, workspace_id, name, status, min_gap_minutes)
        select 'cmp_tick_' || c, ${ws}, 'Tick ' || c, 'ACTIVE', ${T_GAP_MIN} from generate_series(0, ${C - 1}) c`;
      await tx`insert into campaign_steps (id, workspace_id, campaign_id, step_order, variant_group, subject, body_template)
        select 'stp_tick_' || c, ${ws}, 'cmp_tick_' || c, 0, '', ${STEP.subject}, ${STEP.bodyTemplate} from generate_series(0, ${C - 1}) c`;
      await tx`insert into mailboxes (id, workspace_id, domain_id, email, sender_name, provider, esp_class, smtp_host, smtp_port, smtp_security, smtp_username,
          smtp_password_enc, imap_host, imap_port, imap_security, imap_username, imap_password_enc, daily_send_cap, last_checked_at)
        select 'mbx_tick_' || i, ${ws}, ${domainId}, 'sender' || i || '@tick.bench.test', 'Sender ' || i, 'CUSTOM', 'OTHER', ${sink.host}, ${sink.port}, 'NONE',
          'sender' || i || '@tick.bench.test', ${pwd}, ${sink.host}, 1, 'NONE', 'sender' || i || '@tick.bench.test', ${pwd}, 50, now()
        from generate_series(0, ${M - 1}) i`;
      await tx`insert into campaign_mailboxes (workspace_id, campaign_id, mailbox_id)
        select ${ws}, 'cmp_tick_' || (i % ${C}), 'mbx_tick_' || i from generate_series(0, ${M - 1}) i`;
      // Lead i belongs to mailbox i % M; its zone walks the 24 zones so each mailbox has 20 consecutive ones.
      await tx`insert into leads (id, workspace_id, email, first_name, last_name, company_name, timezone)
        select 'lead_tick_' || i, ${ws}, 'lead' || i || '@co' || (i % 997) || '.tick.test', 'First' || i, 'Last' || i, 'Company ' || (i % 997),
          (${ZONES}::text[])[1 + (((i % ${M}) * 7 + i / ${M}) % 24)]
        from generate_series(0, ${L - 1}) i`;
      // Steady state: a lead outside its window waits for the window's opening (what the engine's own
      // nextWindowOpen set in earlier ticks); one inside it is due now. BENCH_TICK_FIRST=1: all due.
      const [c0] = await tx`select send_window_start_hour as "sendWindowStartHour", send_window_end_hour as "sendWindowEndHour",
          send_days_of_week as "sendDaysOfWeek", default_timezone as "defaultTimezone" from campaigns where id = 'cmp_tick_0'`;
      const now = clock.now();
      const opens = ZONES.map((zone) => {
        const at = FIRST_TICK ? now : app.nextWindowOpen(c0 as never, zone, now);
        return { zone, at: at && at.getTime() !== now.getTime() ? at.toISOString() : null };
      });
      dueZones = opens.filter((o) => o.at === null).length;
      await tx`insert into campaign_leads (workspace_id, campaign_id, lead_id, mailbox_id, next_send_at)
        select ${ws}, 'cmp_tick_' || ((i % ${M}) % ${C}), 'lead_tick_' || i, 'mbx_tick_' || (i % ${M}), o.at
        from generate_series(0, ${L - 1}) i
        join jsonb_to_recordset(${JSON.stringify(opens)}::text::jsonb) as o(zone text, at timestamptz) on o.zone = (${ZONES}::text[])[1 + (((i % ${M}) * 7 + i / ${M}) % 24)]
        order by i`;
    });
    await pg`vacuum analyze`;
    const seedMs = elapsedMs(t0);
    const [{ due }] = await pg<
      { due: number }[]
    >`select count(*)::int as due from campaign_leads where workspace_id = ${ws} and next_send_at is null`;
    say(
      `  seeded with generate_series in ${fmt(seedMs / 1000, 1)} s: ${dueZones} of ${ZONES.length} zones in their window at ${clock.now().toISOString()}, ${fmt(due)} leads due${FIRST_TICK ? " (BENCH_TICK_FIRST=1: every lead due, the engine defers the others itself)" : ", the others deferred to their window's opening"}`,
    );

    // The engine's pools, created ahead (the engine gets the same objects back) so their sendMail can
    // be timed — and, by default, made instant: sendMail composes the MIME exactly as nodemailer would
    // (MailComposer) and hands it to an in-process sink that accepts at once, without a socket. The
    // tick then measures the engine's own work; part 1 measures real SMTP. BENCH_TICK_SMTP=socket uses
    // the smtp-server sink instead, with every pool logged in before timing (100 at a time).
    if (!TICK_SOCKET) smtpLabel = "sendMail → in-process sink (MIME build only, no socket)";
    const rows = await db.select().from(app.schema.mailboxes).where(app.drizzle.eq(app.schema.mailboxes.workspaceId, ws));
    const pools = rows.map((m) => transports.pooledTransport(m.id, app.smtpConfigOf(m)));
    const inproc = { ids: [] as string[], bytes: 0 };
    if (TICK_SOCKET) {
      for (const t of pools) timeSendMail(t);
      const w0 = process.hrtime.bigint();
      await runPool([...rows.keys()], 100, (i) =>
        pools[i].sendMail({
          from: rows[i].email,
          to: "warm-up@tick.test",
          subject: "warm-up",
          text: "warm-up",
          messageId: `<warm-${i}@tick.bench.test>`,
        }),
      );
      const warmMs = elapsedMs(w0);
      const warm = await sink.collect();
      if (warm.messages.length !== rows.length || warm.authFailures)
        throw new Error(`pool warm-up: the sink got ${warm.messages.length} of ${rows.length}, ${warm.authFailures} refused logins`);
      say(
        `  ${fmt(rows.length)} SMTP pools connected in ${fmt(warmMs / 1000, 1)} s (login + one message each, 100 at a time: ${fmt((warmMs * 100) / rows.length, 1)} ms per mailbox per lane)`,
      );
    } else {
      for (const t of pools) {
        (t as unknown as { sendMail: (m: Record<string, unknown>) => Promise<unknown> }).sendMail = async (m) => {
          const s0 = process.hrtime.bigint();
          const raw: Buffer = await new app.MailComposer(m as never).compile().build();
          inproc.ids.push(String(m.messageId));
          inproc.bytes += raw.length;
          if (profiling) {
            const ms = elapsedMs(s0);
            smtpStat.n++;
            smtpStat.ms += ms;
            smtpStat.all.push(ms);
          }
          return {
            accepted: [m.to],
            rejected: [],
            pending: [],
            response: "250 2.0.0 OK: queued",
            messageId: m.messageId,
            envelope: { from: m.from, to: [m.to] },
          };
        };
      }
      say(`  SMTP: in-process sink (MIME composed with nodemailer's MailComposer, accepted at once, no socket)`);
    }

    const bare = async () => {
      await db.execute(sql`update mailboxes set send_lease_until = null where workspace_id = ${ws}`);
      const now = clock.now().toISOString();
      const start = process.hrtime.bigint();
      const r = (await db.execute(sql`
        update mailboxes set send_lease_until = ${now}::timestamptz + interval '2 minutes'
        where id in (select id from mailboxes where workspace_id = ${ws} limit ${M} for update skip locked)
        returning id`)) as unknown as { id: string }[];
      const ms = elapsedMs(start);
      if (r.length !== M) throw new Error(`bare claim got ${r.length} of ${M} rows`);
      await db.execute(sql`update mailboxes set send_lease_until = null where workspace_id = ${ws}`);
      return ms;
    };
    const bareMs: number[] = [];
    for (let i = 0; i < 3; i++) bareMs.push(await bare());
    await pg`vacuum analyze mailboxes`;

    const sentCount = async (at: Date) => {
      const r = await pg<
        { id: string }[]
      >`select message_id as id from emails where workspace_id = ${ws} and status = 'SENT' and created_at = ${at}`;
      return new Set(r.map((x) => x.id));
    };
    const tick = async (label: string, limit: number | undefined): Promise<TickRun> => {
      if (TICK_SOCKET) await sink.collect();
      resetProfile();
      const at = clock.now();
      const cpu = cpuMeter();
      profiling = true;
      const start = process.hrtime.bigint();
      // The scheduler (claim → pick under every rule → SENDING rows committed), then the sender.
      const opts = limit ? { mailboxLimit: limit } : {};
      const planned = await app.scheduleDue(db, clock, opts);
      const ms = elapsedMs(start);
      const d0 = process.hrtime.bigint();
      const r = { ...(await app.deliver(db, clock, planned.work, opts)), mailboxes: planned.claimed };
      const deliverMs = elapsedMs(d0);
      profiling = false;
      const c = cpu();
      const profile = snapshotProfile();
      if (r.failed || r.bounced) throw new Error(`${label}: ${r.failed} failed, ${r.bounced} bounced`);
      const ids = await sentCount(at);
      if (ids.size !== r.sent) throw new Error(`${label}: ${ids.size} SENT rows for ${r.sent} sends`);
      if (TICK_SOCKET) checkSink(label, await sink.collect(), ids);
      else {
        checkSink(label, { messages: inproc.ids.map((id) => [id, "", ""]), bytes: inproc.bytes, connections: 0, authFailures: 0 }, ids);
        inproc.ids = [];
        inproc.bytes = 0;
      }
      const claim = [...profile.stmts.entries()].filter(([k]) => k.startsWith("claim")).reduce((a, [, e]) => a + e.ms, 0);
      const t: TickRun = {
        label,
        ms,
        deliverMs,
        mailboxes: r.mailboxes,
        sent: r.sent,
        idle: r.mailboxes - r.sent,
        claimMs: claim,
        cpuMs: c.cpuMs,
        machineBusy: c.machineBusy,
        profile,
      };
      say(
        `  ${label}: scheduler ${fmt(ms / 1000, 2)} s — ${fmt(r.mailboxes)} mailboxes claimed, ${fmt(planned.work.length)} emails committed as SENDING, ${fmt(r.mailboxes - planned.work.length)} idle; claim ${fmt(claim, 1)} ms; then the sender ${fmt(deliverMs / 1000, 2)} s for ${fmt(r.sent)} sent (${fmt((r.sent * 1000) / deliverMs)} emails/s); this process ${fmt((c.cpuMs / (ms + deliverMs)) * 100)} % of a core, machine ${fmt(c.machineBusy * 100)} % busy`,
      );
      return t;
    };
    const ticks: TickRun[] = [];
    ticks.push(await tick(`${FIRST_TICK ? "first " : ""}tick over all ${fmt(M)} mailboxes (mailboxLimit ${fmt(M)})`, M));
    clock.advance(14 * 60_000); // past every mailbox's gap (9 min × up to 1.5)
    ticks.push(await tick("the job's tick (default mailboxLimit 1,000)", undefined));
    for (let i = 0; i < 2; i++) bareMs.push(await bare());
    await explainSamples(pg, ticks[0].profile);
    say(`  bare SKIP LOCKED claim of the same ${fmt(M)} rows: ${bareMs.map((x) => fmt(x, 1)).join(", ")} ms`);
    transports.closeAllTransports();
    smtpLabel = "SMTP sendMail (pooled nodemailer → sink)";

    const claimRate = (ticks[0].mailboxes * 1000) / ticks[0].claimMs;
    const bareRate = (M * 1000) / median(bareMs);
    return { ticks, bareMs, bareRows: M, seedMs, tickSeconds: ticks[0].ms / 1000, claimRatio: claimRate / bareRate };
  } finally {
    await pg.end({ timeout: 5 }).catch(() => {});
    await db.$client.end({ timeout: 5 }).catch(() => {});
  }
}

// ---------------------------------------------------------------------------------------------
// 3. Cap fidelity

interface CapResult {
  sends: number;
  capacity: number;
  fidelity: number;
  overCap: number;
  weekend: number;
  gap: number;
  duplicate: number;
  violations: number;
  ms: number;
  passes: number;
  gridSteps: number;
  perDay: { day: string; sends: number; capacity: number }[];
  leadBound: number;
}

async function partCaps(app: App, sink: Sink): Promise<CapResult> {
  const { dbm, schema, drizzle: d } = app;
  const db = dbm.getDb();
  say(
    `\n[3/3] Caps: ${C_MAILBOXES} mailboxes (caps 5–20), ${fmt(C_LEADS)} leads, Mon–Fri, minGapMinutes ${C_GAP_MIN}, sendDue every ${C_STEP_MIN} simulated minutes for ${C_DAYS} days…`,
  );
  const ws = await app.makeWorkspace("bench-caps");
  const mbs = await sinkMailboxes(app, sink, ws.workspaceId, C_MAILBOXES, (i) => ({
    email: `capper${i}@caps.bench.test`,
    dailySendCap: 5 + (i % 16),
    senderName: `Capper ${i}`,
  }));
  const leads = leadInputs(C_LEADS, "cap", "caps.test");
  const camp = await routeCampaign(app, ws.fullKey, {
    name: "Caps bench",
    settings: { sendDaysOfWeek: C_WEEKDAYS, minGapMinutes: C_GAP_MIN },
    mailboxIds: mbs.map((m) => m.id),
    leads,
    step: STEP,
  });
  const assigned = new Map<string, number>();
  for (const r of await db
    .select({ m: schema.campaignLeads.mailboxId, n: d.sql<number>`count(*)::int` })
    .from(schema.campaignLeads)
    .where(d.eq(schema.campaignLeads.campaignId, camp.id))
    .groupBy(schema.campaignLeads.mailboxId))
    assigned.set(r.m!, r.n);

  const start = new Date("2026-11-05T00:00:00Z"); // a Thursday: Thu, Fri, Sat, Sun, Mon, Tue, Wed
  const end = new Date(start.getTime() + C_DAYS * 86_400_000);
  const clock = new app.ManualClock(start);
  await sink.collect();
  const t0 = process.hrtime.bigint();
  const stepMs = C_STEP_MIN * 60_000;
  const gridSteps = Math.ceil((end.getTime() - start.getTime()) / stepMs);
  /**
   * The earliest moment any mailbox of this workspace could be claimed again: claimMailboxes needs the
   * mailbox's next_send_at and lease passed and an ACTIVE lead of an ACTIVE campaign due. A pass that
   * claims nothing changes nothing, so the passes before that moment can be skipped (same grid).
   */
  const nextClaimable = async (): Promise<number> => {
    const [r] = (await db.execute(d.sql`
      select extract(epoch from min(greatest(coalesce(m.next_send_at, '-infinity'), coalesce(m.send_lease_until, '-infinity'), l.first_due))) * 1000 as t
      from mailboxes m
      join lateral (
        select min(coalesce(cl.next_send_at, '-infinity'::timestamptz)) as first_due
        from campaign_leads cl join campaigns c on c.id = cl.campaign_id
        where cl.mailbox_id = m.id and cl.status = 'ACTIVE' and c.status = 'ACTIVE' and (c.start_at is null or c.start_at <= ${end.toISOString()}::timestamptz)) l on l.first_due is not null
      where m.workspace_id = ${ws.workspaceId} and m.sending_enabled and m.login_failing_since is null and m.auto_paused_at is null`)) as unknown as {
      t: number | string | null;
    }[];
    return r.t === null ? Infinity : Number(r.t);
  };
  let passes = 0;
  let skipped = 0;
  let lastDay = start.toISOString().slice(0, 10);
  while (clock.now() < end) {
    const r = await app.sendDue(db, clock);
    if (r.failed || r.bounced) throw new Error(`caps: ${r.failed} failed, ${r.bounced} bounced at ${clock.now().toISOString()}`);
    passes++;
    clock.advance(stepMs);
    if (r.mailboxes === 0 && !C_EVERY_STEP) {
      // Nothing was claimable: jump, on the grid, to the first step at or after the next claimable moment.
      const t = await nextClaimable();
      const k = Math.min(
        Math.ceil((end.getTime() - clock.now().getTime()) / stepMs),
        Math.max(0, Math.ceil((t - clock.now().getTime()) / stepMs)),
      );
      if (k > 0) {
        clock.advance(k * stepMs);
        skipped += k;
      }
    }
    const day = clock.now().toISOString().slice(0, 10);
    if (day !== lastDay) process.stdout.write(`  ${lastDay} done (${fmt(elapsedMs(t0) / 1000, 1)} s)\r`);
    lastDay = day;
  }
  const ms = elapsedMs(t0);
  if (passes + skipped !== gridSteps) throw new Error(`caps: ${passes} passes + ${skipped} skipped steps ≠ ${gridSteps} grid steps`);
  say(
    `  ${fmt(passes)} passes in ${fmt(ms / 1000, 1)} s over ${fmt(gridSteps)} steps of ${C_STEP_MIN} min (${fmt(skipped)} skipped: nothing claimable until then${C_EVERY_STEP ? "" : "; BENCH_CAP_EVERY_STEP=1 runs them all"})${" ".repeat(20)}`,
  );

  const rows = await db
    .select({
      mailboxId: schema.emails.mailboxId,
      leadId: schema.emails.leadId,
      status: schema.emails.status,
      createdAt: schema.emails.createdAt,
      messageId: schema.emails.messageId,
    })
    .from(schema.emails)
    .where(d.eq(schema.emails.campaignId, camp.id));
  const failed = rows.filter((r) => r.status !== "SENT");
  if (failed.length) throw new Error(`caps: ${failed.length} emails not SENT (${failed[0].status})`);
  checkSink("caps", await sink.collect(), new Set(rows.map((r) => r.messageId)));

  // Independent capacity: per mailbox and UTC day, min(cap, window/gap slots, leads left).
  const days = Array.from({ length: C_DAYS }, (_, i) => new Date(start.getTime() + i * 86_400_000));
  const gapSteps = Math.max(1, Math.ceil(C_GAP_MIN / C_STEP_MIN));
  const slotsPerWeekday = Math.ceil(1440 / C_STEP_MIN / gapSteps); // no zone: any minute of an allowed UTC day
  const capOf = new Map(mbs.map((m) => [m.id, m.dailySendCap]));
  const perDay = days.map((d0) => ({ day: d0.toISOString().slice(0, 10), sends: 0, capacity: 0 }));
  let capacity = 0;
  let leadBound = 0;
  const capByMbxDay = new Map<string, number>();
  for (const m of mbs) {
    let left = assigned.get(m.id) ?? 0;
    days.forEach((d0, i) => {
      const allowed = C_WEEKDAYS.includes(d0.getUTCDay()) ? slotsPerWeekday : 0;
      const c = Math.min(m.dailySendCap, allowed, left);
      if (allowed > 0 && left < Math.min(m.dailySendCap, allowed)) leadBound++;
      left -= c;
      capacity += c;
      perDay[i].capacity += c;
      capByMbxDay.set(`${m.id}|${perDay[i].day}`, c);
    });
  }
  // What happened, and every rule break.
  const count = new Map<string, number>();
  let weekend = 0;
  for (const r of rows) {
    const day = r.createdAt.toISOString().slice(0, 10);
    count.set(`${r.mailboxId}|${day}`, (count.get(`${r.mailboxId}|${day}`) ?? 0) + 1);
    if (!C_WEEKDAYS.includes(r.createdAt.getUTCDay())) weekend++;
    const i = perDay.findIndex((p) => p.day === day);
    if (i >= 0) perDay[i].sends++;
  }
  let overCap = 0;
  for (const [k, n] of count) if (n > capOf.get(k.split("|")[0])!) overCap++;
  let gap = 0;
  const byMbx = new Map<string, number[]>();
  for (const r of rows) byMbx.set(r.mailboxId, [...(byMbx.get(r.mailboxId) ?? []), r.createdAt.getTime()]);
  for (const ts of byMbx.values()) {
    ts.sort((a, b) => a - b);
    for (let i = 1; i < ts.length; i++) if (ts[i] - ts[i - 1] < C_GAP_MIN * 60_000) gap++;
  }
  const duplicate = rows.length - new Set(rows.map((r) => r.leadId)).size;
  const sends = rows.length;
  return {
    sends,
    capacity,
    fidelity: sends / capacity,
    overCap,
    weekend,
    gap,
    duplicate,
    violations: overCap + weekend + gap + duplicate,
    ms,
    passes,
    gridSteps,
    perDay,
    leadBound,
  };
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const bench = await startBenchEnvironment("bench:send", {
    env: { RATE_LIMIT_DISABLED: "1", DNS_SERVERS: undefined, MAIL_PROVIDERS_FILE: undefined },
  });
  let sink: Sink | undefined;
  let closeTransports: (() => void) | undefined;
  try {
    await installStatementTimer();
    installNoDelaySwitch();
    const app = await loadApp();
    closeTransports = app.transports.closeAllTransports;
    sink = await startSink();
    say(`SMTP sink: smtp-server on ${sink.host}:${sink.port} (child process), AUTH PLAIN/LOGIN, no TLS, accepts at once`);

    let delivery: DeliveryResult | undefined;
    let tick: TickResult | undefined;
    let caps: CapResult | undefined;
    if (PARTS.has("1")) delivery = await partDelivery(app, sink);
    noDelay.on = true; // the scheduler and the caps are about the engine, not nodemailer's socket options
    if (PARTS.has("2")) tick = await partTick(app, sink, bench.adminUrl, bench.pg.server.url("bench_tick"));
    if (PARTS.has("3")) caps = await partCaps(app, sink);

    // --- Details ---
    if (delivery) {
      const per = delivery.pipeEmails;
      say(
        `\nDelivery pipeline, where the time goes (${fmt(per)} emails in ${fmt(delivery.pipeMs / 1000, 2)} s = ${fmt((delivery.pipeMs * 1000) / per)} µs wall per email; up to ${CONCURRENCY} in flight, so up to ${fmt((CONCURRENCY * delivery.pipeMs * 1000) / per)} lane-µs per email):`,
      );
      say(table(profileHeader(delivery.profile, "email"), profileRows(delivery.profile, per)));
      const nd = delivery.noDelay;
      say(
        `\nThe same with TCP_NODELAY on the SMTP sockets (${fmt(nd.emails)} emails in ${fmt(nd.ms / 1000, 2)} s = ${fmt((nd.ms * 1000) / nd.emails)} µs wall per email):`,
      );
      say(table(profileHeader(nd.profile, "email"), profileRows(nd.profile, nd.emails)));
    }
    if (tick) {
      for (const t of tick.ticks) {
        say(
          `\n${t.label}, where the time goes (scheduler ${fmt(t.ms, 0)} ms wall, one statement at a time; sender ${fmt(t.deliverMs, 0)} ms wall, up to ${CONCURRENCY} lanes; ${fmt(t.mailboxes)} mailboxes, ${fmt(t.sent)} sent):`,
        );
        say(table(profileHeader(t.profile, "mailbox"), profileRows(t.profile, Math.max(1, t.mailboxes))));
      }
    }
    if (caps) {
      say(`\nCap fidelity per UTC day (all ${C_MAILBOXES} mailboxes):`);
      say(
        table(
          ["day", "weekday", "sends", "capacity"],
          caps.perDay.map((p) => [p.day, new Date(`${p.day}T00:00:00Z`).toUTCString().slice(0, 3), fmt(p.sends), fmt(p.capacity)]),
        ),
      );
      say(
        `(${caps.leadBound} mailbox-days where the leads left, not the cap, bound the capacity; window/gap allow ${fmt(Math.ceil(1440 / C_STEP_MIN / Math.max(1, Math.ceil(C_GAP_MIN / C_STEP_MIN))))} per weekday)`,
      );
    }

    // --- Summary ---
    const rows: string[][] = [];
    const verdict = (ok: boolean) => (ok ? "PASS" : "BELOW TARGET");
    say(`\nSummary`);
    const m: string[][] = [];
    if (delivery) {
      m.push([
        "sendDue pipeline (claim → render → MIME → pooled SMTP → record)",
        `${fmt(delivery.pipeRate)} emails/s`,
        `this process ${fmt(delivery.pipeCpu * 100)} % of a core, ${fmt(delivery.avgBytes)} B/email`,
      ]);
      m.push([
        "raw nodemailer pools, prebuilt messages, same shape",
        `${fmt(delivery.rawRate)} emails/s`,
        `this process ${fmt(delivery.rawCpu * 100)} % of a core`,
      ]);
      m.push(["raw nodemailer pools, prebuilt MIME (raw)", `${fmt(delivery.rawMimeRate)} emails/s`, "not judged"]);
      m.push(["pipeline, TCP_NODELAY on SMTP sockets", `${fmt(delivery.noDelay.pipeRate)} emails/s`, "not judged"]);
      m.push([
        "raw pools, TCP_NODELAY on SMTP sockets",
        `${fmt(delivery.noDelay.rawRate)} emails/s`,
        `ratio ${(delivery.noDelay.pipeRate / delivery.noDelay.rawRate).toFixed(3)}, not judged`,
      ]);
    }
    if (tick) {
      for (const t of tick.ticks) {
        m.push([
          `${t.label}: scheduler`,
          `${fmt(t.ms / 1000, 2)} s`,
          `${fmt(t.mailboxes)} claimed, ${fmt(t.sent)} sent, ${fmt((t.ms * 1000) / Math.max(1, t.mailboxes))} µs/mailbox`,
        ]);
        m.push([
          `${t.label}: sender (render → MIME → instant sink → record)`,
          `${fmt(t.deliverMs / 1000, 2)} s`,
          `${fmt((t.sent * 1000) / Math.max(1, t.deliverMs))} emails/s, not judged`,
        ]);
      }
      m.push([
        "claim inside the full tick (UPDATE … SKIP LOCKED RETURNING *)",
        `${fmt(tick.ticks[0].claimMs, 1)} ms`,
        `${fmt(tick.ticks[0].mailboxes)} rows`,
      ]);
      m.push(["bare SKIP LOCKED claim, same rows", `${fmt(median(tick.bareMs), 1)} ms`, `median of ${tick.bareMs.length}`]);
    }
    if (caps)
      m.push([
        "7-day simulation",
        `${fmt(caps.sends)} sends / ${fmt(caps.capacity)} capacity`,
        `${fmt(caps.passes)} sendDue passes (of ${fmt(caps.gridSteps)} steps) in ${fmt(caps.ms / 1000, 1)} s`,
      ]);
    say(table(["measure", "value", "detail"], m));
    say("");
    if (delivery)
      rows.push([
        "delivery: pipeline ÷ raw pool",
        delivery.ratio.toFixed(3),
        `≥ ${TARGET_DELIVERY}`,
        verdict(delivery.ratio >= TARGET_DELIVERY),
      ]);
    if (tick) {
      rows.push([
        `one scheduler tick over ${fmt(T_MAILBOXES)} mailboxes, s`,
        tick.tickSeconds.toFixed(2),
        `≤ ${TARGET_TICK_S}`,
        verdict(tick.tickSeconds <= TARGET_TICK_S),
      ]);
      rows.push(["tick claim ÷ bare SKIP LOCKED", tick.claimRatio.toFixed(3), "—", "(no target)"]);
    }
    if (caps) {
      rows.push([
        "cap fidelity: sends ÷ capacity",
        caps.fidelity.toFixed(3),
        `≥ ${TARGET_FIDELITY}`,
        verdict(caps.fidelity >= TARGET_FIDELITY),
      ]);
      rows.push([
        `violations (over cap ${caps.overCap}, weekend ${caps.weekend}, gap ${caps.gap}, duplicate ${caps.duplicate})`,
        String(caps.violations),
        "= 0",
        verdict(caps.violations === 0),
      ]);
    }
    say(table(["ratio", "value", "target", "result"], rows));
    say(`\ntotal time ${fmt(elapsedMs(bench.t0) / 1000, 1)} s; load average now ${loadAverage()}`);
    const r3 = (n: number | undefined) => (n === undefined ? null : round3(n));
    say(
      JSON.stringify({
        deliveryVsRawPool: r3(delivery?.ratio),
        tickSeconds: tick ? Math.round(tick.tickSeconds * 100) / 100 : null,
        claimVsBareSkipLocked: r3(tick?.claimRatio),
        capFidelity: r3(caps?.fidelity),
        capViolations: caps ? caps.violations : null,
      }),
    );
  } finally {
    closeTransports?.();
    await sink?.close().catch(() => {});
    await bench.close();
  }
}

runBench("bench:send", main);
