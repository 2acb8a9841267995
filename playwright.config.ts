import { defineConfig } from "@playwright/test";

/**
 * Dashboard flows against a started app (e2e/global-setup.ts starts `outreach start` on a fresh
 * embedded database) in Debian's Chromium — no browser download.
 */
export default defineConfig({
  testDir: "e2e",
  globalSetup: "./e2e/global-setup.ts",
  // One app, one database: the specs share them, so they run one at a time.
  workers: 1,
  fullyParallel: false,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [["list"], ["html", { open: "never" }]] : "list",
  use: {
    // Set by the global setup, which runs before the workers start (they inherit its environment).
    baseURL: process.env.E2E_BASE_URL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [
    // The first-run flow needs an instance with no user yet, so it runs before every other spec.
    { name: "first-run", testMatch: /first-run\.spec\.ts$/, use: { browserName: "chromium" } },
    { name: "chromium", testIgnore: /first-run\.spec\.ts$/, dependencies: ["first-run"], use: { browserName: "chromium" } },
  ],
});
