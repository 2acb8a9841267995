import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres } from "./embedded";
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
