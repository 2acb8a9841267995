import { expect, type Page } from "@playwright/test";

/** The owner that first-run.spec.ts creates through the setup page; other specs reuse it. */
export const OWNER = { email: "owner@example.com", password: "correct horse battery", workspaceName: "E2E Outreach", name: "Eve Tester" };

/** The mailbox the mail peers of the global setup accept (any other login is refused with 535). */
export const E2E_MAILBOX = { email: "e2e@mail.test", password: "apppassword1234" };

/**
 * A second login the peers accept, on its own domain, for the campaigns spec's pool: that spec never
 * touches the mailbox and domain that mailboxes.spec.ts counts on, whichever runs first.
 */
export const E2E_CAMPAIGN_SENDER = { email: "sender@campaigns.test", password: "senderpassword1234" };

/**
 * A third login, for the campaign-stats spec's own pool mailbox: its campaign sends for real (no pacing
 * gap), so it must not share a mailbox, and the pacing that comes with it, with another spec.
 */
export const E2E_STATS_SENDER = { email: "stats@stats-sender.test", password: "statspassword1234" };

/**
 * Who signs in at the OAuth peer standing in for Google (oauth.spec.ts): the global setup's SMTP and
 * IMAP peers let this address in with XOAUTH2 when the peer issued the bearer token.
 */
export const E2E_OAUTH_USER = { email: "owner@oauth.test", sub: "e2e-google-owner" };
/** Who signs in at the OAuth peer standing in for Microsoft (oauth.spec.ts). */
export const E2E_MS_OAUTH_USER = { email: "owner@oauth-ms.test", sub: "e2e-microsoft-owner" };

/**
 * A Microsoft 365 tenant for the bulk connect (oauth.spec.ts): its admin consents at the app-grant peer, and its
 * app-only token opens `mailbox` (any other address of the tenant is refused at the XOAUTH2 login).
 */
export const E2E_MS_BULK_TENANT = { tenant: "e2e-tenant-id", mailbox: "bulk@oauth-ms.test" };
/** The Google Workspace address delegated to the service account of the bulk connect (oauth.spec.ts). */
export const E2E_GOOGLE_BULK_MAILBOX = "bulk@oauth.test";

/** A recipient the SMTP peer refuses with 550 5.1.1 (User unknown): the campaign-stats spec's bounce. */
export const E2E_REFUSED_RECIPIENT = "nobody@stats-e2e.example";

/**
 * Signs in as the owner, creating the owner first (POST /api/setup with the printed token) when the
 * instance is still fresh, so a spec works whether or not first-run.spec.ts ran before it.
 */
export async function signInAsOwner(page: Page, next = "/leads"): Promise<void> {
  const state = await page.request.get("/api/setup");
  expect(state.ok(), "GET /api/setup").toBeTruthy();
  if (((await state.json()) as { needsSetup: boolean }).needsSetup) {
    const res = await page.request.post("/api/setup", { data: { ...OWNER, token: process.env.E2E_SETUP_TOKEN } });
    expect(res.status(), await res.text()).toBe(201);
  }
  await page.goto(`/login?callbackUrl=${encodeURIComponent(next)}`);
  await page.getByLabel("Email", { exact: true }).fill(OWNER.email);
  await page.getByLabel("Password", { exact: true }).fill(OWNER.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`${next.replace(/[/]/g, "\\/")}$`));
}
