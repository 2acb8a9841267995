import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * `npm run test:reliability` (issue 18): the suites under test/reliability, each printing its
 * figures with their goals (test/reliability/report.ts prints the table at the end). RELIABILITY_FAST=1
 * runs the reduced sizes CI uses. Same real Postgres and cloned databases as `npm test`.
 */
// Set here, in the main process, so the global setup (report.ts) and every test fork share one file.
process.env.RELIABILITY_FIGURES ??= path.join(tmpdir(), `outreach-reliability-${process.pid}.jsonl`);

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["test/reliability/**/*.reliability.ts"],
    globalSetup: ["test/global-setup.ts", "test/reliability/report.ts"],
    setupFiles: ["test/setup-db.ts"],
    pool: "forks",
    // The memory suite collects garbage before each measured request, so it measures what a request keeps.
    execArgv: ["--expose-gc"],
    maxWorkers: 2,
    testTimeout: 600_000,
    hookTimeout: 120_000,
    env: {
      OUTREACH_SECRET: "test-secret-0123456789abcdef",
      NODE_ENV: "test",
      BCRYPT_ROUNDS: "4",
    },
  },
});
