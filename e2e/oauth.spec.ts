import { expect, test } from "@playwright/test";
import { apiClient, ok } from "./support/api";
import { E2E_GOOGLE_BULK_MAILBOX, E2E_MS_BULK_TENANT, E2E_MS_OAUTH_USER, E2E_OAUTH_USER, signInAsOwner } from "./support/session";

test.use({ baseURL: process.env.E2E_BASE_URL });

test("Connect Google: the consent round trip at the OAuth peer adds the signed-in address as an OAuth mailbox that turns healthy; a Microsoft one does the same", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signInAsOwner(page, "/mailboxes");
  await page.getByRole("button", { name: "Connect mailbox" }).click();
  const dialog = page.getByRole("dialog", { name: "Connect mailbox" });
  await dialog.getByRole("tab", { name: "Google / Microsoft (sign in)" }).click();

  await dialog.getByLabel("Sender name (optional)", { exact: true }).fill("OAuth Owner");
  // To the peer's consent page (it signs in E2E_OAUTH_USER and consents at once), back to our callback, then the dashboard.
  await dialog.getByRole("button", { name: "Connect Google" }).click();
  await expect(page).toHaveURL(/\/mailboxes\?oauth=connected/);
  await expect(page.getByTestId("oauth-result")).toHaveText(`Connected ${E2E_OAUTH_USER.email}.`);

  const row = page.getByRole("table", { name: "Mailboxes" }).getByRole("row", { name: /owner@oauth\.test/ });
  await expect(row).toBeVisible();
  // The first login check ran over XOAUTH2 in the callback; the worker's periodic one keeps it so.
  await expect(row.getByTestId("mailbox-health")).toHaveText("Healthy", { timeout: 30_000 });

  // Connecting the same address again replaces its sign-in.
  await page.getByTestId("oauth-result").locator("..").getByRole("button", { name: "Dismiss" }).click();
  await page.getByRole("button", { name: "Connect mailbox" }).click();
  await dialog.getByRole("tab", { name: "Google / Microsoft (sign in)" }).click();
  await dialog.getByRole("button", { name: "Connect Google" }).click();
  await expect(page.getByTestId("oauth-result")).toHaveText(`Reconnected ${E2E_OAUTH_USER.email}: its sign-in was replaced.`);
  await expect(page.getByRole("table", { name: "Mailboxes" }).getByRole("row", { name: /owner@oauth\.test/ })).toHaveCount(1);

  // Microsoft: the same round trip at its peer; the address comes from the token's preferred_username.
  await page.getByTestId("oauth-result").locator("..").getByRole("button", { name: "Dismiss" }).click();
  await page.getByRole("button", { name: "Connect mailbox" }).click();
  await dialog.getByRole("tab", { name: "Google / Microsoft (sign in)" }).click();
  await dialog.getByRole("button", { name: "Connect Microsoft" }).click();
  await expect(page).toHaveURL(/\/mailboxes\?oauth=connected/);
  await expect(page.getByTestId("oauth-result")).toHaveText(`Connected ${E2E_MS_OAUTH_USER.email}.`);
  const msRow = page.getByRole("table", { name: "Mailboxes" }).getByRole("row", { name: /owner@oauth-ms\.test/ });
  await expect(msRow.getByTestId("mailbox-health")).toHaveText("Healthy", { timeout: 30_000 });
});

test("Microsoft mailbox over XOAUTH2: a test send from its row; revoked at the provider it shows Login failing with Reconnect, and Reconnect makes it healthy again", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const email = E2E_MS_OAUTH_USER.email;
  await signInAsOwner(page, "/mailboxes");
  const table = page.getByRole("table", { name: "Mailboxes" });
  const row = () => table.getByRole("row", { name: new RegExp(email.replace(/[.]/g, "\\.")) });
  if ((await row().count()) === 0) {
    // Run alone (without the test above): connect it first.
    await page.getByRole("button", { name: "Connect mailbox" }).click();
    const dialog = page.getByRole("dialog", { name: "Connect mailbox" });
    await dialog.getByRole("tab", { name: "Google / Microsoft (sign in)" }).click();
    await dialog.getByRole("button", { name: "Connect Microsoft" }).click();
    await expect(page).toHaveURL(/\/mailboxes\?oauth=connected/);
  }
  await expect(row().getByTestId("mailbox-health")).toHaveText("Healthy", { timeout: 30_000 });

  // Sending from the dashboard logs in with the bearer token (the SMTP peer takes only XOAUTH2 for this address).
  await row()
    .getByRole("button", { name: `Test send from ${email}` })
    .click();
  const send = page.getByRole("dialog", { name: `Send a test email from ${email}` });
  await send.getByLabel("To", { exact: true }).fill("oauth-check@example.com");
  await send.getByRole("button", { name: "Send test email" }).click();
  await expect(send.getByTestId("test-send-result")).toContainText("Sent to oauth-check@example.com");
  await send.getByRole("button", { name: "Close", exact: true }).first().click();

  // The user removes the app at Microsoft: the peer's refresh and access tokens for the address stop working.
  const started = await ok(
    apiClient(page).POST("/mailboxes/oauth/{provider}/start", { params: { path: { provider: "microsoft" } }, body: {} }),
  );
  const revoked = await page.request.post(`${new URL(started.url).origin}/revoke`, { data: { user: email } });
  expect(revoked.status()).toBe(200);

  // The periodic check (every 2 s here) is refused, the refresh gets invalid_grant: Login failing, with the way out.
  await expect(row().getByTestId("mailbox-health")).toHaveText("Login failing", { timeout: 30_000 });
  await expect(row().getByTestId("oauth-reconnect")).toContainText("Microsoft no longer accepts its sign-in: reconnect it.");
  const issue = page.getByRole("region", { name: "Mailbox issues" }).getByRole("listitem").filter({ hasText: email });
  await expect(issue).toContainText("invalid_grant");
  await expect(issue).toContainText("Reconnect this mailbox");

  // Reconnect runs the consent again (the peer signs the same user in) and comes back to the list.
  await row()
    .getByRole("button", { name: `Reconnect ${email}` })
    .click();
  await expect(page).toHaveURL(/\/mailboxes\?oauth=connected/);
  await expect(page.getByTestId("oauth-result")).toHaveText(`Reconnected ${email}: its sign-in was replaced.`);
  await expect(row()).toHaveCount(1);
  await expect(row().getByTestId("mailbox-health")).toHaveText("Healthy", { timeout: 30_000 });
  await expect(row().getByTestId("oauth-reconnect")).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Mailbox issues" }).getByText(email)).toHaveCount(0);
});

test("Bulk connect a Microsoft 365 tenant: its admin consents through the link, then each address is verified over XOAUTH2 with the progress shown", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { tenant, mailbox } = E2E_MS_BULK_TENANT;
  const refused = "not-opened@oauth-ms.test";
  await signInAsOwner(page, "/mailboxes");
  const openBulk = async () => {
    await page.getByRole("button", { name: "Connect mailbox" }).click();
    const dialog = page.getByRole("dialog", { name: "Connect mailbox" });
    await dialog.getByRole("tab", { name: "Many at once (Workspace / 365)" }).click();
    await dialog.getByRole("button", { name: "Microsoft 365 tenant" }).click();
    return dialog;
  };
  let dialog = await openBulk();
  await expect(dialog.getByTestId("oauth-bulk-tenants")).toHaveText("No tenant has granted admin consent yet.");
  await dialog.getByRole("button", { name: "Get an admin-consent link" }).click();
  const link = await dialog.getByRole("link").filter({ hasText: "adminconsent" }).getAttribute("href");
  // The tenant's admin opens it: Microsoft (the peer) records the consent and returns to our callback.
  await page.goto(link ?? "");
  await expect(page.getByText(`Admin consent recorded for the Microsoft tenant ${tenant}.`, { exact: false })).toBeVisible();

  await page.goto("/mailboxes");
  dialog = await openBulk();
  await expect(dialog.getByTestId("oauth-bulk-tenants")).toHaveText(`Consented tenants: ${tenant}.`);
  await dialog.getByLabel("Addresses (one per line)").fill(`${mailbox}\n${refused}`);
  await dialog.getByRole("button", { name: "Connect these mailboxes" }).click();
  const progress = dialog.getByTestId("oauth-bulk-progress");
  await expect(progress.getByRole("progressbar", { name: "addresses tried" })).toBeVisible();
  await expect(progress).toContainText("Done: 1 connected, 1 failed.", { timeout: 60_000 });
  await expect(progress.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "2");
  // The address the app may not open was tried and refused at the XOAUTH2 login, and not saved.
  await expect(progress.getByRole("listitem").filter({ hasText: refused })).toContainText("SMTP login with XOAUTH2 failed");
  await dialog.getByRole("button", { name: "Close", exact: true }).first().click();

  const table = page.getByRole("table", { name: "Mailboxes" });
  await expect(table.getByRole("row", { name: new RegExp(mailbox.replace(/[.]/g, "\\.")) }).getByTestId("mailbox-health")).toHaveText(
    "Healthy",
    { timeout: 30_000 },
  );
  await expect(table.getByRole("row", { name: new RegExp(refused.replace(/[.]/g, "\\.")) })).toHaveCount(0);
});

test("Bulk connect a Google Workspace domain: the service account key pasted, each delegated address verified over XOAUTH2 with the progress shown", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const key = process.env.E2E_GOOGLE_SERVICE_ACCOUNT ?? "";
  expect(key, "the global setup exports the peer's service account").not.toBe("");
  const refused = "not-delegated@oauth.test";
  await signInAsOwner(page, "/mailboxes");
  await page.getByRole("button", { name: "Connect mailbox" }).click();
  const dialog = page.getByRole("dialog", { name: "Connect mailbox" });
  await dialog.getByRole("tab", { name: "Many at once (Workspace / 365)" }).click();
  await dialog.getByRole("button", { name: "Google Workspace domain" }).click();
  await dialog.getByLabel("Service account JSON key").fill(key);
  await dialog.getByRole("button", { name: "Save key" }).click();
  // What the Workspace admin authorizes: the key's client id, for the mail scope.
  await expect(dialog.getByTestId("oauth-bulk-service-account")).toContainText(
    `authorize client ID ${(JSON.parse(key) as { client_id: string }).client_id} for https://mail.google.com/`,
  );

  await dialog.getByLabel("Addresses (one per line)").fill(`${E2E_GOOGLE_BULK_MAILBOX}\n${refused}`);
  await dialog.getByRole("button", { name: "Connect these mailboxes" }).click();
  const progress = dialog.getByTestId("oauth-bulk-progress");
  await expect(progress).toContainText("Done: 1 connected, 1 failed.", { timeout: 60_000 });
  await expect(progress.getByRole("progressbar", { name: "addresses tried" })).toHaveAttribute("aria-valuenow", "2");
  await expect(progress.getByRole("listitem").filter({ hasText: refused })).toContainText("invalid_grant: Invalid email or User ID");
  await dialog.getByRole("button", { name: "Close", exact: true }).first().click();

  const table = page.getByRole("table", { name: "Mailboxes" });
  const row = table.getByRole("row", { name: new RegExp(E2E_GOOGLE_BULK_MAILBOX.replace(/[.]/g, "\\.")) });
  await expect(row.getByTestId("mailbox-health")).toHaveText("Healthy", { timeout: 30_000 });
  await expect(table.getByRole("row", { name: new RegExp(refused.replace(/[.]/g, "\\.")) })).toHaveCount(0);
});
