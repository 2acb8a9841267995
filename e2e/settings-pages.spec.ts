import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { apiClient, ok } from "./support/api";
import { checkWidths } from "./support/layout";
import { signInAsOwner } from "./support/session";

test.use({ baseURL: process.env.E2E_BASE_URL });

/** This run's own names: the specs share one database, and a rerun finds the last run's rows. */
const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;

// A dev server compiles each page on its first visit: the sign-in form and these pages are opened once
// first, so no test signs in on a form that is not interactive yet or waits out a compile in its steps.
test.beforeAll(async ({ browser }) => {
  test.setTimeout(240_000);
  const page = await browser.newPage({ baseURL: process.env.E2E_BASE_URL });
  // Signed out, each dashboard page is compiled and then redirects to the sign-in page; a redirect that
  // overtakes the navigation (ERR_ABORTED) has compiled it all the same.
  for (const p of ["/leads", "/settings/branding", "/settings/suppressions", "/settings/tags", "/webhooks", "/login"]) {
    await page.goto(p, { timeout: 120_000, waitUntil: "networkidle" }).catch(() => undefined);
  }
  // The sign-in routes too (next-auth's handler), before a test's sign-in waits on them.
  for (const p of ["/api/setup", "/api/auth/csrf", "/api/auth/session", "/api/auth/providers"]) {
    await page.request.get(p, { timeout: 120_000 });
  }
  await page.close();
});
test.beforeEach(() => test.setTimeout(150_000));

test("branding: the preview follows the unsaved fields, then save, and a reload keeps them", async ({ page }, testInfo) => {
  await signInAsOwner(page, "/leads");
  const api = apiClient(page);
  const before = (await ok(api.GET("/settings/branding"))).branding;
  const report = await ok(api.GET("/reports/branded", { params: { query: { days: 30 } } }));

  await page.goto("/settings/branding");
  await expect(page.getByRole("heading", { name: "Branding", exact: true })).toBeVisible({ timeout: 90_000 });
  const preview = page.getByTestId("branding-preview");
  await expect(preview).toBeVisible();
  // The preview's numbers are the branded report's.
  await expect(preview.getByTestId("preview-sent")).toHaveText(report.overview.totalSent.toLocaleString("en-US"));

  const name = `Northwind ${stamp}`;
  await page.getByLabel("Company name", { exact: true }).fill(name);
  await page.getByLabel("Primary colour hex").fill("#0f766e");
  await page.getByLabel("Accent colour hex").fill("#b45309");
  await page.getByLabel("Footer", { exact: true }).fill(`Prepared by Northwind ${stamp} · hello@northwind.example`);

  // Before saving: the preview shows every change, the stored branding is still the old one.
  await expect(preview.getByTestId("branding-preview-name")).toHaveText(name);
  await expect(preview).toHaveAttribute("data-primary", "#0f766e");
  await expect(preview).toHaveAttribute("data-accent", "#b45309");
  await expect(preview.getByTestId("preview-sent")).toHaveCSS("color", "rgb(180, 83, 9)");
  await expect(preview.getByTestId("branding-preview-footer")).toContainText(`Prepared by Northwind ${stamp}`);
  await expect(page.getByText("Unsaved changes: the preview shows them.")).toBeVisible();
  expect((await ok(api.GET("/settings/branding"))).branding.name).toBe(before.name);

  // A colour the API refuses is explained under its field.
  await page.getByLabel("Accent colour hex").fill("#b4530");
  await page.getByRole("button", { name: "Save branding" }).click();
  await expect(page.getByText("must be a colour like #1a2b3c")).toBeVisible();
  await page.getByLabel("Accent colour hex").fill("#b45309");

  await page.getByRole("button", { name: "Save branding" }).click();
  await expect(page.getByText("Branding saved.")).toBeVisible();
  expect((await ok(api.GET("/settings/branding"))).branding).toMatchObject({ name, primaryColor: "#0f766e", accentColor: "#b45309" });

  await page.reload();
  await expect(page.getByLabel("Company name", { exact: true })).toHaveValue(name, { timeout: 30_000 });
  await expect(page.getByLabel("Accent colour hex")).toHaveValue("#b45309");
  await expect(preview.getByTestId("branding-preview-name")).toHaveText(name);
  await checkWidths(page, testInfo, "settings-branding");

  // Leave the workspace's branding as this spec found it.
  await ok(api.PUT("/settings/branding", { body: before }));
});

test("suppressions: add an address and a domain, import a CSV with progress and per-row results, search, remove", async ({
  page,
}, testInfo) => {
  await signInAsOwner(page, "/leads");
  await page.goto("/settings/suppressions");
  await expect(page.getByRole("heading", { name: "Suppressions", exact: true })).toBeVisible({ timeout: 90_000 });

  // One address; a malformed one is refused with the API's reason under the field.
  const address = `blocked-${stamp}@supp-e2e.test`;
  const value = page.getByLabel("Email address", { exact: true });
  await value.fill("not-an-address");
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await expect(page.getByText('"not-an-address" is not an email address (it needs local@domain)')).toBeVisible();
  await expect(value).toHaveAttribute("aria-invalid", "true");
  await value.fill(address);
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await expect(page.getByText(`Added ${address}: it will not be emailed.`)).toBeVisible();

  // One domain.
  const domain = `${stamp}-competitor.test`;
  await page.getByRole("combobox", { name: "Type", exact: true }).selectOption("domain");
  await page.getByLabel("Domain", { exact: true }).fill(`@${domain.toUpperCase()}`);
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await expect(page.getByText(`Added ${domain}: it will not be emailed.`)).toBeVisible();

  // A CSV with a header, another column, a duplicate, a malformed row and a domain.
  const dir = mkdtempSync(path.join(tmpdir(), "supp-e2e-"));
  const file = path.join(dir, `suppressions-${stamp}.csv`);
  writeFileSync(
    file,
    [
      "name,email",
      `Ann,ann-${stamp}@csv-e2e.test`,
      `Bob,BOB-${stamp}@csv-e2e.test`,
      `Ann again,ann-${stamp}@csv-e2e.test`,
      "Nobody,not an address",
      `Whole domain,@${stamp}-csvdomain.test`,
    ].join("\n"),
  );
  await page.getByLabel("CSV file", { exact: true }).setInputFiles(file);
  await expect(page.getByTestId("suppressions-import-file")).toHaveText(`suppressions-${stamp}.csv: 5 rows after the header.`);
  await expect(page.getByRole("combobox", { name: "Column to import", exact: true })).toHaveValue("1");
  await page.getByRole("button", { name: "Import 5 rows" }).click();
  await expect(page.getByRole("progressbar", { name: "rows imported" })).toHaveAttribute("aria-valuenow", "5");
  await expect(page.getByTestId("progress-text")).toHaveText("5 / 5 rows imported (100%)");
  const summary = page.getByTestId("suppressions-import-summary");
  await expect(summary).toContainText("Import finished: 3 added, 0 already listed, 1 duplicate, 1 invalid.");
  const notImported = summary.getByRole("table", { name: "Rows not imported" });
  await expect(notImported.getByRole("row", { name: /^4 .*Duplicate in the file the same address as row 2$/ })).toBeVisible();
  await expect(
    notImported.getByRole("row", { name: /5 not an address Not imported .*neither an email address nor a domain/ }),
  ).toBeVisible();

  // Search: this run's five entries, addresses and domains told apart.
  await page.getByLabel("Search", { exact: true }).fill(stamp);
  const rows = page.getByTestId("suppression-row");
  await expect(rows).toHaveCount(5);
  await expect(rows.filter({ hasText: `*@${domain}` })).toContainText("Domain");
  await expect(rows.filter({ hasText: `*@${stamp}-csvdomain.test` })).toContainText("CSV import");
  await expect(rows.filter({ hasText: `bob-${stamp}@csv-e2e.test` })).toContainText("Address");
  await page.getByRole("combobox", { name: "Show", exact: true }).selectOption("domain");
  await expect(rows).toHaveCount(2);
  await page.getByRole("combobox", { name: "Show", exact: true }).selectOption("");
  await expect(rows).toHaveCount(5);
  await checkWidths(page, testInfo, "settings-suppressions");

  // Remove one, after the confirmation.
  await page.getByRole("button", { name: `Remove ${address}` }).click();
  const confirm = page.getByRole("dialog", { name: `Remove ${address}?` });
  await expect(confirm).toContainText("can be emailed again");
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(confirm).toBeHidden();
  await expect(rows).toHaveCount(4);
  await expect(rows.filter({ hasText: address })).toHaveCount(0);
});

test("tags: create with a palette colour, a bad hex refused, rename and recolour, delete", async ({ page }, testInfo) => {
  await signInAsOwner(page, "/leads");
  await page.goto("/settings/tags");
  await expect(page.getByRole("heading", { name: "Tags", exact: true })).toBeVisible({ timeout: 90_000 });

  const name = `E2E tag ${stamp}`;
  const create = page.locator("form", { has: page.getByRole("heading", { name: "New tag" }) });
  await create.getByLabel("Tag name", { exact: true }).fill(name);
  await create.getByRole("button", { name: "Colour: Green" }).click();
  await create.getByRole("button", { name: "Create tag" }).click();
  const row = page.getByTestId("tag-row").filter({ hasText: name });
  await expect(row).toContainText("#22c55e");

  // A colour that is not #rrggbb: the API's message under the colour field.
  await create.getByLabel("Tag name", { exact: true }).fill(`Bad ${stamp}`);
  await create.getByLabel("Colour hex").fill("#12zz");
  await create.getByRole("button", { name: "Create tag" }).click();
  await expect(create.getByText("color must be a hex colour like #3b82f6")).toBeVisible();
  await expect(page.getByTestId("tag-row").filter({ hasText: `Bad ${stamp}` })).toHaveCount(0);

  // Rename and recolour.
  const renamed = `E2E renamed ${stamp}`;
  await row.getByRole("button", { name: `Edit ${name}` }).click();
  const edit = page.getByRole("dialog", { name: `Edit tag ${name}` });
  await edit.getByLabel("Tag name", { exact: true }).fill(renamed);
  await edit.getByLabel("Colour hex").fill("#7c3aed");
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(edit).toBeHidden();
  const renamedRow = page.getByTestId("tag-row").filter({ hasText: renamed });
  await expect(renamedRow).toContainText("#7c3aed");
  await expect(page.getByTestId("tag-row").filter({ hasText: name })).toHaveCount(0);
  await checkWidths(page, testInfo, "settings-tags");

  // Delete, after a confirmation that says what carries it.
  await renamedRow.getByRole("button", { name: `Delete ${renamed}` }).click();
  const confirm = page.getByRole("dialog", { name: `Delete tag ${renamed}?` });
  await expect(confirm).toContainText("It is removed from 0 leads and 0 mailboxes");
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(confirm).toBeHidden();
  await expect(renamedRow).toHaveCount(0);
});

test("webhooks: a private receiver URL is refused under the field, naming OUTBOUND_ALLOW_HOSTS", async ({ page }) => {
  await signInAsOwner(page, "/webhooks");
  await expect(page.getByRole("heading", { name: "Webhooks", exact: true })).toBeVisible({ timeout: 90_000 });
  await page.getByRole("button", { name: "New webhook" }).click();
  const dialog = page.getByRole("dialog", { name: "New webhook" });
  const url = dialog.getByLabel("Endpoint URL", { exact: true });
  // The app under test allows 127.0.0.1 (its own receivers); 10.0.0.1 stays refused.
  await url.fill("http://10.0.0.1:8080/hooks/outreach");
  await dialog.getByLabel("All events").check();
  await dialog.getByRole("button", { name: "Create webhook" }).click();
  const message = dialog.getByText(
    /^The URL points at a private or reserved address \(10\.0\.0\.1 is a private address, not a public one\)\./,
  );
  await expect(message).toBeVisible();
  await expect(message).toContainText("add 10.0.0.1 to OUTBOUND_ALLOW_HOSTS");
  await expect(url).toHaveAttribute("aria-invalid", "true");
});
