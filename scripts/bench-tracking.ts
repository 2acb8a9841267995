/**
 * `npm run bench:tracking`: the open pixel and the click redirect against a bare
 * `node:http` server answering the same bytes, with the first open / first click still exact.
 *
 *  Three servers in this process: "route" hands each request to the route handler (app/t/o/[token],
 *  app/t/c/[token]: what `next dev` serves) through a minimal adapter (a web Request in, the Response's
 *  status, headers and body out — Next's own router is not in the measurement); "fast" is the production
 *  server's dispatch (lib/cli/web-server.ts webListener: the tracking fast path that `npm start` answers
 *  these paths with before Next); "bare" answers the same status, headers and bytes straight away. A load
 *  generator in a child process (keep-alive, BENCH_CONCURRENCY in flight, default 32) requests
 *  BENCH_EMAILS distinct emails' tokens (default 20,000), each several times, in ABBA phases of
 *  BENCH_PHASE_MS (default 2000). The pixel answers before its hit is written (the writer queues up to
 *  5,000 hits), so a route or fast phase ends when its hits are written and classified too: its time
 *  includes draining the writer and the settling pass (the next phase starts with no database work left over). Judged: route ÷ bare and fast ÷
 *  bare, opens and clicks, ≥ 0.25.
 *  Exactness: after the phases, each email that was opened has exactly one email.opened (clicked: one
 *  email.clicked), and 1,000 concurrent opens of one fresh email give exactly one email.opened.
 *
 * Each judged figure runs BENCH_RUNS times (default 3; one ABBA block each): median, spread and load
 * average. Starts its own throwaway embedded PostgreSQL; prints a table and a final JSON line; exits 0.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  abbaPlan,
  benchWorkspace,
  fmt,
  intEnv,
  judge,
  judgedJson,
  printJudged,
  runBench,
  say,
  startBenchEnvironment,
  startIpcHelper,
} from "./bench-util";

const EMAILS = intEnv("BENCH_EMAILS", 20_000);
const CONCURRENCY = intEnv("BENCH_CONCURRENCY", 32);
const PHASE_MS = intEnv("BENCH_PHASE_MS", 2000);
const TARGET = 0.25;
const PIXEL = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
const CLICK_URL = "https://example.com/landing?x=1";
const PERSON_AGENT = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Thunderbird/128.5.0";
/** Which judged ratios run: "all", or "fast" (the fast path alone: bench:engagement runs this). */
const SIDES = process.env.BENCH_SIDES === "fast" ? "fast" : "all";
/**
 * The requests' user agents, round-robin: a person's mail client (every hit counted), or with
 * BENCH_AGENTS=mixed the labelled corpus's (people, Apple's prefetch, scanners: what classification meets).
 */
async function agents(): Promise<string[]> {
  if (process.env.BENCH_AGENTS !== "mixed") return [PERSON_AGENT];
  const corpus = (await import("../test/fixtures/engagement-corpus.json")).default as { facts: { userAgent: string | null } }[];
  return corpus.map((h) => h.facts.userAgent ?? "");
}

/** The load generator: GETs the paths it is given, round-robin, `concurrency` in flight, for `ms`. */
const LOADGEN = `
const http = require("node:http");
ipc.on("message", (m) => {
  if (m.type === "close") { ipc.send({ type: "closed" }); setTimeout(() => process.exit(0), 10); return; }
  if (m.type !== "run") return;
  const agent = new http.Agent({ keepAlive: true, maxSockets: m.concurrency });
  let i = 0, done = 0, bad = 0, stop = false;
  const t0 = process.hrtime.bigint();
  const one = () => new Promise((resolve) => {
    const n = i++;
    const path = m.paths[n % m.paths.length];
    const headers = { "user-agent": m.agents[n % m.agents.length] };
    const req = http.get({ host: "127.0.0.1", port: m.port, path, agent, headers }, (res) => {
      if (res.statusCode !== m.status) bad++;
      res.resume();
      res.on("end", resolve);
    });
    req.on("error", () => { bad++; resolve(); });
  });
  const worker = async () => { while (!stop) { await one(); done++; } };
  setTimeout(() => { stop = true; }, m.ms);
  Promise.all(Array.from({ length: m.concurrency }, worker)).then(() => {
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    agent.destroy();
    ipc.send({ type: "result", done, bad, ms });
  });
});
`;

type Handler = (req: Request, ctx: { params: Promise<{ token: string }> }) => Promise<Response>;

/** Node request → web Request → the route → the Response written back (what an adapter must do at least). */
function routeServer(open: Handler, click: Handler): Server {
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = `http://127.0.0.1${req.url}`;
    const [, kind, token] = /^\/t\/([oc])\/([^?]+)/.exec(req.url ?? "") ?? [];
    const handler = kind === "o" ? open : click;
    handler(new Request(url, { headers: req.headers as Record<string, string> }), { params: Promise.resolve({ token: token ?? "" }) })
      .then(async (r) => {
        const body = r.body ? Buffer.from(await r.arrayBuffer()) : undefined;
        res.writeHead(r.status, Object.fromEntries(r.headers));
        res.end(body);
      })
      .catch(() => {
        res.writeHead(500);
        res.end();
      });
  });
}

/** The same answers with no work: the pixel, or the redirect to the URL in the query. */
function bareServer(): Server {
  return createServer((req, res) => {
    if (req.url?.startsWith("/t/o/")) {
      res.writeHead(200, { "content-type": "image/gif", "cache-control": "no-store, max-age=0" });
      res.end(PIXEL);
    } else {
      res.writeHead(302, { location: CLICK_URL, "cache-control": "no-store" });
      res.end();
    }
  });
}

/** The production server's dispatch; anything that is not a tracking hit would go to Next (here: 404). */
function fastServer(webListener: typeof import("../lib/cli/web-server").webListener): Server {
  return createServer(
    webListener((_req, res) => {
      res.writeHead(404);
      res.end();
    }),
  );
}

const listen = (s: Server) => new Promise<number>((r) => s.listen(0, "127.0.0.1", () => r((s.address() as AddressInfo).port)));

async function main() {
  const env = await startBenchEnvironment("bench:tracking", { env: { APP_URL: "http://127.0.0.1:1" } });
  const gen = startIpcHelper("loadgen", LOADGEN, "process");
  const servers: Server[] = [];
  try {
    const ws = await benchWorkspace(env.dbm.getDb(), "tracking");
    const { encryptSecret } = await import("../lib/crypto/secretbox");
    const sealed = encryptSecret("unused");
    await env.sql`insert into domains (id, workspace_id, domain) values ('dom_bench', ${ws.workspaceId}, 'bench.test')`;
    await env.sql`insert into mailboxes (id, workspace_id, domain_id, email, provider, smtp_host, smtp_port, smtp_security, smtp_username,
      smtp_password_enc, imap_host, imap_port, imap_security, imap_username, imap_password_enc)
      values ('mbx_bench', ${ws.workspaceId}, 'dom_bench', 'm@bench.test', 'CUSTOM', 'h', 1, 'NONE', 'u', ${sealed}, 'h', 1, 'NONE', 'u', ${sealed})`;
    await env.sql`insert into emails (id, workspace_id, mailbox_id, lead_email, campaign_id, message_id, subject, status, created_at)
      select 'eml_b' || g, ${ws.workspaceId}, 'mbx_bench', 'l' || g || '@x.test', 'cmp_bench', '<' || g || '@b>', 's', 'SENT', now()
      from generate_series(0, ${EMAILS}) g`;
    const { clickToken, openToken } = await import("../lib/sending/tracking");
    const ids = Array.from({ length: EMAILS }, (_, i) => `eml_b${i}`);
    const openPaths = ids.map((id) => `/t/o/${openToken(id)}`);
    const clickPaths = ids.map((id) => `/t/c/${clickToken(id, CLICK_URL)}?url=${encodeURIComponent(CLICK_URL)}`);
    const open = await import("../app/t/o/[token]/route");
    const click = await import("../app/t/c/[token]/route");
    const { flushTracking } = await import("../lib/analytics/tracking-answer");
    const route = routeServer(open.GET, click.GET);
    const fast = fastServer((await import("../lib/cli/web-server")).webListener);
    const bare = bareServer();
    servers.push(route, fast, bare);
    const ports = { route: await listen(route), fast: await listen(fast), bare: await listen(bare) };

    type Side = keyof typeof ports;
    const userAgents = await agents();
    const phase = async (side: Side, paths: string[], status: number, ms = PHASE_MS) => {
      gen.send({ type: "run", port: ports[side], paths, status, concurrency: CONCURRENCY, ms, agents: userAgents });
      const r = (await gen.next("result")) as { done: number; bad: number; ms: number };
      if (r.bad) throw new Error(`${side}: ${r.bad} answers were not ${status}`);
      const t0 = performance.now();
      await flushTracking(); // the phase's hits written and classified (settled): their database time counts
      return (r.done * 1000) / (r.ms + performance.now() - t0);
    };
    const ratio = (side: "route" | "fast", paths: string[], status: number) => async (b: number) => {
      const rates = { [side]: [] as number[], bare: [] as number[] };
      for (const s of abbaPlan(b, side, "bare")) rates[s].push(await phase(s, paths, status));
      const avg = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;
      say(`    ${side} ${fmt(avg(rates[side]))} req/s, bare ${fmt(avg(rates.bare))} req/s`);
      return avg(rates[side]) / avg(rates.bare);
    };
    // Warm-up: JIT, the pool's connections.
    await phase("route", openPaths, 200, 1000);
    await phase("fast", openPaths, 200, 1000);
    await phase("bare", openPaths, 200, 1000);
    const routeToo = SIDES === "all";
    const opens = routeToo ? await judge("open pixel: route ÷ bare node:http", ratio("route", openPaths, 200)) : null;
    const clicks = routeToo ? await judge("click redirect: route ÷ bare node:http", ratio("route", clickPaths, 302)) : null;
    const fastOpens = await judge("open pixel: fast path ÷ bare node:http", ratio("fast", openPaths, 200));
    const fastClicks = await judge("click redirect: fast path ÷ bare node:http", ratio("fast", clickPaths, 302));

    // Exact: one email.opened per opened email, one email.clicked per clicked email (every phase ended
    // with its hits written).
    const [c] = await env.sql`select
      (select count(*) from emails where workspace_id = ${ws.workspaceId} and opened_at is not null)::int as opened,
      (select count(*) from events where workspace_id = ${ws.workspaceId} and event = 'email.opened')::int as open_events,
      (select count(distinct data->>'sendEventId') from events where workspace_id = ${ws.workspaceId} and event = 'email.opened')::int as open_distinct,
      (select count(*) from emails where workspace_id = ${ws.workspaceId} and clicked_at is not null)::int as clicked,
      (select count(*) from events where workspace_id = ${ws.workspaceId} and event = 'email.clicked')::int as click_events`;
    if (c.opened !== c.open_events || c.open_events !== c.open_distinct || c.clicked !== c.click_events) {
      throw new Error(`first open / click not exact: ${JSON.stringify(c)}`);
    }
    say(
      `exact: ${fmt(c.opened)} emails opened, ${fmt(c.open_events)} email.opened; ${fmt(c.clicked)} clicked, ${fmt(c.click_events)} email.clicked`,
    );
    const lone = `/t/o/${openToken(`eml_b${EMAILS}`)}`;
    gen.send({ type: "run", port: ports.route, paths: [lone], status: 200, concurrency: 1000, ms: 1, agents: [PERSON_AGENT] });
    await gen.next("result");
    await flushTracking();
    const [one] =
      await env.sql`select count(*)::int as n from events where event = 'email.opened' and data->>'sendEventId' = ${`eml_b${EMAILS}`}`;
    if (one.n !== 1) throw new Error(`1,000 concurrent opens of one email gave ${one.n} email.opened`);
    say("exact: 1,000 concurrent opens of one email → 1 email.opened");

    say("");
    printJudged([
      ...(opens && clicks
        ? [
            { judged: opens, target: TARGET },
            { judged: clicks, target: TARGET },
          ]
        : []),
      { judged: fastOpens, target: TARGET },
      { judged: fastClicks, target: TARGET },
    ]);
    say(
      JSON.stringify({
        bench: "tracking",
        concurrency: CONCURRENCY,
        agents: process.env.BENCH_AGENTS === "mixed" ? "mixed" : "person",
        ...(opens && clicks ? { open: judgedJson(opens), click: judgedJson(clicks) } : {}),
        fastOpen: judgedJson(fastOpens),
        fastClick: judgedJson(fastClicks),
      }),
    );
  } finally {
    for (const s of servers) s.close();
    await gen.close();
    await env.close();
  }
}

runBench("bench:tracking", main);
