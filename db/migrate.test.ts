import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, describe, expect, inject, it } from "vitest";
import { cleanEnv, runCli } from "@/test/checkout";
import { migrationsFolder } from "./client";
import { checkDatabase } from "./diagnose";
import { ensureDatabase } from "./embedded";
import { applyMigrations, migrationStatus, readMigrations } from "./migrate";

const admin = inject("pgAdminUrl");
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A copy of db/migrations with one more migration that creates a table, then fails. */
function foldersWithBrokenMigration(): { root: string; folder: string; tag: string } {
  const root = mkdtempSync(path.join(tmpdir(), "outreach-mig-"));
  dirs.push(root);
  const folder = path.join(root, "db", "migrations");
  cpSync(migrationsFolder(), folder, { recursive: true });
  const journalFile = path.join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8"));
  const last = journal.entries.at(-1);
  const tag = `${String(journal.entries.length).padStart(4, "0")}_broken`;
  journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1000, tag });
  writeFileSync(journalFile, JSON.stringify(journal));
  writeFileSync(
    path.join(folder, `${tag}.sql`),
    "CREATE TABLE zz_probe (id int);\n--> statement-breakpoint\nSELECT * FROM no_such_table;\n",
  );
  return { root, folder, tag };
}

async function freshDb(name: string): Promise<string> {
  await ensureDatabase(admin, name);
  return admin.replace(/\/postgres$/, `/${name}`);
}

describe("migrations", () => {
  it("names the migration that failed; those before it stay applied, nothing from it on is", async () => {
    const { folder, tag } = foldersWithBrokenMigration();
    const committed = readMigrations(migrationsFolder());
    const url = await freshDb(`mig_${Date.now()}`);
    await expect(applyMigrations(url, folder)).rejects.toThrow(
      `migration ${tag} failed: relation "no_such_table" does not exist — nothing from ${tag} on was applied; the database is at ${committed.at(-1)!.tag}`,
    );
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    try {
      const [{ n }] = await sql<{ n: number }[]>`select count(*)::int as n from drizzle.__drizzle_migrations`;
      expect(n).toBe(committed.length);
      const [{ probe }] = await sql<{ probe: string | null }[]>`select to_regclass('zz_probe')::text as probe`;
      expect(probe).toBeNull(); // the failed migration's first statement was rolled back with it
    } finally {
      await sql.end();
    }
    expect(await migrationStatus(url, folder)).toEqual({ applied: committed.length, pending: [tag] });
    // Applying the committed ones again is a no-op.
    expect(await applyMigrations(url, migrationsFolder())).toEqual([]);
  });

  it("the CLI prints that failure in one line and exits 1", async () => {
    const { root, tag } = foldersWithBrokenMigration();
    const url = await freshDb(`mig_cli_${Date.now()}`);
    const r = await runCli(["migrate"], { env: cleanEnv({ DATABASE_URL: url, OUTREACH_ROOT: root }) });
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split("\n");
    expect(lines.at(-1)).toMatch(
      new RegExp(`^outreach: migration ${tag} failed: relation "no_such_table" does not exist — nothing from ${tag} on was applied`),
    );
    expect(lines.filter((l) => l.startsWith("outreach:"))).toHaveLength(1);
  }, 60_000);

  it("refuses a PostgreSQL older than the supported version, naming version, host and variable", async () => {
    const info = await checkDatabase(admin);
    expect(info.major).toBeGreaterThanOrEqual(14);
    await expect(checkDatabase(admin, { minMajor: 99 })).rejects.toThrow(
      new RegExp(
        `^PostgreSQL ${info.version.replace(/\./g, "\\.")} at 127\\.0\\.0\\.1:\\d+ \\(DATABASE_URL\\) is older than 99, the oldest Outreach supports — upgrade it`,
      ),
    );
  });
});
