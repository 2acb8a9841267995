import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMigrations } from "../../db/client";
import { ensureDatabase, type EmbeddedServer, startEmbeddedPostgres } from "../../db/embedded";
import { freePort } from "../peers/ports";
import { figure } from "./figures";
import { type Child, startChild } from "./processes";

/**
 * Issue 18, item 4 (end): a PostgreSQL restart while a web process serves requests. Its own server
 * (not the suite's shared one), stopped and started again on the same data and port: requests during
 * the outage fail in the 2.1 shape (never a hang, never a crash), and once the server is back the same
 * process answers again without a restart of its own; nothing written before the outage is lost.
 */
let root: string;
let port: number;
let pg: EmbeddedServer;
let url: string;
let web: Child;
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
  web = await startChild("test/reliability/web-process.ts", { DATABASE_URL: url, RATE_LIMIT_DISABLED: "1" });
}, 180_000);

afterAll(async () => {
  await web?.stop();
  await pg?.stop();
  rmSync(root, { recursive: true, force: true });
});

async function request(method: string, p: string, body?: unknown) {
  const res = await fetch(`http://127.0.0.1:${web.port}/api/v1${p}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: res.status, body: (await res.json()) as { code?: string; error?: string; total?: number } };
}

describe("a PostgreSQL restart under a running web process", () => {
  it("answers errors in the API's error shape ({ error, code }) during the outage and serves again after it, losing nothing", async () => {
    const before = await request("POST", "/leads", { leads: [{ email: "kept@before.test" }] });
    expect(before.status).toBe(200);
    await pg.stop();
    const t0 = Date.now();
    const during = await request("GET", "/leads?limit=5");
    const duringMs = Date.now() - t0;
    pg = await startPg();
    let after = await request("GET", "/leads?limit=5");
    for (let i = 0; i < 20 && after.status !== 200; i++) after = await request("GET", "/leads?limit=5");
    const written = await request("POST", "/leads", { leads: [{ email: "new@after.test" }] }); // 200: the leads import answer
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    const [{ n }] = await sql`select count(*)::int as n from leads where email in ('kept@before.test', 'new@after.test')`;
    await sql.end();

    figure({
      suite: "pg-restart",
      name: "answer while PostgreSQL is down",
      value: `${during.status} ${during.body.code} in ${duringMs} ms`,
      goal: "5xx in the 2.1 shape, no hang",
      pass: during.status >= 500 && typeof during.body.code === "string",
    });
    figure({
      suite: "pg-restart",
      name: "same process after the restart: read, write",
      value: `${after.status}, ${written.status}`,
      goal: "200, 200",
      pass: after.status === 200 && written.status === 200,
    });
    figure({ suite: "pg-restart", name: "rows from before and after the outage", value: n, goal: "2", pass: n === 2 });
    expect(during.status).toBeGreaterThanOrEqual(500);
    expect(during.body).toMatchObject({ error: expect.any(String), code: expect.stringMatching(/^[A-Z_]+$/) });
    expect([after.status, written.status]).toEqual([200, 200]);
    expect(after.body.total).toBe(1);
    expect(n).toBe(2);
  });
});
