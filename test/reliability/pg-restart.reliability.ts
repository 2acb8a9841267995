import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMigrations } from "../../db/client";
import { ensureDatabase, type EmbeddedServer, startEmbeddedPostgres } from "../../db/embedded";
import { freePort } from "../peers/ports";
import { figure } from "./figures";
import { startChild } from "./processes";
import { type ProductionWeb, startProductionWeb } from "./production-web";

/**
 * A PostgreSQL restart while the production web server (bin/web-server.mjs on the Next build, what
 * `outreach start` runs) serves requests. Its own database (not the suite's shared one), stopped and
 * started again on the same data and port: while it is down an API request answers 503 UNAVAILABLE
 * with Retry-After: 5 in the API's error shape and /api/health says the database is down — never a
 * hang, never a crash — and once it is back the same process answers 200 again without a restart of
 * its own; nothing written before the outage is lost. No test harness sits between the client and the
 * product, so the answers checked are the product's own (its last-resort catch answers a text/plain 500).
 */
let root: string;
let port: number;
let pg: EmbeddedServer;
let url: string;
let web: ProductionWeb;
let key: string;

async function startPg(): Promise<EmbeddedServer> {
  return startEmbeddedPostgres({ dataDir: root, port, persistent: true });
}

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), "outreach-restart-"));
  port = await freePort();
  pg = await startPg();
  await ensureDatabase(pg.url("postgres"), "restart");
  url = pg.url("restart");
  await runMigrations(url);
  // A workspace and key made by the app's own setup, in a child on this database.
  const setup = await startChild("test/reliability/restart-setup.ts", { DATABASE_URL: url });
  key = await new Promise<string>((resolve) => setup.onLine((l) => l.startsWith("key ") && resolve(l.slice(4))));
  await setup.stop();
  web = await startProductionWeb({ DATABASE_URL: url, RATE_LIMIT_DISABLED: "1" });
}, 900_000);

afterAll(async () => {
  await web?.stop();
  await pg?.stop();
  rmSync(root, { recursive: true, force: true });
});

interface Answer {
  status: number;
  type: string;
  retryAfter: string | null;
  body: { code?: string; error?: string; total?: number; ok?: boolean; db?: boolean; down?: string[] };
}

/** One request to the web server; a body that is not JSON is kept as `{ error: <text> }` so a stray answer shows. */
async function call(method: string, p: string, body?: unknown): Promise<Answer> {
  const res = await fetch(`http://127.0.0.1:${web.port}${p}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  let parsed: Answer["body"];
  try {
    parsed = JSON.parse(text) as Answer["body"];
  } catch {
    parsed = { error: text.slice(0, 200) };
  }
  return { status: res.status, type: res.headers.get("content-type") ?? "", retryAfter: res.headers.get("retry-after"), body: parsed };
}

const request = (method: string, p: string, body?: unknown) => call(method, `/api/v1${p}`, body);

describe("a PostgreSQL restart under a running web process", () => {
  it("answers 503 UNAVAILABLE with Retry-After: 5 and a health saying db is down during the outage, and 200 again after it, losing nothing", async () => {
    const before = await request("POST", "/leads", { leads: [{ email: "kept@before.test" }] });
    expect(before.status).toBe(200);
    await pg.stop();
    const t0 = Date.now();
    const during = await request("GET", "/leads?limit=5");
    const duringMs = Date.now() - t0;
    const healthDown = await call("GET", "/api/health");
    pg = await startPg();
    let after = await request("GET", "/leads?limit=5");
    for (let i = 0; i < 20 && after.status !== 200; i++) after = await request("GET", "/leads?limit=5");
    const healthUp = await call("GET", "/api/health");
    const written = await request("POST", "/leads", { leads: [{ email: "new@after.test" }] }); // 200: the leads import answer
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    const [{ n }] = await sql`select count(*)::int as n from leads where email in ('kept@before.test', 'new@after.test')`;
    await sql.end();

    figure({
      suite: "pg-restart",
      name: "answer while PostgreSQL is down",
      value: `${during.status} ${during.body.code} Retry-After ${during.retryAfter} in ${duringMs} ms`,
      goal: "503 UNAVAILABLE Retry-After 5, no hang",
      pass: during.status === 503 && during.body.code === "UNAVAILABLE" && during.retryAfter === "5",
    });
    figure({
      suite: "pg-restart",
      name: "/api/health while PostgreSQL is down, after",
      value: `${healthDown.status} down=${JSON.stringify(healthDown.body.down)}, ${healthUp.status}`,
      goal: '503 down=["db"], 200',
      pass: healthDown.status === 503 && healthUp.status === 200,
    });
    figure({
      suite: "pg-restart",
      name: "same process after the restart: read, write",
      value: `${after.status}, ${written.status}`,
      goal: "200, 200",
      pass: after.status === 200 && written.status === 200,
    });
    figure({ suite: "pg-restart", name: "rows from before and after the outage", value: n, goal: "2", pass: n === 2 });
    expect(during).toMatchObject({ status: 503, retryAfter: "5", type: expect.stringContaining("application/json") });
    expect(during.body).toEqual({ error: expect.any(String), code: "UNAVAILABLE" });
    expect(healthDown.status).toBe(503);
    expect(healthDown.body).toEqual({ ok: false, db: false, down: ["db"], worker: { lastTickAt: null } });
    expect([after.status, written.status, healthUp.status]).toEqual([200, 200, 200]);
    expect(healthUp.body).toMatchObject({ ok: true, db: true, down: [] });
    expect(after.body.total).toBe(1);
    expect(n).toBe(2);
  });
});
