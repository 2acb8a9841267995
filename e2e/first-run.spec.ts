import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { apiClient, keyClient, ok } from "./support/api";
import { signInAsOwner } from "./support/session";

const token = process.env.E2E_SETUP_TOKEN!;
test.use({ baseURL: process.env.E2E_BASE_URL });

function csvFile(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "outreach-csv-"));
  const file = path.join(dir, "leads.csv");
  writeFileSync(
    file,
    [
      "Email Address,First Name,Last Name,Company,Industry",
      "ada@example.com,Ada,Lovelace,Analytical Engines,Computing",
      "grace@example.org,Grace,Hopper,US Navy,Compilers",
      "not-an-email,Bad,Row,Nowhere,None",
    ].join("\n") + "\n",
  );
  return file;
}

test("first run: the owner sets up the workspace, creates an API key and imports leads from a CSV", async ({ page }) => {
  expect(token, "the global setup reads the setup token").toBeTruthy();

  // Without the token the instance only explains where the setup link is.
  await page.goto("/");
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText("printed a one-time setup link")).toBeVisible();

  await page.goto(`/setup?token=${encodeURIComponent(token)}`);
  await page.getByLabel("Workspace name").fill("E2E Outreach");
  await page.getByLabel("Your name (optional)").fill("Eve Tester");
  await page.getByLabel("Email", { exact: true }).fill("owner@example.com");
  await page.getByLabel("Password", { exact: true }).fill("correct horse battery");
  await page.getByRole("button", { name: "Create account and workspace" }).click();

  await expect(page).toHaveURL(/\/leads$/);
  await expect(page.getByRole("heading", { name: "Leads" })).toBeVisible();
  await expect(page.getByTestId("workspace-name")).toHaveText("E2E Outreach");
  await expect(page.getByText("No leads yet")).toBeVisible();

  // Settings → API keys: the key is shown once.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
  await expect(page).toHaveURL(/\/settings\/api-keys$/);
  await page.getByLabel("Name", { exact: true }).fill("e2e key");
  await page.getByRole("button", { name: "Create key" }).click();
  const keyBox = page.getByLabel("New API key");
  await expect(keyBox).toHaveValue(/^ok_live_[A-Za-z0-9]+$/);
  await expect(page.getByText("It will not be shown again")).toBeVisible();
  const key = await keyBox.inputValue();
  const row = page.getByRole("table", { name: "API keys" }).getByRole("row", { name: /e2e key/ });
  await expect(row).toContainText("active");
  await expect(row).toContainText(key.slice(0, 12));
  await expect(page.getByRole("table", { name: "API keys" })).not.toContainText(key);
  // The key works against the API as a Bearer token.
  const apiRes = await keyClient(key).GET("/leads");
  expect(apiRes.response.status).toBe(200);

  // Back to Leads: import a CSV with one invalid address.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Leads" }).click();
  await expect(page).toHaveURL(/\/leads$/);
  await page.getByRole("button", { name: "Import CSV" }).click();
  await page.getByLabel("CSV file").setInputFiles(csvFile());

  // Guessed from the headers; set explicitly here so the test also drives the mapping controls.
  await page.getByLabel("Import column Email Address as").selectOption({ label: "Email" });
  await page.getByLabel("Import column First Name as").selectOption({ label: "First name" });
  await page.getByLabel("Import column Last Name as").selectOption({ label: "Last name" });
  await page.getByLabel("Import column Company as").selectOption({ label: "Company name" });
  await page.getByLabel("Import column Industry as").selectOption({ label: "Custom field" });
  await expect(page.getByLabel("Custom field name for Industry")).toHaveValue("Industry");
  await page.getByRole("button", { name: "Import 3 rows" }).click();

  await expect(page.getByRole("progressbar", { name: "rows" })).toHaveAttribute("aria-valuenow", "3");
  await expect(page.getByTestId("progress-text")).toHaveText("3 / 3 rows (100%)");
  await expect(page.getByText("Import finished.")).toBeVisible();
  await expect(page.getByTestId("import-created")).toContainText("2");
  await expect(page.getByTestId("import-updated")).toContainText("0");
  await expect(page.getByTestId("import-suppressed")).toContainText("0");
  await expect(page.getByTestId("import-invalid")).toContainText("1");
  await expect(page.getByText(/Line 4: not-an-email/)).toBeVisible();
  await page.getByRole("button", { name: "Done" }).click();

  const leads = page.getByRole("table", { name: "Leads" });
  await expect(leads.getByRole("row", { name: /ada@example\.com/ })).toContainText("Ada Lovelace");
  await expect(leads.getByRole("row", { name: /grace@example\.org/ })).toContainText("Grace Hopper");
  await expect(leads).not.toContainText("not-an-email");
  await expect(page.getByText("1–2 of 2")).toBeVisible();
});

test("sign out, a wrong password is refused with a message, the right one signs in", async ({ page }) => {
  await page.goto("/leads");
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel("Email", { exact: true }).fill("owner@example.com");
  await page.getByLabel("Password", { exact: true }).fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Wrong email or password")).toBeVisible();
  await page.getByLabel("Password", { exact: true }).fill("correct horse battery");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/leads$/);
  await expect(page.getByRole("table", { name: "Leads" })).toContainText("ada@example.com");

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/settings/api-keys");
  await expect(page).toHaveURL(/\/login$/);
});

test("a lead's custom fields: add one, remove another while typing in the new one, save", async ({ page }) => {
  await signInAsOwner(page);
  const email = "custom-fields@example.com";
  await ok(apiClient(page).POST("/leads", { body: { leads: [{ email, customFields: { Industry: "Computing" } }] } }));
  const leads = page.getByRole("table", { name: "Leads" });
  await page.reload();
  await page.getByLabel("Search leads").fill(email);
  // The list links to the lead's page, where it is edited.
  await leads.getByRole("link", { name: email, exact: true }).click();
  await page.getByRole("button", { name: "Edit lead" }).click();

  const dialog = page.getByRole("dialog", { name: `Edit ${email}` });
  await expect(dialog.getByLabel("Custom field name")).toHaveValue("Industry");
  await expect(dialog.getByLabel("Value of Industry")).toHaveValue("Computing");
  await dialog.getByRole("button", { name: "Add custom field" }).click();
  await dialog.getByLabel("Custom field name").nth(1).fill("tier");
  await dialog.getByLabel("Value of tier").fill("gold");

  // The row above goes while the new row's value keeps the focus (a click event that does not move
  // it): typing goes on in the same field, which stays the one that shows "tier".
  await dialog.getByLabel("Value of tier").focus();
  await dialog.getByRole("button", { name: "Remove Industry" }).dispatchEvent("click");
  await expect(dialog.getByLabel("Custom field name")).toHaveCount(1);
  await page.keyboard.type(" plus");
  await expect(dialog.getByLabel("Value of tier")).toHaveValue("gold plus");
  await expect(dialog.getByLabel("Value of tier")).toBeFocused();
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();

  await page.reload();
  await page.getByRole("button", { name: "Edit lead" }).click();
  await expect(dialog.getByLabel("Custom field name")).toHaveCount(1);
  await expect(dialog.getByLabel("Custom field name")).toHaveValue("tier");
  await expect(dialog.getByLabel("Value of tier")).toHaveValue("gold plus");
});
