import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { NAV_ITEMS } from "../components/shell/nav";
import { apiClient, ok } from "./support/api";
import { signInAsOwner } from "./support/session";

/**
 * The security headers and the CSRF rule against the production build in Chromium: pages and API
 * answers carry them, every dashboard page renders and hydrates under the Content-Security-Policy
 * without one violation, and a session's cross-site write is refused.
 */

declare global {
  interface Window {
    __cspViolations?: string[];
  }
}

/** The Settings pages the Settings tabs link to, read from the tabs' own list so a new tab is checked too. */
function settingsPages(): string[] {
  const source = readFileSync(path.resolve(import.meta.dirname, "..", "components", "settings", "settings-nav.tsx"), "utf8");
  return [...source.matchAll(/href: "(\/settings[^"]*)"/g)].map((m) => m[1]);
}

/**
 * Records every CSP violation of the page: the browser's console reports ("Refused to …", "…Content
 * Security Policy…", and Permissions-Policy header errors) and `securitypolicyviolation` events,
 * which an init script (run by Playwright, outside the page's policy) collects into window.
 */
async function watchViolations(page: Page): Promise<string[]> {
  const consoleReports: string[] = [];
  page.on("console", (m) => {
    const text = m.text();
    if (/Content Security Policy|Refused to|Permissions-Policy/i.test(text)) consoleReports.push(`${m.type()}: ${text}`);
  });
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener(
      "securitypolicyviolation",
      (e) =>
        window.__cspViolations?.push(`${e.effectiveDirective} blocked ${e.blockedURI || "(inline)"} at ${e.sourceFile}:${e.lineNumber}`),
      true,
    );
  });
  return consoleReports;
}

/** Opens `url` and returns the violations it caused (none expected), after the client runtime ran. */
async function violationsOf(page: Page, url: string, consoleReports: string[]): Promise<string[]> {
  consoleReports.length = 0;
  const res = await page.goto(url);
  expect(res, url).not.toBeNull();
  // Quiet network, or 5 s: some pages poll (mailbox health, deliverability) and never go quiet for long.
  await page.waitForLoadState("networkidle", { timeout: 5_000 }).catch(() => {});
  // Next's client runtime ran (its scripts carried the nonce, or were loaded by one that did).
  await page.waitForFunction(() => typeof (window as { next?: unknown }).next === "object", undefined, { timeout: 15_000 });
  // Give lazily loaded parts (charts, the API reference) a moment to mount and load what they need.
  await page.waitForTimeout(750);
  const events = await page.evaluate(() => window.__cspViolations ?? ["the init script did not run"]);
  return [...events, ...consoleReports];
}

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([k, ...v]) => [k, v]),
  );
}

test("a page and an API answer carry the security headers; the page's scripts carry its nonce", async ({ page }) => {
  await signInAsOwner(page, "/campaigns");
  const res = await page.goto("/campaigns");
  const h = res?.headers() ?? {};
  const csp = directives(h["content-security-policy"] ?? "");
  const nonce = /^'nonce-([A-Za-z0-9+/=]+)'$/.exec(csp.get("script-src")?.find((s) => s.startsWith("'nonce-")) ?? "")?.[1];
  expect(nonce, h["content-security-policy"]).toBeTruthy();
  expect(csp.get("script-src")).toContain("'strict-dynamic'");
  expect(csp.get("script-src")).not.toContain("'unsafe-inline'");
  expect(csp.get("script-src")).not.toContain("'unsafe-eval'");
  expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
  expect(csp.get("object-src")).toEqual(["'none'"]);
  expect(csp.get("base-uri")).toEqual(["'self'"]);
  expect(csp.get("form-action")).toEqual(["'self'"]);
  expect(h["x-frame-options"]).toBe("DENY");
  expect(h["x-content-type-options"]).toBe("nosniff");
  expect(h["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  for (const f of ["camera", "microphone", "geolocation", "payment"]) expect(h["permissions-policy"]).toContain(`${f}=()`);
  // The instance under test has no APP_URL (plain http on localhost): no HSTS.
  expect(h["strict-transport-security"]).toBeUndefined();
  // Next put the request's nonce on its inline scripts; a fresh one comes with the next request.
  const onScripts = await page.evaluate(() => [...document.querySelectorAll("script")].map((s) => s.nonce).filter(Boolean));
  expect(onScripts.length).toBeGreaterThan(0);
  expect(new Set(onScripts)).toEqual(new Set([nonce]));
  const again = (await page.request.get("/campaigns")).headers()["content-security-policy"];
  expect(again).toContain("'nonce-");
  expect(again).not.toContain(`'nonce-${nonce}'`);

  // API answers: the strict policy, the same other headers.
  const { response } = await apiClient(page).GET("/campaigns");
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("application/json");
  expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
  const health = await page.request.get("/api/health");
  for (const api of [response.headers, new Headers(health.headers())]) {
    expect(api.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(api.get("x-frame-options")).toBe("DENY");
    expect(api.get("x-content-type-options")).toBe("nosniff");
    expect(api.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(api.get("permissions-policy")).toContain("camera=()");
  }
});

test("every dashboard page renders under the Content-Security-Policy without a violation", async ({ page }) => {
  test.setTimeout(360_000);
  const reports = await watchViolations(page);
  const found: Record<string, string[]> = {};
  const check = async (url: string) => {
    const v = await violationsOf(page, url, reports);
    if (v.length) found[url] = v;
  };
  // Signed out first: the public pages (links with an unknown token show their "not valid" page), then
  // the sign-in itself (next-auth's form) under the policy.
  for (const url of [
    "/setup",
    "/forgot-password",
    "/invite/no-such-token",
    "/reset-password/no-such-token",
    "/confirm-email/no-such-token",
  ]) {
    await check(url);
  }
  await check("/login");
  await signInAsOwner(page, "/campaigns");
  const signingIn = [...((await page.evaluate(() => window.__cspViolations)) ?? []), ...reports];
  if (signingIn.length) found["signing in"] = signingIn;

  const campaign = await ok(apiClient(page).POST("/campaigns", { body: { name: `CSP check ${Date.now().toString(36)}` } }));
  const pages = [
    ...NAV_ITEMS.map((i) => i.href),
    ...settingsPages(),
    `/campaigns/${campaign.id}`,
    ...["sequence", "leads", "mailboxes", "schedule", "activity", "settings"].map((t) => `/campaigns/${campaign.id}?tab=${t}`),
    "/no-such-page",
  ];
  for (const url of new Set(pages)) await check(url);
  expect(found, "CSP violations by page").toEqual({});
  // The API reference mounted Scalar's viewer (a Vue app in a chunk of its own) under the policy.
  await page.goto("/docs/api");
  await expect(page.getByTestId("api-reference").getByText("Create or merge up to 1,000 leads by email").first()).toBeAttached({
    timeout: 30_000,
  });
  expect(await page.evaluate(() => window.__cspViolations), "/docs/api after Scalar mounted").toEqual([]);
  expect(reports, "/docs/api after Scalar mounted").toEqual([]);
});

test("a write with the session cookie from another origin is refused with 403 FORBIDDEN; the same write from the app is made", async ({
  page,
}) => {
  await signInAsOwner(page, "/campaigns");
  const api = apiClient(page);
  const name = `Forged ${Date.now().toString(36)}`;
  const forged = await api.POST("/campaigns", { body: { name }, headers: { origin: "http://evil.example" } });
  expect(forged.response.status).toBe(403);
  expect(forged.error).toMatchObject({ code: "FORBIDDEN", error: expect.stringContaining("http://evil.example") });
  const listed = await ok(api.GET("/campaigns", { params: { query: { q: name } } }));
  expect(listed.map((c) => c.name)).not.toContain(name);
  // The same request with the app's own Origin (what the dashboard's pages send) goes through.
  const made = await api.POST("/campaigns", { body: { name: `${name} (same origin)` } });
  expect(made.response.status).toBe(201);
});
