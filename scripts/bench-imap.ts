import { systemCtx } from "../lib/ctx";
/**
 * `npm run bench:imap`: mailboxes synced per minute by the real reply sync, against a hand-written
 * loop that does the same work with bare libraries (imapflow, mailparser's simpleParser, postgres.js)
 * over the same IMAP servers and accounts, in one run. Target ≥ 0.5.
 *
 * World: BENCH_MAILBOXES mailboxes (default 20), each with its own hoodiecrow IMAP server (hoodiecrow
 * is single-user per server — every login shares one message store — so one server per account keeps
 * the accounts apart), with the folders of test/peers/imap.ts (INBOX, Sent, Junk). The servers run in
 * one child process by default (BENCH_IMAP=process), so their CPU is not spent on the thread being
 * measured (a real IMAP server is another machine); BENCH_IMAP=inline runs them in this process.
 * Their sockets get TCP_NODELAY as real servers set it (BENCH_IMAP_NODELAY=0 leaves hoodiecrow's
 * default: Nagle + the client's delayed ACK then add ~40 ms per write pair, 100+ ms per command, and
 * both sides measure mostly that). One workspace holds the mailboxes, one ACTIVE campaign (stop on
 * reply), BENCH_EMAILS_PER_MAILBOX leads per mailbox (default 200), each with a SENT campaign email
 * from that mailbox and an ACTIVE campaign-lead row.
 *
 * A round: BENCH_MESSAGES new messages (default 3) are APPENDed to every INBOX with imapflow (untimed),
 * then both sides read exactly those new UIDs, one side after the other. The work per mailbox is the
 * same on both sides: find the new messages, download them, parse them, decide what each is, store them.
 *  - Job:  inboxSyncJob.run (inngest/functions/inbox-sync.ts → runInboxSync, lib/inbox/sync) as it is,
 *          as the sidecar runs it — one query for the due mailboxes' rows and one for their folder
 *          states, then the mailboxes read one after another on the sidecar's kept connections
 *          (lib/inbox/connections.ts: one per mailbox, reused from round to round, opened during the
 *          warm-up, auto-IDLE off, TCP_NODELAY): STATUS of Junk and Sent (nothing new, not opened),
 *          SELECT INBOX (read-only), one UID FETCH of the new UIDs' sizes and warmup marker, one UID
 *          FETCH of every wanted body; each body parsed once (simpleParser, PARSE_OPTIONS), checked for
 *          a bounce report, classified (isAutomatic + classify), matched to its lead and campaign email
 *          (one read per batch), and stored with its effects — replies, outbox events, stop-on-reply,
 *          imap_state — in one transaction whose statements are pipelined in one round trip, on the
 *          app's pool (postgres.js, prepared statements). The store trails the IMAP reads by at most one
 *          mailbox. The clock moves two minutes before each job phase so that every mailbox is due.
 *          Checked: every mailbox claimed, stored = mailboxes × messages, none failed, INBOX
 *          imap_state.last_uid = the last appended UID, reply count.
 *  - Bare: per mailbox, one after another, on its own kept imapflow connection (one per mailbox,
 *          opened before any timing, auto-IDLE off, TCP_NODELAY — as the job's): STATUS of Junk and
 *          Sent, SELECT INBOX (read-only), one UID FETCH of `last+1:*` with sizes and the warmup marker
 *          (as a careful loop needs to skip messages over 25 MB and warmup traffic before download),
 *          one UID FETCH of the wanted bodies; each parsed with simpleParser (the job's options),
 *          decided with the same rules (isAutomatic + classify, lib/ai/classify.ts), mapped to the
 *          columns the job writes to `replies`; then ONE prepared INSERT of the mailbox's rows (one
 *          jsonb parameter, jsonb_to_recordset, one round trip) into a plain table created `like
 *          replies` (no index, no trigger), on its own kept postgres.js connection (max 1,
 *          TCP_NODELAY). Not done by the bare loop: matching (a read), events, stop-on-reply,
 *          imap_state, a transaction — the job's extra work. Checked: the UIDs read are exactly the
 *          ones appended this round.
 * Neither side connects, logs in or out in a timed phase, and both build their IMAP clients with
 * lib/mail/imap's imapClient.
 * Messages cycle through three kinds: a threaded reply to one of the mailbox's campaign emails
 * (In-Reply-To/References; INTERESTED), a reply from a lead's address without thread headers
 * (QUESTION), and mail from a stranger (unmatched, after the colleague lookup). Each is a
 * multipart/alternative message of ~2–3 KB with a quoted original.
 *
 * Rounds run in ABBA blocks (job, bare | bare, job — then bare, job | job, bare …) after a warm-up
 * round. The judged part (bench-util's judge) runs BENCH_RUNS times (3) of BENCH_BLOCKS blocks (2); a
 * run's ratio is the median over its blocks of (job mailboxes/min ÷ bare mailboxes/min); the headline
 * is the median of the runs, printed with their spread and the load average after each (printJudged;
 * the machine may be shared: read the ratio with the load).
 *
 * A second, bounded-concurrency variant (BENCH_CONC_BLOCKS blocks, default 2; 0 turns it off) compares
 * like with like at BENCH_CONCURRENCY mailboxes in flight (default 5): syncMailbox (after the job's row
 * select, on the sidecar's connections) against the bare loop, both with a window of that many. The
 * job itself reads one mailbox at a time; this variant shows what a per-mailbox fan-out would do.
 *
 * Below target (or with BENCH_BREAKDOWN=1) two diagnostic rounds follow: the real job and the bare
 * loop again with every imapflow command (ImapFlow.prototype), every drizzle statement outside a
 * transaction and every db.transaction timed (the pipelined store of a batch goes straight to
 * postgres.js and counts in "rest"; as it overlaps the next reads, the rows do not add up), then with
 * Postgres's statement log on (statement counts and server time per kind); simpleParser and the
 * classifier are timed apart on the bytes the bare side read, and a `select 1` round trip gives scale.
 *
 * Knobs (env): BENCH_MAILBOXES (20), BENCH_MESSAGES (3 per mailbox per round), BENCH_RUNS (3 judged
 * runs), BENCH_BLOCKS (2 sequential ABBA blocks per run), BENCH_CONC_BLOCKS (2), BENCH_CONCURRENCY (5), BENCH_EMAILS_PER_MAILBOX
 * (200), BENCH_IMAP (process | inline), BENCH_IMAP_NODELAY (1 | 0), BENCH_BREAKDOWN=1 (diagnostic
 * rounds even at PASS), BENCH_PROFILE=1 (statement log through the measured job phases too),
 * BENCH_CPU_PROFILE=1 (V8 CPU profile of the measured sequential phases, µs per mailbox by package).
 *
 * Prints a table, PASS / BELOW TARGET and a final JSON line; exits 0 either way.
 */
import { randomBytes } from "node:crypto";
import type { AddressObject } from "mailparser";
import postgres from "postgres";
import {
  benchWorkspace,
  cpuMeter,
  CpuProfiler,
  elapsedMs,
  fmt,
  intEnv,
  judge,
  judgedJson,
  loadAverage,
  median,
  noDelaySocket,
  percentile,
  printJudged,
  round3,
  runBench,
  runPool,
  say,
  sleep,
  startBenchEnvironment,
  startIpcHelper,
  StatementLog,
  table,
} from "./bench-util";

const MAILBOXES = intEnv("BENCH_MAILBOXES", 20);
const PER_ROUND = intEnv("BENCH_MESSAGES", 3);
const RUNS = intEnv("BENCH_RUNS", 3);
const BLOCKS = intEnv("BENCH_BLOCKS", 2);
const CONC_BLOCKS = intEnv("BENCH_CONC_BLOCKS", 2, true);
const CONCURRENCY = intEnv("BENCH_CONCURRENCY", 5);
const EMAILS_PER_MAILBOX = intEnv("BENCH_EMAILS_PER_MAILBOX", 200);
const IMAP_MODE = process.env.BENCH_IMAP === "inline" ? "inline" : "process";
const NO_DELAY = process.env.BENCH_IMAP_NODELAY !== "0";
const FORCE_BREAKDOWN = process.env.BENCH_BREAKDOWN === "1";
const PROFILE = process.env.BENCH_PROFILE === "1";
const CPU_PROFILE = process.env.BENCH_CPU_PROFILE === "1";
const TARGET = 0.5;
const DOMAIN = "bench-inbox.test";

// ---------------------------------------------------------------------------------------------
// IMAP servers: plain JS so it runs the same in a child process (node -e) or in this one. One
// hoodiecrow server per account, configured like test/peers/imap.ts.

const IMAP_JS = `
const hoodiecrow = require("hoodiecrow-imap");
const servers = [];
let noDelay = true;
function start(user, password) {
  return new Promise((resolve, reject) => {
    const server = hoodiecrow({
      users: { [user]: { password } },
      plugins: ["IDLE", "SPECIAL-USE", "UIDPLUS", "ENABLE", "CONDSTORE", "LITERALPLUS"],
      storage: { INBOX: { messages: [] }, "": { separator: "/", folders: { Sent: { "special-use": "\\\\Sent", messages: [] }, Junk: { "special-use": "\\\\Junk", messages: [] } } } },
    });
    server.on("error", reject);
    // Real IMAP servers send with TCP_NODELAY; hoodiecrow leaves Nagle on, and its many small writes
    // then wait for the client's delayed ACK (~40 ms each on Linux loopback, 100+ ms per command).
    if (noDelay) server.server.on("connection", (s) => s.setNoDelay(true));
    server.listen(0, "127.0.0.1", () => {
      servers.push(server);
      resolve((server.server && server.server.address ? server.server.address() : server.address()).port);
    });
  });
}
ipc.on("message", async (m) => {
  try {
    if (m.type === "start") {
      const ports = [];
      noDelay = m.noDelay;
      for (const a of m.accounts) ports.push(await start(a.user, a.password));
      ipc.send({ type: "started", ports });
    } else if (m.type === "close") {
      await Promise.race([Promise.all(servers.map((s) => new Promise((r) => s.close(() => r())))), new Promise((r) => setTimeout(r, 1000))]);
      ipc.send({ type: "closed" });
    }
  } catch (e) {
    ipc.send({ type: "failed", error: String(e && e.stack || e) });
  }
});
`;

interface ImapHost {
  ports: number[];
  close(): Promise<void>;
}

async function startImapHost(mode: "process" | "inline", accounts: { user: string; password: string }[]): Promise<ImapHost> {
  const helper = startIpcHelper("IMAP host", IMAP_JS, mode);
  const started = helper.next("started");
  helper.send({ type: "start", accounts, noDelay: NO_DELAY });
  return { ports: (await started).ports as number[], close: () => helper.close() };
}

// ---------------------------------------------------------------------------------------------
// Messages

const mailboxEmail = (i: number) => `ann${i}@${DOMAIN}`;
const leadEmail = (i: number, n: number) => `lead${i}-${n}@co${n % 50}.example.com`;
const campaignMessageId = (i: number, n: number) => `<eml-${i}-${n}@${DOMAIN}>`;

const ORIGINAL = [
  "Hi there,",
  "",
  "I noticed your team is growing quickly and wanted to share a short idea about how companies like",
  "yours cut the time spent on manual reporting by half. We work with teams of 10 to 200 people and",
  "usually see results in the first month.",
  "",
  "Would it be worth a quick chat next week?",
  "",
  "Best,",
  "Ann",
];

const BODIES = [
  "Sounds interesting — can we book a call next Tuesday afternoon? I would like my colleague to join as well.",
  "Thanks for reaching out. What would this cost for a team of about 25 people, and how long does setup take?",
  "Hello, we are hosting a webinar on data tooling next month and thought you might like to attend. Regards, Events team",
];

/** Message j of round r for mailbox i: kind j % 3 (threaded reply / reply by address / stranger). */
function buildMessage(i: number, r: number, j: number, tag: string): string {
  const kind = j % 3;
  const n = (r * PER_ROUND + j) % EMAILS_PER_MAILBOX;
  const from = kind === 2 ? `Events <events-${r}-${j}@elsewhere-${i}.test>` : `"Lead ${n}" <${leadEmail(i, n)}>`;
  const subject = kind === 2 ? `Invitation: data tooling webinar ${r}` : "Re: Quick idea";
  const boundary = `b-${tag}-${i}-${r}-${j}`;
  const body = BODIES[kind];
  const quoted = kind === 2 ? [] : ["", `On Mon, 2 Nov 2026 at 09:00, Ann <${mailboxEmail(i)}> wrote:`, ...ORIGINAL.map((l) => `> ${l}`)];
  const text = [body, "", "--", `Lead ${n}`, "Head of Operations", ...quoted].join("\r\n");
  const html = `<div dir="ltr"><p>${body}</p><p>--<br>Lead ${n}<br>Head of Operations</p>${
    quoted.length
      ? `<div class="gmail_quote"><div>On Mon, 2 Nov 2026 at 09:00, Ann wrote:</div><blockquote>${ORIGINAL.map((l) => (l ? `<p>${l}</p>` : "")).join("")}</blockquote></div>`
      : ""
  }</div>`;
  return [
    `From: ${from}`,
    `To: Ann <${mailboxEmail(i)}>`,
    `Subject: ${subject}`,
    `Message-ID: <bench-${tag}-${i}-${r}-${j}@sender.test>`,
    `Date: ${new Date().toUTCString().replace("GMT", "+0000")}`,
    ...(kind === 0 ? [`In-Reply-To: ${campaignMessageId(i, n)}`, `References: ${campaignMessageId(i, n)}`] : []),
    "MIME-Version: 1.0",
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    "",
    `--${boundary}`,
    "Content-Type: text/plain; charset=utf-8",
    "Content-Transfer-Encoding: 8bit",
    "",
    text,
    `--${boundary}`,
    "Content-Type: text/html; charset=utf-8",
    "Content-Transfer-Encoding: 8bit",
    "",
    html,
    `--${boundary}--`,
    "",
  ].join("\r\n");
}

// ---------------------------------------------------------------------------------------------
// Statement profile (BENCH_PROFILE=1, and the breakdown's statement-log round): server time per
// statement kind, per step.

const statements = new StatementLog(PROFILE);
const printProfile = (step: string, mailboxes: number) =>
  statements.print(step, { n: mailboxes, of: "mailbox syncs", each: "mailbox", unit: "µs" }, 14);

// ---------------------------------------------------------------------------------------------
// CPU profile (BENCH_CPU_PROFILE=1): V8's sampling profiler around each measured sequential phase.

type Side = "job" | "bare";
const cpuProfile = new CpuProfiler<Side>(CPU_PROFILE, ["job", "bare"]);

// ---------------------------------------------------------------------------------------------

interface Sidecar {
  closeAll(): Promise<void>;
}

interface Phase {
  side: Side;
  variant: "seq" | "conc";
  ms: number;
  /** Mailboxes per minute. */
  rate: number;
  /** Per-mailbox wall time (sequential phases only). */
  perMailbox: number[];
  cpuMs: number;
  machineBusy: number;
}

async function main() {
  const bench = await startBenchEnvironment("bench:imap", {
    onServerLog: statements.onServerLog,
    logStatements: PROFILE,
    env: { IMAP_POLL_INTERVAL_S: "60" },
  });
  let imap: ImapHost | undefined;
  let sidecar: Sidecar | undefined;
  let closeBare = async () => {};
  try {
    const { ManualClock } = await import("@/lib/clock");
    const { newId } = await import("@/lib/ids");
    const { encryptSecret } = await import("@/lib/crypto/secretbox");
    const { imapClient } = await import("@/lib/mail/imap");
    const syncModule = await import("@/lib/inbox/sync");
    const { syncMailbox } = syncModule;
    const { inboxSyncJob } = await import("@/inngest/functions/inbox-sync");
    // The options syncMailbox parses with (when it names them), so the timed-apart parse matches.
    const parseOptions = syncModule.PARSE_OPTIONS;
    const { classify, isAutomatic } = await import("@/lib/ai/classify");
    const { insertMailbox } = await import("@/test/factories");
    const schema = await import("@/db/schema");
    const { eq, sql } = await import("drizzle-orm");
    const { ImapFlow } = await import("imapflow");
    const { PostgresJsPreparedQuery } = await import("drizzle-orm/postgres-js/session");
    // The sidecar's kept IMAP connections (the job's; passed to syncMailbox in the concurrent variant).
    const { noDelay, sidecarConnections } = await import("@/lib/inbox/connections");
    sidecar = sidecarConnections;
    const { simpleParser } = await import("mailparser");
    const { MAX_MESSAGE_BYTES } = syncModule;
    const db = bench.dbm.getDb();
    const adminSql = bench.sql;

    // --- IMAP servers: one hoodiecrow per account. ---
    const accounts = Array.from({ length: MAILBOXES }, (_, i) => ({
      user: mailboxEmail(i),
      password: `pw-${i}-${randomBytes(4).toString("hex")}`,
    }));
    imap = await startImapHost(IMAP_MODE, accounts);
    /** imapClient's settings for account i (the appends and the bare side). */
    const imapCfg = accounts.map((a, i) => ({
      host: "127.0.0.1",
      port: imap!.ports[i],
      security: "NONE" as const,
      username: a.user,
      password: a.password,
    }));
    say(
      `IMAP: ${MAILBOXES} hoodiecrow servers (one per account) on 127.0.0.1:${imap.ports[0]}…${imap.ports.at(-1)} (${IMAP_MODE === "process" ? "one child process" : "in this process"})`,
    );

    // --- Seed: workspace, mailboxes, a campaign, leads with a SENT email each and an ACTIVE campaign lead. ---
    const ws = await benchWorkspace(db, "Inbox");
    const mbRows: (typeof schema.mailboxes.$inferSelect)[] = [];
    for (let i = 0; i < MAILBOXES; i++) {
      mbRows.push(
        await insertMailbox(ws.workspaceId, mailboxEmail(i), {
          imapHost: "127.0.0.1",
          imapPort: imap.ports[i],
          imapSecurity: "NONE",
          imapUsername: accounts[i].user,
          imapPasswordEnc: encryptSecret(accounts[i].password),
        }),
      );
    }
    const campaignId = newId("cmp");
    await db
      .insert(schema.campaigns)
      .values({ id: campaignId, workspaceId: ws.workspaceId, name: "Bench inbox", status: "ACTIVE", stopOnReply: true });
    const seedAt = new Date(Date.now() - 7 * 86_400_000);
    for (let i = 0; i < MAILBOXES; i++) {
      const leadRows = Array.from({ length: EMAILS_PER_MAILBOX }, (_, n) => ({
        id: newId("lead"),
        workspaceId: ws.workspaceId,
        email: leadEmail(i, n),
        firstName: `Lead`,
        lastName: `${n}`,
        createdAt: seedAt,
        updatedAt: seedAt,
      }));
      for (let k = 0; k < leadRows.length; k += 1000) await db.insert(schema.leads).values(leadRows.slice(k, k + 1000));
      const emailRows = leadRows.map((l, n) => ({
        id: newId("eml"),
        workspaceId: ws.workspaceId,
        mailboxId: mbRows[i].id,
        leadId: l.id,
        leadEmail: l.email,
        campaignId,
        stepOrder: 0,
        messageId: campaignMessageId(i, n),
        subject: "Quick idea",
        status: "SENT" as const,
        createdAt: new Date(seedAt.getTime() + n * 60_000),
        sentAt: new Date(seedAt.getTime() + n * 60_000),
      }));
      for (let k = 0; k < emailRows.length; k += 1000) await db.insert(schema.emails).values(emailRows.slice(k, k + 1000));
      const clRows = leadRows.map((l) => ({
        workspaceId: ws.workspaceId,
        campaignId,
        leadId: l.id,
        mailboxId: mbRows[i].id,
        status: "ACTIVE" as const,
        nextStepOrder: 1,
        firstEmailedAt: seedAt,
        lastEmailedAt: seedAt,
      }));
      for (let k = 0; k < clRows.length; k += 1000) await db.insert(schema.campaignLeads).values(clRows.slice(k, k + 1000));
    }
    await adminSql`analyze`;
    say(
      `seed: 1 workspace, ${MAILBOXES} mailboxes, ${fmt(MAILBOXES * EMAILS_PER_MAILBOX)} leads with a SENT campaign email each (ACTIVE in one campaign, stop on reply)`,
    );

    // --- Rounds ---
    const tag = randomBytes(3).toString("hex");
    let round = 0;
    const expectedUids: number[][] = Array.from({ length: MAILBOXES }, () => []);
    const lastAppended: number[] = Array(MAILBOXES).fill(0);
    const appendRound = async () => {
      const r = round++;
      await runPool([...Array(MAILBOXES).keys()], 5, async (i) => {
        const c = imapClient(imapCfg[i]);
        c.on("error", () => {});
        await c.connect();
        const uids: number[] = [];
        try {
          for (let j = 0; j < PER_ROUND; j++) {
            const res = await c.append("INBOX", buildMessage(i, r, j, tag));
            if (!res || typeof res.uid !== "number") throw new Error(`APPEND to mailbox ${i} returned no UID`);
            uids.push(res.uid);
          }
        } finally {
          await c.logout().catch(() => c.close());
        }
        expectedUids[i] = uids;
        lastAppended[i] = Math.max(...uids);
      });
    };

    const clock = new ManualClock(new Date());
    const jobCtx = systemCtx(undefined, { db, clock });
    let storedTotal = 0;
    let jobOpenConnections: number | undefined;

    const checkJobState = async (step: string) => {
      const states = await db.select().from(schema.imapState).where(eq(schema.imapState.folder, "INBOX"));
      const byMb = new Map(states.map((s) => [s.mailboxId, s.lastUid]));
      for (let i = 0; i < MAILBOXES; i++) {
        if (byMb.get(mbRows[i].id) !== lastAppended[i])
          throw new Error(`${step}: imap_state.last_uid of mailbox ${i} is ${byMb.get(mbRows[i].id)}, expected ${lastAppended[i]}`);
      }
      const [{ n }] = await adminSql`select count(*)::int as n from replies`;
      if (n !== storedTotal) throw new Error(`${step}: ${n} replies stored, expected ${storedTotal}`);
    };

    /** The real job, sequential: inboxSyncJob.run until every mailbox was claimed. */
    const runJob = async (step: string): Promise<Phase> => {
      clock.advance(2 * 60_000); // every mailbox is due again
      statements.step = step;
      if (step !== "warmup") await cpuProfile.start();
      const cpu = cpuMeter();
      const start = process.hrtime.bigint();
      let claimed = 0;
      let stored = 0;
      let failed = 0;
      while (claimed < MAILBOXES) {
        const r = (await inboxSyncJob.run(jobCtx)) as { mailboxes: number; stored: number; failed: number; openConnections?: number };
        if (!r || r.mailboxes === 0) break;
        if (typeof r.openConnections === "number") jobOpenConnections = r.openConnections;
        claimed += r.mailboxes;
        stored += r.stored;
        failed += r.failed;
      }
      const ms = elapsedMs(start);
      const c = cpu();
      if (step !== "warmup") await cpuProfile.stop("job", MAILBOXES);
      statements.step = "idle";
      if (claimed !== MAILBOXES || stored !== MAILBOXES * PER_ROUND || failed !== 0) {
        throw new Error(
          `${step}: job claimed ${claimed} mailboxes, stored ${stored}, failed ${failed} (expected ${MAILBOXES}, ${MAILBOXES * PER_ROUND}, 0)`,
        );
      }
      storedTotal += stored;
      await checkJobState(step);
      return { side: "job", variant: "seq", ms, rate: (MAILBOXES * 60_000) / ms, perMailbox: [], ...c };
    };

    /** syncMailbox with a window of CONCURRENCY mailboxes in flight (after the job's row select). */
    const runSyncConc = async (step: string): Promise<Phase> => {
      clock.advance(2 * 60_000);
      statements.step = step;
      const cpu = cpuMeter();
      const start = process.hrtime.bigint();
      let stored = 0;
      await runPool(
        mbRows.map((m) => m.id),
        CONCURRENCY,
        async (id) => {
          const [m] = await db.select().from(schema.mailboxes).where(eq(schema.mailboxes.id, id));
          const r = await syncMailbox(jobCtx, m, { pool: sidecarConnections });
          if (r.stored !== PER_ROUND) say(`    ${step}: ${m.email} ${JSON.stringify(r)}`);
          stored += r.stored;
        },
      );
      const ms = elapsedMs(start);
      const c = cpu();
      statements.step = "idle";
      if (stored !== MAILBOXES * PER_ROUND) throw new Error(`${step}: stored ${stored}, expected ${MAILBOXES * PER_ROUND}`);
      storedTotal += stored;
      await checkJobState(step);
      return { side: "job", variant: "conc", ms, rate: (MAILBOXES * 60_000) / ms, perMailbox: [], ...c };
    };

    // Bare: what a careful hand-written loop does for the same sync with bare libraries, on kept
    // connections: its own idea of the last UID per mailbox (in memory); its own imapflow connection
    // per mailbox (opened before any timing, auto-IDLE off and TCP_NODELAY as the sidecar's); its own
    // postgres.js connection (max 1, TCP_NODELAY, kept, the INSERT prepared during the warm-up).
    const bareLast: number[] = Array(MAILBOXES).fill(0);
    let bareBytes = 0;
    const bareClients: InstanceType<typeof ImapFlow>[] = [];
    const bareSql = postgres(bench.url, { max: 1, onnotice: () => {}, ...noDelaySocket(bench.url) });
    // A plain table with the columns the job writes to replies (no index, no constraint but NOT NULL).
    await bareSql.unsafe("create table bench_bare_replies (like replies including defaults)");
    const r = schema.replies; // the columns the job's insert names (lib/inbox/ingest/store.ts, REPLY)
    const replyCols: { name: string; getSQLType(): string }[] = [r.id, r.workspaceId, r.mailboxId, r.leadId, r.campaignId, r.emailId];
    replyCols.push(r.messageId, r.inReplyTo, r.references, r.from, r.to, r.cc, r.subject, r.textBody, r.htmlBody, r.receivedAt);
    replyCols.push(r.intent, r.isAutoReply, r.folder, r.imapUid, r.createdAt);
    const bareInsertText =
      `insert into bench_bare_replies (${replyCols.map((c) => `"${c.name}"`).join(", ")}) ` +
      `select * from jsonb_to_recordset($1::jsonb) as r(${replyCols.map((c) => `"${c.name}" ${c.getSQLType()}`).join(", ")})`;
    const addressesOf = (a: AddressObject | AddressObject[] | undefined) =>
      (Array.isArray(a) ? a : a ? [a] : []).flatMap((x) => x.value).map((v) => ({ name: v.name || null, address: v.address ?? "" }));
    const openBare = async () => {
      await runPool([...Array(MAILBOXES).keys()], 5, async (i) => {
        const c = imapClient(imapCfg[i]);
        c.options.disableAutoIdle = true; // as the sidecar's pool
        c.on("error", () => {});
        await c.connect();
        noDelay(c); // as the sidecar's pool
        bareClients[i] = c;
      });
      closeBare = async () => {
        await Promise.all(bareClients.map((c) => c.logout().catch(() => c.close())));
        await bareSql.end({ timeout: 5 });
      };
    };
    const bareOne = async (i: number, keep?: Buffer[]) => {
      const c = bareClients[i];
      const got: number[] = [];
      for (const folder of ["Junk", "Sent"]) await c.status(folder, { uidNext: true, uidValidity: true });
      await c.mailboxOpen("INBOX", { readOnly: true });
      // Sizes and Message-IDs first: a message over 25 MB, or the service's own mail (warmup, placement
      // probes, known by Message-ID in one look-up), is not downloaded.
      const listed: { uid: number; id: string | null }[] = [];
      for await (const msg of c.fetch(`${bareLast[i] + 1}:*`, { uid: true, size: true, headers: ["message-id"] }, { uid: true })) {
        const id = /^message-id:\s*(<[^>\r\n]+>)/im.exec(msg.headers?.toString("latin1") ?? "")?.[1] ?? null;
        if (msg.uid > bareLast[i] && (msg.size ?? 0) <= MAX_MESSAGE_BYTES) listed.push({ uid: msg.uid, id });
      }
      const ids = listed.flatMap((x) => (x.id ? [x.id] : []));
      const service = new Set(
        ids.length
          ? (
              await bareSql`select message_id from warmup_messages where message_id = any(${ids})
                union all select message_id from placement_results where message_id = any(${ids})`
            ).map((r) => r.message_id as string)
          : [],
      );
      const wanted = listed.filter((x) => !x.id || !service.has(x.id)).map((x) => x.uid);
      const now = new Date();
      const rows: Record<string, unknown>[] = [];
      for await (const msg of c.fetch(wanted.join(","), { uid: true, source: true }, { uid: true })) {
        if (!msg.source) continue;
        got.push(msg.uid);
        bareBytes += msg.source.length;
        keep?.push(msg.source);
        const m = await simpleParser(msg.source, parseOptions);
        const text = m.text ?? "";
        const automatic = isAutomatic(m.headers as Map<string, unknown>, m.subject ?? "", text);
        const refs = m.references ? (Array.isArray(m.references) ? m.references : [m.references]) : [];
        rows.push({
          id: `bare_${randomBytes(8).toString("hex")}`,
          workspace_id: ws.workspaceId,
          mailbox_id: mbRows[i].id,
          lead_id: null, // matching (a read) is the job's alone
          campaign_id: null,
          email_id: null,
          message_id: m.messageId ?? `<uid-${msg.uid}@bare>`,
          in_reply_to: m.inReplyTo ?? null,
          references: [...new Set(m.inReplyTo ? [m.inReplyTo, ...refs] : refs)],
          from: addressesOf(m.from)[0] ?? null,
          to: addressesOf(m.to),
          cc: addressesOf(m.cc),
          subject: m.subject ?? "",
          text_body: text,
          html_body: typeof m.html === "string" ? m.html : null,
          received_at: (m.date ?? now).toISOString(),
          intent: classify({ automatic, text }),
          is_auto_reply: automatic,
          folder: "INBOX",
          imap_uid: msg.uid,
          created_at: now.toISOString(),
        });
      }
      // One INSERT of the mailbox's rows: prepared, one round trip.
      await bareSql.unsafe(bareInsertText, [rows as never], { prepare: true }); // typed jsonb: serialized once
      if (got.join(",") !== expectedUids[i].join(","))
        throw new Error(`bare: mailbox ${i} read UIDs ${got.join(",")}, expected ${expectedUids[i].join(",")}`);
      bareLast[i] = Math.max(bareLast[i], ...got);
    };
    const runBare = async (step: string, width: number, keep?: Buffer[]): Promise<Phase> => {
      if (step !== "warmup" && width === 1) await cpuProfile.start();
      const cpu = cpuMeter();
      const perMailbox: number[] = [];
      const start = process.hrtime.bigint();
      await runPool([...Array(MAILBOXES).keys()], width, async (i) => {
        const s = process.hrtime.bigint();
        await bareOne(i, keep);
        perMailbox.push(elapsedMs(s));
      });
      const ms = elapsedMs(start);
      const c = cpu();
      if (step !== "warmup" && width === 1) await cpuProfile.stop("bare", MAILBOXES);
      return { side: "bare", variant: width === 1 ? "seq" : "conc", ms, rate: (MAILBOXES * 60_000) / ms, perMailbox, ...c };
    };

    const runRound = async (plan: Side[], variant: "seq" | "conc", step: string): Promise<Phase[]> => {
      await appendRound();
      const out: Phase[] = [];
      for (const side of plan) {
        if (side === "job") out.push(variant === "seq" ? await runJob(step) : await runSyncConc(step + " conc"));
        else out.push(await runBare(step, variant === "seq" ? 1 : CONCURRENCY));
      }
      return out;
    };

    const runBlocks = async (variant: "seq" | "conc", blocks: number) => {
      const phases: Phase[] = [];
      const ratios: number[] = [];
      for (let b = 0; b < blocks; b++) {
        const plans: Side[][] =
          b % 2 === 0
            ? [
                ["job", "bare"],
                ["bare", "job"],
              ]
            : [
                ["bare", "job"],
                ["job", "bare"],
              ];
        const block: Phase[] = [];
        for (const plan of plans) block.push(...(await runRound(plan, variant, "job")));
        phases.push(...block);
        const ms = (side: Side) => block.filter((p) => p.side === side).reduce((a, p) => a + p.ms, 0);
        const r = ms("bare") / ms("job"); // same number of mailboxes on each side
        ratios.push(r);
        say(
          `  block ${b + 1}: ` +
            block.map((p) => `${p.side.padEnd(4)} ${fmt(p.ms).padStart(5)} ms`).join(" | ") +
            ` → job÷bare ${r.toFixed(3)}   (machine busy ${block.map((p) => fmt(p.machineBusy * 100)).join("/")} %)`,
        );
      }
      return { phases, ratio: median(ratios), ratios };
    };

    say(`\n${MAILBOXES} mailboxes × ${PER_ROUND} new messages per round; each round appends (untimed), then both sides read those UIDs.`);
    // Warm-up: the first sync of every mailbox (no imap_state yet), JIT, pools.
    await openBare(); // untimed, as the sidecar's connections are opened during the job's warm-up
    const warm = await runRound(["job", "bare"], "seq", "warmup");
    say(`  warm-up: job ${fmt(warm[0].ms)} ms, bare ${fmt(warm[1].ms)} ms for ${MAILBOXES} mailboxes`);

    say(`\n[1/2] sequential (as the job runs), judged: ${RUNS} runs of ${BLOCKS} ABBA blocks of 4 phases`);
    const seqPhases: Phase[] = [];
    const seqRatios: number[] = [];
    const judged = await judge(
      "job ÷ bare, sequential (mailboxes/min)",
      async () => {
        const r = await runBlocks("seq", BLOCKS);
        seqPhases.push(...r.phases);
        seqRatios.push(...r.ratios);
        return r.ratio; // the median of the run's blocks
      },
      { runs: RUNS },
    );
    const seq = { phases: seqPhases, ratios: seqRatios, ratio: judged.median, spread: judged.spread };

    let conc: Awaited<ReturnType<typeof runBlocks>> | undefined;
    if (CONC_BLOCKS > 0) {
      say(`\n[2/2] ${CONCURRENCY} mailboxes in flight on each side (syncMailbox vs bare): ${CONC_BLOCKS} ABBA blocks`);
      const w = await runRound(["job", "bare"], "conc", "warmup");
      say(`  warm-up: sync ${fmt(w[0].ms)} ms, bare ${fmt(w[1].ms)} ms`);
      conc = await runBlocks("conc", CONC_BLOCKS);
    }

    // Intent check over everything stored (untimed).
    const intents =
      (await adminSql`select intent, count(*)::int as n, count(lead_id)::int as matched from replies group by intent order by intent`) as unknown as {
        intent: string;
        n: number;
        matched: number;
      }[];
    const [{ n: replied }] = await adminSql`select count(*)::int as n from campaign_leads where status = 'REPLIED'`;
    const [{ n: evReplied }] = await adminSql`select count(*)::int as n from events where event = 'email.replied'`;

    const ratio = seq.ratio;
    const below = ratio < TARGET;

    // --- Diagnostic rounds: the real job and the bare loop with every imapflow command and every
    // db.transaction timed (wrappers on the shared prototypes / the db handle), then again with the
    // server's statement log on; parsing and classifying are timed apart on the bytes the bare side read. ---
    let breakdown:
      | { rows: string[][]; jobMs: number; bareMs: number; stmtsPerMailbox: number; dbServerMs: number; roundTripMs: number }
      | undefined;
    if (below || FORCE_BREAKDOWN) {
      const timers = new Map<string, { n: number; ms: number }>();
      let diagSide: Side | null = null; // null: not recorded (appends, the statement-log round)
      const addT = (k: string, ms: number) => {
        if (!diagSide) return;
        const key = `${diagSide}\t${k}`;
        const e = timers.get(key) ?? { n: 0, ms: 0 };
        e.n++;
        e.ms += ms;
        timers.set(key, e);
      };
      const proto = ImapFlow.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
      const saved = new Map<string, (...a: unknown[]) => unknown>();
      const folderOf = (c: unknown) => (c as { mailbox?: { path?: string } }).mailbox?.path ?? "?";
      const wrapAsync = (name: string, label: (self: unknown, args: unknown[]) => string) => {
        const orig = proto[name];
        saved.set(name, orig);
        proto[name] = async function (this: unknown, ...args: unknown[]) {
          const s = process.hrtime.bigint();
          try {
            return await orig.apply(this, args);
          } finally {
            addT(label(this, args), elapsedMs(s));
          }
        };
      };
      wrapAsync("connect", () => "IMAP connect (greeting, CAPABILITY, LOGIN, ID, ENABLE, NAMESPACE…)");
      wrapAsync("list", () => "IMAP LIST");
      wrapAsync("mailboxOpen", (_, a) => `IMAP SELECT ${String(a[0])}`);
      wrapAsync("fetchOne", (self) => `IMAP UID FETCH one body (${folderOf(self)})`);
      wrapAsync("logout", () => "IMAP LOGOUT");
      wrapAsync("status", (_, a) => `IMAP STATUS ${String(a[0])}`);
      {
        const orig = proto.fetch;
        saved.set("fetch", orig);
        proto.fetch = function (this: unknown, ...args: unknown[]) {
          const it = orig.apply(this, args) as AsyncIterator<unknown>;
          const q = args[1] as { source?: boolean };
          const label = `IMAP UID FETCH ${q?.source ? "bodies" : "sizes"} (${folderOf(this)})`;
          return (async function* () {
            let ms = 0;
            try {
              for (;;) {
                const s = process.hrtime.bigint();
                const r = await it.next();
                ms += elapsedMs(s);
                if (r.done) break;
                yield r.value;
              }
            } finally {
              addT(label, ms);
            }
          })();
        };
      }
      // Every drizzle statement (each one round trip) outside a transaction, by what it is; a
      // transaction as a whole (its statements are not counted apart).
      let inTx = 0;
      const stmtLabel = (q: string) =>
        /^\s*with items as/.test(q)
          ? "DB read: match the batch (thread headers, addresses, colleagues)"
          : /^\s*with ins as/.test(q)
            ? "DB write: the batch (replies, outbox events, stops, imap_state)"
            : /from "mailboxes"|from "imap_state"/.test(q) && /^select/.test(q)
              ? "DB: the cycle's mailbox rows and folder states (shared)"
              : `DB: ${q.replace(/\s+/g, " ").slice(0, 60)}`;
      const pqProto = PostgresJsPreparedQuery.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
      const origExec = pqProto.execute;
      pqProto.execute = async function (this: { queryString: string }, ...args: unknown[]) {
        if (inTx) return origExec.apply(this, args);
        const s = process.hrtime.bigint();
        try {
          return await origExec.apply(this, args);
        } finally {
          addT(stmtLabel(this.queryString), elapsedMs(s));
        }
      };
      const dbRec = db as unknown as Record<string, (...a: unknown[]) => unknown>;
      const origTx = dbRec.transaction;
      dbRec.transaction = async (...args: unknown[]) => {
        const s = process.hrtime.bigint();
        inTx++;
        try {
          return await origTx.apply(db, args);
        } finally {
          inTx--;
          addT("db.transaction (when a batch needs several statements)", elapsedMs(s));
        }
      };
      const jobMs: number[] = [];
      const bareMs: number[] = [];
      let sources: Buffer[] = [];
      try {
        /** The server's statement log on or off for every session (the second, logged round). */
        const logStatements = async (on: boolean) => {
          await adminSql.unsafe(on ? "alter system set log_min_duration_statement = 0" : "alter system reset log_min_duration_statement");
          await adminSql.unsafe("select pg_reload_conf()");
          await sleep(on ? 200 : 300);
          statements.enabled = on || PROFILE;
        };
        for (let dr = 0; dr < 2; dr++) {
          const logged = dr === 1;
          if (logged) await logStatements(true);
          diagSide = null;
          await appendRound();
          diagSide = logged ? null : "job";
          const j = await runJob(logged ? "diag job (statement log)" : "diag job");
          diagSide = logged ? null : "bare";
          sources = [];
          const b = await runBare(logged ? "diag bare (statement log)" : "diag bare", 1, sources);
          diagSide = null;
          if (logged) await logStatements(false);
          else {
            jobMs.push(j.ms / MAILBOXES);
            bareMs.push(b.ms / MAILBOXES);
          }
        }
      } finally {
        for (const [name, f] of saved) proto[name] = f;
        dbRec.transaction = origTx;
        pqProto.execute = origExec;
      }
      // Parsing and classifying, timed apart on the same bytes (syncMailbox does both per message).
      let parseMs = 0;
      let classifyMs = 0;
      for (let rep = 0; rep < 3; rep++) {
        for (const src of sources) {
          let s = process.hrtime.bigint();
          const parsed = await simpleParser(src, parseOptions);
          parseMs += elapsedMs(s);
          s = process.hrtime.bigint();
          classify({
            automatic: isAutomatic(parsed.headers as Map<string, unknown>, parsed.subject ?? "", parsed.text ?? ""),
            text: parsed.text ?? "",
          });
          classifyMs += elapsedMs(s);
        }
      }
      parseMs /= 3 * MAILBOXES;
      // The cost of one database round trip through the app's pool, for scale.
      const rtt: number[] = [];
      for (let k = 0; k < 200; k++) {
        const s = process.hrtime.bigint();
        await db.execute(sql`select 1`);
        rtt.push(elapsedMs(s));
      }
      const roundTripMs = median(rtt);
      classifyMs /= 3 * MAILBOXES;
      // Only the unlogged round's wrapper times count (the logged round is slower on the DB side).
      const perMb = (side: Side, k: string) => {
        const e = timers.get(`${side}\t${k}`);
        return e ? { ms: e.ms / MAILBOXES, n: e.n / MAILBOXES } : { ms: 0, n: 0 };
      };
      const keys = [...new Set([...timers.keys()].map((k) => k.split("\t")[1]))].sort((a, b) => perMb("job", b).ms - perMb("job", a).ms);
      const jobTotal = median(jobMs);
      const bareTotal = median(bareMs);
      const rows: string[][] = [];
      let jobCovered = 0;
      let bareCovered = 0;
      for (const k of keys) {
        const j = perMb("job", k);
        const b = perMb("bare", k);
        jobCovered += j.ms;
        bareCovered += b.ms;
        rows.push([
          k,
          j.n ? fmt(j.n, 1) : "",
          j.n ? fmt(j.ms, 2) : "",
          j.n ? `${fmt((j.ms / jobTotal) * 100, 1)} %` : "",
          b.n ? fmt(b.n, 1) : "",
          b.n ? fmt(b.ms, 2) : "",
        ]);
      }
      rows.push([
        "simpleParser (timed apart, same bytes)",
        fmt(PER_ROUND, 1),
        fmt(parseMs, 2),
        `${fmt((parseMs / jobTotal) * 100, 1)} %`,
        "",
        "",
      ]);
      rows.push([
        "classify + isAutomatic (timed apart, same messages)",
        fmt(PER_ROUND, 1),
        fmt(classifyMs, 2),
        `${fmt((classifyMs / jobTotal) * 100, 1)} %`,
        "",
        "",
      ]);
      const rest = jobTotal - jobCovered - parseMs - classifyMs;
      rows.push([
        "rest: JS (sync loop, classification set-up, DSN check, result mapping), event loop",
        "",
        fmt(rest, 2),
        `${fmt((rest / jobTotal) * 100, 1)} %`,
        "",
        fmt(bareTotal - bareCovered, 2),
      ]);
      rows.push(["total per mailbox (wall)", "", fmt(jobTotal, 2), "100 %", "", fmt(bareTotal, 2)]);
      // Statement counts and server time from the logged round.
      await sleep(300);
      const stmts = statements.steps.get("diag job (statement log)");
      const execs = stmts
        ? [...stmts.entries()].filter(([k]) => k.startsWith("execute") || k.startsWith("statemen")).reduce((a, [, e]) => a + e.n, 0)
        : 0;
      const serverMs = stmts ? [...stmts.values()].reduce((a, e) => a + e.ms, 0) : 0;
      breakdown = {
        rows,
        jobMs: jobTotal,
        bareMs: bareTotal,
        stmtsPerMailbox: execs / MAILBOXES,
        dbServerMs: serverMs / MAILBOXES,
        roundTripMs,
      };
    }

    // --- Summary ---
    const seqJobs = seq.phases.filter((p) => p.side === "job");
    const seqBare = seq.phases.filter((p) => p.side === "bare");
    const msPerMb = (ps: Phase[]) => median(ps.map((p) => p.ms / MAILBOXES));
    const cpuOf = (ps: Phase[]) =>
      `${fmt(median(ps.map((p) => (p.cpuMs / p.ms) * 100)))} % of a core, machine ${fmt(median(ps.map((p) => p.machineBusy * 100)))} % busy`;
    const rows: string[][] = [
      [
        "job (inboxSyncJob.run, sequential)",
        `${fmt(median(seqJobs.map((p) => p.rate)))} mailboxes/min`,
        `${fmt(msPerMb(seqJobs), 1)} ms per mailbox`,
        `${fmt((PER_ROUND * 1000) / msPerMb(seqJobs))} msgs/s`,
        cpuOf(seqJobs),
      ],
      [
        "bare imapflow + simpleParser + INSERT (kept connections), sequential",
        `${fmt(median(seqBare.map((p) => p.rate)))} mailboxes/min`,
        `${fmt(msPerMb(seqBare), 1)} ms per mailbox (p95 ${fmt(
          percentile(
            seqBare.flatMap((p) => p.perMailbox),
            95,
          ),
          1,
        )})`,
        `${fmt((PER_ROUND * 1000) / msPerMb(seqBare))} msgs/s`,
        cpuOf(seqBare),
      ],
    ];
    if (conc) {
      const cj = conc.phases.filter((p) => p.side === "job");
      const cb = conc.phases.filter((p) => p.side === "bare");
      rows.push([
        `syncMailbox, ${CONCURRENCY} in flight`,
        `${fmt(median(cj.map((p) => p.rate)))} mailboxes/min`,
        `${fmt(msPerMb(cj), 1)} ms per mailbox (wall)`,
        `${fmt((PER_ROUND * 1000) / msPerMb(cj))} msgs/s`,
        cpuOf(cj),
      ]);
      rows.push([
        `bare, ${CONCURRENCY} in flight`,
        `${fmt(median(cb.map((p) => p.rate)))} mailboxes/min`,
        `${fmt(msPerMb(cb), 1)} ms per mailbox (wall)`,
        `${fmt((PER_ROUND * 1000) / msPerMb(cb))} msgs/s`,
        cpuOf(cb),
      ]);
    }
    say(
      `\nSummary (medians over ${seqJobs.length} job and ${seqBare.length} bare sequential phases of ${MAILBOXES} mailboxes × ${PER_ROUND} new messages; ratio = median of ABBA block ratios)`,
    );
    say(table(["measure", "rate", "time", "messages", "CPU (this process; all cores)"], rows));
    say(
      jobOpenConnections === undefined
        ? "IMAP connections: the job opens one per mailbox sync and logs out (no reuse); so does the bare loop."
        : `IMAP connections: the job keeps ${jobOpenConnections} open between rounds (sidecar reuse); so does the bare loop (${MAILBOXES}, opened before timing).`,
    );
    say(
      `replies stored ${fmt(storedTotal)} (${intents.map((x) => `${x.intent} ${x.n}${x.matched !== x.n ? ` (${x.matched} matched)` : ""}`).join(", ")}); email.replied events ${evReplied}; campaign leads REPLIED ${replied}; bare read ${fmt(bareBytes / 1024)} KiB`,
    );
    say("");
    printJudged([{ judged, target: TARGET }]);
    say(`blocks (job ÷ bare): ${seq.ratios.map((r) => r.toFixed(2)).join(" ")}`);
    if (conc)
      say(
        `syncMailbox ÷ bare, ${CONCURRENCY} in flight (info, not judged): ${conc.ratio.toFixed(3)} (blocks ${conc.ratios.map((r) => r.toFixed(2)).join(" ")})`,
      );

    if (breakdown) {
      say(
        `\nWhere a mailbox sync's time goes (diagnostic round: the real job and bare loop with imapflow commands, drizzle statements and db.transaction timed; per mailbox):`,
      );
      say(table(["step", "job calls", "job ms", "job share", "bare calls", "bare ms"], breakdown.rows));
      say(
        `DB: ${fmt(breakdown.stmtsPerMailbox, 1)} statements per mailbox sync, one round trip each (the claim query shared by ${MAILBOXES}); ${fmt(breakdown.dbServerMs, 2)} ms of server time per mailbox ` +
          `(statement-log round); one \`select 1\` round trip through the app's pool takes ${fmt(breakdown.roundTripMs, 3)} ms here, so the round trips alone are ≈ ${fmt(breakdown.stmtsPerMailbox * breakdown.roundTripMs, 1)} ms per mailbox.`,
      );
      printProfile("diag job (statement log)", MAILBOXES);
    }
    if (PROFILE) {
      say("\n(BENCH_PROFILE=1: every statement is logged, which slows the job side; read the ratio above as pessimistic.)");
      await sleep(300);
      printProfile("job", seqJobs.length * MAILBOXES);
    }
    cpuProfile.print(
      `CPU profile of this process (BENCH_CPU_PROFILE=1), µs per mailbox sync; "(idle)" is waiting (IMAP server, Postgres, the kernel):`,
      { functions: 20, digits: 0 },
    );
    say(`\ntotal time ${fmt(elapsedMs(bench.t0) / 1000, 1)} s`);
    const out: Record<string, unknown> = {
      imapSyncVsBareSync: judgedJson(judged),
      loadAverage: loadAverage(),
    };
    if (conc) out.imapSyncVsBareSyncConcurrent = round3(conc.ratio);
    say(JSON.stringify(out));
  } finally {
    cpuProfile.disconnect();
    await sidecar?.closeAll().catch(() => {});
    await closeBare().catch(() => {});
    await imap?.close().catch(() => {});
    await bench.close();
  }
}

runBench("bench:imap", main);
