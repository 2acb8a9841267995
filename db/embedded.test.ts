import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../test/peers/ports";
import { PASSWORD_FILE, startEmbeddedPostgres } from "./embedded";
import { ensureServiceUser, isRoot, packagedPgHome } from "./embedded-layout";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("the embedded PostgreSQL across package upgrades", () => {
  it("refuses data made by another major version, saying how to move it", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "outreach-oldpg-"));
    dirs.push(dataDir);
    chmodSync(dataDir, 0o755); // reachable, so the data stays in place even as root
    mkdirSync(path.join(dataDir, "pg"), { mode: 0o700 });
    writeFileSync(path.join(dataDir, "pg", "PG_VERSION"), "17\n");
    if (isRoot()) {
      const user = ensureServiceUser(); // as root a cluster belongs to the server's user
      chownSync(path.join(dataDir, "pg"), user.uid, user.gid);
    }
    const shipped = (await packagedPgHome()).version.split(".")[0];
    await expect(startEmbeddedPostgres({ dataDir, port: 1, persistent: true })).rejects.toThrow(
      `the data in ${path.join(dataDir, "pg")} was made by PostgreSQL 17, this install ships PostgreSQL ${shipped} — dump it with the old version and restore it (docs/operations.md)`,
    );
  });
});

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once("error", () => resolve(false));
    s.listen(port, "127.0.0.1", () => s.close(() => resolve(true)));
  });
}

describe("the embedded PostgreSQL of a data folder made anew", () => {
  it("refuses at once a cluster that does not take the folder's password, and leaves no server running", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "outreach-lostpw-"));
    dirs.push(dataDir);
    chmodSync(dataDir, 0o755);
    const port = await freePort();
    const first = await startEmbeddedPostgres({ dataDir, port });
    const cluster = first.layout.cluster;
    await first.stop();
    // The checkout's data folder deleted and made again (root keeps the cluster elsewhere): a new password file.
    writeFileSync(path.join(dataDir, PASSWORD_FILE), "another-password\n", { mode: 0o600 });
    const t0 = performance.now();
    await expect(startEmbeddedPostgres({ dataDir, port })).rejects.toThrow(
      `the PostgreSQL data at ${cluster} does not take the password in ${path.join(dataDir, PASSWORD_FILE)} — it was made by an earlier checkout`,
    );
    expect(performance.now() - t0).toBeLessThan(30_000); // not the 60 s wait for a server that never answers
    expect(await canListen(port)).toBe(true); // the server it started is stopped again
  }, 90_000);
});
