import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", ".next/**", "e2e/**", ".data/**"],
    globalSetup: ["test/global-setup.ts"],
    setupFiles: ["test/setup-db.ts"],
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { OUTREACH_SECRET: "test-secret-0123456789abcdef", NODE_ENV: "test", BCRYPT_ROUNDS: "4" },
  },
});
