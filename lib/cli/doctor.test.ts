import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanEnv, runCli } from "@/test/checkout";
import { startDnsPeer } from "@/test/peers/dns";
import { startHttpPeer } from "@/test/peers/http";
import { startSmtpPeer } from "@/test/peers/smtp";
import { runDoctor } from "./doctor";
import type { Check } from "./doctor-data";
import { freePort as closedPort } from "@/test/peers/ports";

type Peers = {
  dns: Awaited<ReturnType<typeof startDnsPeer>>;
  smtp: Awaited<ReturnType<typeof startSmtpPeer>>;
  app: Awaited<ReturnType<typeof startHttpPeer>>;
};
let peers: Peers;
const saved = { APP_URL: process.env.APP_URL, DNS_SERVERS: process.env.DNS_SERVERS };

beforeAll(async () => {
  peers = {
    dns: await startDnsPeer({ MX: { "example.org": [{ exchange: "mx.example.org", priority: 10 }] } }),
    smtp: await startSmtpPeer({ users: {} }),
    app: await startHttpPeer(),
  };
  peers.app.setResponder((r) =>
    r.url === "/api/health" ? { status: 200, headers: { "content-type": "application/json" }, body: '{"ok":true}' } : { status: 404 },
  );
});
afterAll(async () => {
  Object.assign(process.env, saved);
  await Promise.all([peers.smtp.close(), peers.app.close(), Promise.resolve(peers.dns.close())]);
});

async function doctor(opts: Parameters<typeof runDoctor>[0] = {}): Promise<{ code: number; report: { ok: boolean; checks: Check[] } }> {
  let text = "";
  const code = await runDoctor({ json: true, dnsName: "example.org", timeoutMs: 1500, write: (t) => (text += t), ...opts });
  return { code, report: JSON.parse(text) };
}

const byName = (checks: Check[]) => Object.fromEntries(checks.map((c) => [c.name, c]));

describe("outreach doctor", () => {
  it("checks Node, database, migrations, data folder, APP_URL, DNS and each SMTP port against real peers", async () => {
    process.env.APP_URL = peers.app.url("");
    process.env.DNS_SERVERS = peers.dns.server;
    const blocked = await closedPort();
    const { code, report } = await doctor({ smtpHost: "127.0.0.1", smtpPorts: [peers.smtp.port, blocked] });
    const c = byName(report.checks);
    expect(c["Node.js"]).toMatchObject({ status: "ok", detail: expect.stringContaining(process.versions.node) });
    expect(c["data folder"].status).toBe("ok");
    expect(c.secret).toMatchObject({ status: "ok", detail: "from OUTREACH_SECRET" });
    expect(c.database).toMatchObject({
      status: "ok",
      detail: expect.stringMatching(/^PostgreSQL 1\d\.\d+ \(DATABASE_URL → 127\.0\.0\.1:\d+\/t_/),
    });
    expect(c.migrations).toMatchObject({ status: "ok", detail: expect.stringMatching(/^all \d+ applied$/) });
    // Where the data lives (host and database, never the password), its size, and how to back it up.
    expect(c.data).toMatchObject({
      status: "ok",
      detail: expect.stringMatching(
        /^DATABASE_URL → 127\.0\.0\.1:\d+\/t_\w+, database [\d.]+ [KMG]?B — back it up with `npx outreach backup`/,
      ),
    });
    expect(c.data.detail).not.toContain(new URL(process.env.DATABASE_URL!).password);
    expect(c["backup tools"]).toMatchObject({ status: "ok", detail: expect.stringMatching(/pg_dump 1\d\.\d+, .*pg_restore 1\d\.\d+$/) });
    expect(c.credentials).toMatchObject({ status: "ok" });
    expect(c.APP_URL).toMatchObject({ status: "ok", detail: expect.stringContaining(peers.app.url("")) });
    expect(c.DNS).toMatchObject({ status: "ok", detail: expect.stringContaining("mx.example.org") });
    // One port open (the SMTP peer greets with 220), one refused: a warning that names both.
    expect(c["outbound SMTP"].status).toBe("warn");
    expect(c["outbound SMTP"].detail).toContain(`${peers.smtp.port} open (greeting 220)`);
    expect(c["outbound SMTP"].detail).toContain(`${blocked} blocked (refused)`);
    expect(c["outbound SMTP"].detail).toContain(`connect mailboxes on port ${peers.smtp.port}`);
    expect(report.ok).toBe(true);
    expect(code).toBe(0); // warnings are not blockers
  });

  it("exits 1 with blockers: DNS that does not answer, every SMTP port blocked, nothing at APP_URL", async () => {
    process.env.APP_URL = `http://127.0.0.1:${await closedPort()}`;
    process.env.DNS_SERVERS = `127.0.0.1:${await closedPort()}`;
    const { code, report } = await doctor({ smtpHost: "127.0.0.1", smtpPorts: [await closedPort()] });
    const c = byName(report.checks);
    expect(c.DNS).toMatchObject({ status: "fail", detail: expect.stringContaining("does not resolve through DNS_SERVERS=") });
    expect(c["outbound SMTP"]).toMatchObject({ status: "fail", detail: expect.stringContaining("this machine cannot send mail") });
    expect(c.APP_URL).toMatchObject({ status: "warn", detail: expect.stringContaining("cannot be reached from this machine") });
    expect(report.ok).toBe(false);
    expect(code).toBe(1);
  });

  it("as a command: a database that refuses is a blocker, --json prints one object, exit code 1", async () => {
    const r = await runCli(["doctor", "--json", "--smtp-host", "127.0.0.1", "--smtp-ports", String(peers.smtp.port)], {
      env: cleanEnv({
        DATABASE_URL: "postgres://app:pw-not-shown@127.0.0.1:1/outreach",
        DNS_SERVERS: peers.dns.server,
        OUTREACH_SECRET: "x",
      }),
    });
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(byName(report.checks).database).toMatchObject({
      status: "fail",
      detail: expect.stringContaining("cannot reach the database in DATABASE_URL (127.0.0.1:1)"),
    });
    expect(r.stdout).not.toContain("pw-not-shown");
  }, 60_000);
});
