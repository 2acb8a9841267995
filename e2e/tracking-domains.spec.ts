import { expect, test } from "@playwright/test";
import { apiClient, ok } from "./support/api";
import { signInAsOwner } from "./support/session";

test.use({ baseURL: process.env.E2E_BASE_URL });

/** This run's own names: the specs share one database, and a rerun finds the last run's rows. */
const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;

// The app's DNS (DNS_SERVERS, the global setup's DNS peer) has no record for these names, so a check
// answers FAILING with what the DNS said; a passing verification is covered in lib/domains/tracking-domains.test.ts.
test("Settings → Tracking domains: add one, see the CNAME record to create, verify (failing, with the DNS answer), delete", async ({
  page,
}) => {
  test.setTimeout(150_000);
  const domain = `track-${stamp}.e2e-tracking.test`;
  await signInAsOwner(page, "/settings/tracking-domains");
  await expect(page.getByRole("heading", { name: "Tracking domains", level: 1 })).toBeVisible({ timeout: 90_000 });
  const form = page.getByRole("form", { name: "Add a tracking domain" });

  // A URL is refused at the field with the API's message.
  await form.getByLabel("Domain").fill(`https://${domain}/x`);
  await form.getByRole("button", { name: "Add domain" }).click();
  await expect(form.getByText("no scheme (http:// or https://)", { exact: false })).toBeVisible();

  await form.getByLabel("Domain").fill(domain.toUpperCase());
  await form.getByRole("button", { name: "Add domain" }).click();
  const added = (await ok(apiClient(page).GET("/settings/tracking-domains"))).domains.find((d) => d.domain === domain);
  expect(added).toMatchObject({ status: "PENDING", isDefault: false });
  await expect(form.getByText(`${domain} CNAME ${added?.cnameTarget}`)).toBeVisible();

  const row = page.getByTestId("tracking-domain-row").filter({ hasText: domain });
  await expect(row.getByTestId("cname-record")).toContainText(`${domain} → ${added?.cnameTarget}`);
  await expect(row.getByText("PENDING", { exact: true })).toBeVisible();
  // Only a verified domain can be the default.
  await expect(row.getByRole("button", { name: `Make ${domain} the default` })).toHaveCount(0);

  await row.getByRole("button", { name: `Verify ${domain}` }).click();
  await expect(row.getByText("FAILING", { exact: true })).toBeVisible();
  await expect(row.getByText("it has no CNAME record", { exact: false })).toBeVisible();

  // The same domain again: the API's 409 message shows.
  await form.getByLabel("Domain").fill(domain);
  await form.getByRole("button", { name: "Add domain" }).click();
  await expect(form.getByText("already one of this workspace's tracking domains", { exact: false })).toBeVisible();

  await row.getByRole("button", { name: `Delete ${domain}` }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(row).toHaveCount(0);
  const after = (await ok(apiClient(page).GET("/settings/tracking-domains"))).domains;
  expect(after.some((d) => d.domain === domain)).toBe(false);
});

test("a campaign's settings: the Tracking domain select offers the workspace default and only verified domains", async ({ page }) => {
  test.setTimeout(150_000);
  await signInAsOwner(page, "/campaigns");
  const api = apiClient(page);
  const pending = await ok(api.POST("/settings/tracking-domains", { body: { domain: `pending-${stamp}.e2e-tracking.test` } }));
  const campaign = await ok(api.POST("/campaigns", { body: { name: `Tracking domain (e2e ${stamp})` } }));
  try {
    await page.goto(`/campaigns/${campaign.id}`);
    await page.getByRole("tab", { name: "Settings" }).click();
    const form = page.getByRole("form", { name: "Campaign settings" });
    const select = form.getByLabel("Tracking domain");
    await expect(select).toHaveValue("");
    await expect(select.locator("option")).toHaveText(["Workspace default (the shared host)"]);
    const saved = await ok(api.GET("/campaigns/{id}/settings", { params: { path: { id: campaign.id } } }));
    expect(saved.trackingDomainId).toBeNull();
  } finally {
    await ok(api.DELETE("/settings/tracking-domains/{id}", { params: { path: { id: pending.id } } }));
  }
});
