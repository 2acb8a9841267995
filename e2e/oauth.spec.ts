import { expect, test } from "@playwright/test";
import { E2E_MS_OAUTH_USER, E2E_OAUTH_USER, signInAsOwner } from "./support/session";

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
