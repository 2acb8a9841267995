import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { removeDataDir } from "../test/checkout";
import { signInAsOwner } from "./support/session";
import { freePort } from "../test/peers/ports";

const root = path.resolve(import.meta.dirname, "..");

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const c = createConnection({ port, host: "127.0.0.1" });
    c.once("connect", () => {
      c.destroy();
      resolve(true);
    });
    c.once("error", () => resolve(false));
  });
}

test("API paths no route matches, and ids with broken or literal percent signs, answer in the error shape over HTTP", async ({ page }) => {
  await signInAsOwner(page, "/leads");
  const cases: [string, string, number, string][] = [
    ["GET", "/api/v1/leads/%25", 404, "NOT_FOUND"], // a literal % as the id: decoded once, not twice
    ["GET", "/api/v1/leads/%", 400, "BAD_REQUEST"], // a bare %: no valid decoding at all
    ["GET", "/api/v1/campaigns/%zz/steps", 400, "BAD_REQUEST"],
    ["GET", "/api/v1/no-such-route", 404, "NOT_FOUND"],
    ["POST", "/api/v1/leads/lead_x/no-such-action", 404, "NOT_FOUND"],
    ["DELETE", "/api/v1/campaigns", 405, ""], // a route that exists, without that method
  ];
  for (const [method, url, status, code] of cases) {
    const res = await page.request.fetch(url, { method });
    expect(res.status(), `${method} ${url}`).toBe(status);
    if (!code) continue;
    expect(res.headers()["content-type"], `${method} ${url}`).toContain("application/json");
    expect(await res.json(), `${method} ${url}`).toMatchObject({ code, error: expect.any(String) });
  }
});

test("the sign-in and setup pages load without a missing file, and the favicon is served", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const page = await context.newPage();
  const failed: string[] = [];
  page.on("response", (r) => r.status() >= 400 && failed.push(`${r.status()} ${r.url()}`));
  await page.goto("/login");
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  await page.goto("/setup");
  await page.waitForLoadState("networkidle");
  expect(failed).toEqual([]);
  await expect(page.locator('link[rel="icon"]').first()).toHaveAttribute("href", /icon/);
  const ico = await page.request.get("/favicon.ico");
  expect(ico.status()).toBe(200);
  expect(ico.headers()["content-type"]).toMatch(/image/);
  await context.close();
});

test("the Leads page-size picker shows its whole label", async ({ page }) => {
  await signInAsOwner(page, "/leads");
  const picker = page.getByLabel("Rows per page");
  await expect(picker).toBeVisible();
  // The widest option's text must fit inside the control beside its arrow (it read "50 / p" when clipped).
  const fits = await picker.evaluate((el: HTMLSelectElement) => {
    const style = getComputedStyle(el);
    const probe = document.createElement("span");
    probe.style.font = style.font;
    probe.style.whiteSpace = "pre";
    document.body.appendChild(probe);
    let widest = 0;
    for (const o of Array.from(el.options)) {
      probe.textContent = o.text;
      widest = Math.max(widest, probe.getBoundingClientRect().width);
    }
    probe.remove();
    const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return { widest, room };
  });
  expect(fits.widest).toBeGreaterThan(0);
  expect(fits.room).toBeGreaterThanOrEqual(fits.widest);
});

test("SIGTERM stops the web server, the worker and the embedded database in that order within 10 s", async () => {
  test.setTimeout(180_000);
  const dataDir = mkdtempSync(path.join(tmpdir(), "outreach-stop-"));
  const [port, pgPort] = [await freePort(), await freePort()];
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    NODE_ENV: "production",
    OUTREACH_DATA_DIR: dataDir,
    PORT: String(port),
    EMBEDDED_PG_PORT: String(pgPort),
  };
  // The build made by the global setup's instance is current: this one starts without building.
  env.OUTREACH_SKIP_BUILD = "1";
  const app = spawn(process.execPath, [path.join(root, "bin", "outreach.mjs"), "start"], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  app.stdout.on("data", (d) => (log += d));
  app.stderr.on("data", (d) => (log += d));
  const exited = new Promise<number | null>((r) => app.on("close", r));
  try {
    await expect
      .poll(
        async () =>
          (
            await fetch(`http://127.0.0.1:${port}/api/health`)
              .then((r) => r.json())
              .catch(() => ({}))
          ).ok === true,
        { timeout: 120_000 },
      )
      .toBe(true);
    expect(await portOpen(pgPort)).toBe(true);
    const t0 = Date.now();
    app.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(Date.now() - t0).toBeLessThan(10_000);
    const order = ["web server stopped", "worker stopped", "database stopped"].map((s) => log.indexOf(s));
    expect(
      order.every((i) => i >= 0),
      log,
    ).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(await portOpen(port)).toBe(false);
    expect(await portOpen(pgPort)).toBe(false);
  } finally {
    if (app.exitCode === null) app.kill("SIGKILL");
    removeDataDir(dataDir);
  }
});
