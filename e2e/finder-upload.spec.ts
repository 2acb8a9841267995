import { writeFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { apiClient, ok } from "./support/api";
import { checkWidths } from "./support/layout";
import { signInAsOwner } from "./support/session";

// A workspace of its own, so its directory holds exactly what this spec uploads whatever ran before or after
// (finder.spec.ts counts the owner's first workspace's directory).
test.use({ baseURL: process.env.E2E_BASE_URL });

const stamp = Date.now().toString(36);
const FILLER = 1200;

/** The upload: filler people in France, the one German fintech CTO, her row again (an update) and a bad row. */
function csv(): string {
  const lines = ["Name,Job Title,Company,Website,Industry,Employees,Where,LinkedIn,Seniority"];
  for (let i = 0; i < FILLER; i++) {
    lines.push(`Filler${i} Person,Sales Manager,Filler ${i % 20},filler-${i % 20}-${stamp}.test,Software,120,France,,manager`);
  }
  const greta = `https://www.linkedin.com/in/greta-${stamp}`;
  lines.push(`Greta Stahl,CTO,Geldwerk,geldwerk-${stamp}.test,FinTech,12,Germany,${greta},`);
  lines.push(`Greta Stahl,CTO,Geldwerk GmbH,,,,,${greta.toUpperCase()}/,`);
  lines.push(`Wanda Wrong,Wizard,Oz,oz-${stamp}.test,Magic,5,Germany,,wizard`);
  return `${lines.join("\n")}\n`;
}

test("Finder: upload people from a CSV with a progress bar and a summary, find them, and read a sentence without an AI endpoint", async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  await signInAsOwner(page, "/leads");
  const workspace = await ok(apiClient(page).POST("/account/workspaces", { body: { name: `Finder upload ${stamp}` } }));
  await page.context().addCookies([{ name: "outreach_workspace", value: workspace.id, url: process.env.E2E_BASE_URL as string }]);

  await page.goto("/finder");
  await expect(page.getByRole("heading", { name: "Finder", level: 1 })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId("finder-total")).toHaveText("0 people");
  await expect(page.getByText("The directory is empty.")).toBeVisible();

  await page.getByRole("button", { name: "Import people (CSV)" }).click();
  const dialog = page.getByRole("dialog", { name: "Import people (CSV)" });
  const file = testInfo.outputPath("people.csv");
  writeFileSync(file, csv());
  await dialog.getByLabel("CSV file").setInputFiles(file);
  await expect(dialog).toContainText(`people.csv: ${(FILLER + 3).toLocaleString("en")} rows`);

  // The mapping: known headers are guessed; "Where" is not, so it is mapped by hand.
  await expect(dialog.getByLabel("Import column Name as")).toHaveValue("fullName");
  await expect(dialog.getByLabel("Import column Employees as")).toHaveValue("companySize");
  await expect(dialog.getByLabel("Import column LinkedIn as")).toHaveValue("linkedinUrl");
  await expect(dialog.getByLabel("Import column Where as")).toHaveValue("ignore");
  await dialog.getByLabel("Import column Where as").selectOption("country");
  const start = dialog.getByRole("button", { name: `Import ${(FILLER + 3).toLocaleString("en")} rows` });
  await dialog.getByLabel("Import column Job Title as").selectOption("companyName");
  await expect(dialog.getByText("Company name is mapped from more than one column.")).toBeVisible();
  await expect(start).toBeDisabled();
  await dialog.getByLabel("Import column Job Title as").selectOption("title");
  await expect(dialog.getByText("Company name is mapped from more than one column.")).toHaveCount(0);
  await expect(start).toBeEnabled();
  await checkWidths(page, testInfo, "finder-import-mapping");

  await start.click();
  const bar = dialog.getByRole("progressbar", { name: "rows" });
  await expect(bar).toBeVisible();
  await expect(bar).toHaveAttribute("aria-valuenow", String(FILLER + 3), { timeout: 60_000 });
  await expect(dialog.getByTestId("progress-text")).toHaveText(
    `${(FILLER + 3).toLocaleString("en")} / ${(FILLER + 3).toLocaleString("en")} rows (100%)`,
  );
  await expect(dialog.getByText("Import finished.")).toBeVisible();
  await expect(dialog.getByTestId("import-imported")).toContainText((FILLER + 1).toLocaleString("en"));
  await expect(dialog.getByTestId("import-updated")).toContainText("1");
  await expect(dialog.getByTestId("import-skipped")).toContainText("1");
  await expect(dialog.getByText(`Line ${FILLER + 4}: seniority "wizard" is not one of`)).toBeVisible();
  await checkWidths(page, testInfo, "finder-import-summary");
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(dialog).toBeHidden();

  // The search shows the new people.
  await expect(page.getByTestId("finder-total")).toHaveText(`${(FILLER + 1).toLocaleString()} people`);
  await page.getByLabel("Keywords").fill("Greta");
  await expect(page.getByTestId("finder-total")).toHaveText("1 people");
  await expect(page.getByRole("cell", { name: "Greta Stahl", exact: true })).toBeVisible();
  await expect(page.getByRole("cell", { name: "Germany", exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Clear all" }).click();
  await expect(page.getByTestId("finder-total")).toHaveText(`${(FILLER + 1).toLocaleString()} people`);

  // No AI endpoint in the e2e app: the built-in rules read the sentence into title, industry, country and size.
  await page.getByLabel("Describe who you are looking for").fill("CTOs at fintech startups in Germany");
  await page.getByRole("button", { name: "AI search" }).click();
  await expect(page.getByText("Filters read by the built-in rules.")).toBeVisible();
  const chips = page.getByTestId("active-filters");
  await expect(chips.getByTestId("filter-titles")).toHaveText(/Title:\s*cto/);
  await expect(chips.getByTestId("filter-industries")).toHaveText(/Industry:\s*fintech/);
  await expect(chips.getByTestId("filter-countries")).toHaveText(/Country:\s*Germany/);
  await expect(chips.getByTestId("filter-companySizes")).toHaveCount(2);
  await expect(chips.getByRole("button", { name: "Remove Company size: 1-10" })).toBeVisible();
  await expect(chips.getByRole("button", { name: "Remove Company size: 11-50" })).toBeVisible();
  await expect(page.getByTestId("finder-total")).toHaveText("1 people");
  await expect(page.getByRole("cell", { name: "Greta Stahl", exact: true })).toBeVisible();
  await checkWidths(page, testInfo, "finder-ai-search");

  // A chip removes its filter.
  await chips.getByRole("button", { name: "Remove Country: Germany" }).click();
  await expect(chips.getByTestId("filter-countries")).toHaveCount(0);
  await expect(page.getByTestId("finder-total")).toHaveText("1 people");
});
