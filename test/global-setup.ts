import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { runMigrations } from "../db/client";
import { ensureDatabase, startEmbeddedPostgres } from "../db/embedded";
import { freePort } from "./peers/ports";

declare module "vitest" {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgTemplate: string;
  }
}

/**
 * One real PostgreSQL for the whole run; one migrated template database that every test file clones
 * (test/setup-db.ts), so files run in parallel without seeing each other's rows.
 */
export default async function setup(project: TestProject) {
  // A private temp folder is fine: as root, what the `postgres` user must reach is placed elsewhere (db/embedded-layout).
  const root = mkdtempSync(path.join(tmpdir(), "outreach-test-"));
  const server = await startEmbeddedPostgres({ dataDir: root, port: await freePort(), persistent: false });
  const template = "outreach_template";
  await ensureDatabase(server.url("postgres"), template);
  await runMigrations(server.url(template));
  project.provide("pgAdminUrl", server.url("postgres"));
  project.provide("pgTemplate", template);
  return async () => {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  };
}
