import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { POST as CREATE_LEADS } from "@/app/api/v1/leads/route";
import { ensureDatabase } from "@/db/embedded";
import { decryptSecret, encryptSecret } from "@/lib/crypto/secretbox";
import { cleanEnv, runCli } from "@/test/checkout";
import { insertMailbox } from "@/test/factories";
import { call, makeWorkspace } from "@/test/helpers";
import { ensurePgClientTools } from "@/test/pg-client-tools";
import { ensureSecretCheck } from "./secret-check";

// Real pg_dump and pg_restore (of the server's major version, found the way the CLI finds them) against
// the suite's real PostgreSQL: one backup, restored into a fresh database, then the refusals.
const admin = inject("pgAdminUrl");
const source = process.env.DATABASE_URL!;
const secret = process.env.OUTREACH_SECRET!;
const work = mkdtempSync(path.join(tmpdir(), "outreach-backup-"));
const dump = path.join(work, "instance.dump");
let target: string;
let seeded: { workspace: string; lead: string; mailbox: string };

const cli = (args: string[], env: Record<string, string>) =>
  runCli(args, { env: cleanEnv({ OUTREACH_DATA_DIR: path.join(work, "data"), OUTREACH_SECRET: secret, ...env }) });

async function rows<T>(url: string, fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    return await fn(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

beforeAll(async () => {
  ensurePgClientTools();
  const name = `ws-backup-${randomBytes(3).toString("hex")}`;
  const ws = await makeWorkspace(name);
  const lead = `kept-${randomBytes(3).toString("hex")}@backup.example`;
  expect((await call(CREATE_LEADS, "POST", "/leads", { key: ws.fullKey, body: { leads: [{ email: lead }] } })).status).toBe(200);
  await insertMailbox(ws.workspaceId, "sender@backup.example", { smtpPasswordEnc: encryptSecret("smtp-pass-kept") });
  await ensureSecretCheck(source);
  seeded = { workspace: name, lead, mailbox: "sender@backup.example" };
  const fresh = `r_${randomBytes(6).toString("hex")}`;
  await ensureDatabase(admin, fresh);
  target = admin.replace(/\/postgres$/, `/${fresh}`);
  // A first build of the client tools on a machine without them takes minutes (once).
}, 15 * 60_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("outreach backup and restore", () => {
  it("backs up with progress and restores into a fresh database: workspace, lead and a mailbox password that decrypts", async () => {
    const b = await cli(["backup", "--out", dump, "--json"], { DATABASE_URL: source });
    expect(b.code, b.stderr).toBe(0);
    expect(b.stderr).toMatch(/\d+ of \d+ tables/);
    expect(b.stdout).not.toContain(new URL(source).password);
    const made = JSON.parse(b.stdout);
    expect(made).toMatchObject({ file: dump, tables: expect.any(Number) });
    expect(made.tables).toBeGreaterThan(10);
    expect(statSync(dump).mode & 0o077).toBe(0); // password hashes and sealed credentials: the owner's alone

    const r = await cli(["restore", dump, "--json"], { DATABASE_URL: target });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/restored .* \(\d+ of \d+ tables/);
    expect(JSON.parse(r.stdout)).toMatchObject({ tables: made.tables, secret: { status: "ok", checkValue: "ok" } });
    const back = await rows(target, async (sql) => ({
      ws: await sql`select id from workspaces where name = ${seeded.workspace}`,
      lead: await sql`select id from leads where email = ${seeded.lead}`,
      mbx: await sql<{ p: string }[]>`select smtp_password_enc as p from mailboxes where email = ${seeded.mailbox}`,
    }));
    expect(back.ws).toHaveLength(1);
    expect(back.lead).toHaveLength(1);
    expect(decryptSecret(back.mbx[0].p)).toBe("smtp-pass-kept");
  }, 180_000);

  it("refuses to restore over a database that holds data without --yes, and leaves it as it was", async () => {
    const r = await cli(["restore", dump], { DATABASE_URL: target });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /is not empty \(rows in workspaces, users, leads, mailboxes and \d+ more tables\): a restore replaces everything in it — run again with --yes/,
    );
    expect(await rows(target, (sql) => sql`select 1 from leads where email = ${seeded.lead}`)).toHaveLength(1);
  }, 60_000);

  it("with another secret: restores (--yes replaces the data) and says the credentials cannot be decrypted and what to do", async () => {
    await rows(target, (sql) => sql`insert into app_settings (key, value) values ('restore-probe', 'replaced by the restore')`);
    const r = await cli(["restore", dump, "--yes"], { DATABASE_URL: target, OUTREACH_SECRET: "not-the-secret-of-the-backup" });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("the stored credentials (mailbox passwords, OAuth tokens, AI keys) cannot be decrypted");
    expect(r.stderr).toContain("Set OUTREACH_SECRET to the secret of the instance the data came from");
    const after = await rows(target, async (sql) => ({
      probe: await sql`select 1 from app_settings where key = 'restore-probe'`,
      lead: await sql`select 1 from leads where email = ${seeded.lead}`,
    }));
    expect(after.probe).toHaveLength(0);
    expect(after.lead).toHaveLength(1);
  }, 120_000);
});
