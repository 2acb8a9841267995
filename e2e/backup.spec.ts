import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import postgres from "postgres";
import { startEmbeddedPostgres } from "../db/embedded";
import { cleanEnv, removeDataDir, removeTree, runCli, startCli, waitForOutput } from "../test/checkout";
import { freePort } from "../test/peers/ports";
import { ensurePgClientTools } from "../test/pg-client-tools";
import { apiClient, ok } from "./support/api";
import { signInAsOwner } from "./support/session";

/** The secret the app under test runs with (e2e/global-setup.ts): the restored instance must have the same. */
const SECRET = "e2e-secret";

test("backup → restore into a fresh database: a second instance on it signs the owner in and shows a lead made before the backup", async ({
  page,
  browser,
}) => {
  test.setTimeout(20 * 60_000);
  // pg_dump and pg_restore of the embedded server's version: at once when present, else built once for this machine.
  ensurePgClientTools();
  const email = `restored-${Date.now().toString(36)}@backup-e2e.example`;
  await signInAsOwner(page);
  await ok(apiClient(page).POST("/leads", { body: { leads: [{ email, firstName: "Restored" }] } }));

  const work = mkdtempSync(path.join(tmpdir(), "outreach-e2e-backup-"));
  const dump = path.join(work, "e2e.dump");
  const fresh = path.join(work, "data");
  const port = await freePort();
  const pgPort = await freePort();
  // A second instance: its own data folder, database port and web port, the first one's secret.
  const restored = cleanEnv({ OUTREACH_DATA_DIR: fresh, EMBEDDED_PG_PORT: String(pgPort), PORT: String(port), OUTREACH_SECRET: SECRET });
  let second: ReturnType<typeof startCli> | undefined;
  try {
    // The running instance's data folder and port: the backup joins its PostgreSQL while it serves.
    const running = cleanEnv({
      OUTREACH_DATA_DIR: process.env.E2E_DATA_DIR,
      EMBEDDED_PG_PORT: process.env.E2E_PG_PORT,
      OUTREACH_SECRET: SECRET,
    });
    const b = await runCli(["backup", "--out", dump], { env: running });
    expect(b.code, b.stderr).toBe(0);
    expect(b.stderr).toMatch(/backup written: .*e2e\.dump \(.+, (\d+) of \1 tables/);

    // Restore starts the fresh folder's embedded PostgreSQL (initdb) the way `outreach start` does, and stops it after.
    const r = await runCli(["restore", dump], { env: restored });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("this instance's secret opens the restored credentials");

    if (process.env.E2E_COMMAND === "dev") {
      // `next dev` has no production build for a second web server: the restored rows are read from its database.
      const server = await startEmbeddedPostgres({ dataDir: fresh, port: pgPort });
      const sql = postgres(server.url("outreach"), { max: 1, onnotice: () => {} });
      try {
        expect(await sql`select 1 from leads where email = ${email}`).toHaveLength(1);
      } finally {
        await sql.end({ timeout: 5 });
        await server.stop();
      }
      return;
    }

    // Web only (`serve`): a worker on the copy would send the restored campaigns a second time.
    second = startCli(["serve"], { env: restored });
    await waitForOutput(second, (o) => o.stderr.includes(`[web] ready on http://localhost:${port}`), 120_000);
    const context = await browser.newContext({ baseURL: `http://localhost:${port}` });
    try {
      const copy = await context.newPage();
      await signInAsOwner(copy, "/leads");
      await copy.getByLabel("Search leads").fill(email);
      await expect(copy.getByRole("table", { name: "Leads" }).getByRole("link", { name: email, exact: true })).toBeVisible();
    } finally {
      await context.close();
    }
  } finally {
    if (second && second.exitCode === null) {
      const exited = new Promise((r) => second?.once("exit", r));
      second.kill("SIGTERM"); // the launcher stops its web server, then its PostgreSQL
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
      if (second.exitCode === null) second.kill("SIGKILL");
    }
    removeDataDir(fresh);
    removeTree(work);
  }
});
