import { expect, test } from "@playwright/test";
import { apiClient, ok } from "./support/api";
import { signInAsOwner } from "./support/session";

// The global setup's DNS peer gives finder.test an MX on 127.0.0.2, where its verification peer (SMTP_VERIFY_PORT)
// accepts any recipient: every address there verifies as CATCH_ALL.
test.use({ baseURL: process.env.E2E_BASE_URL });

const people = [
  {
    firstName: "Vera",
    lastName: "Finder",
    title: "VP of Sales",
    seniority: "vp",
    department: "sales",
    companyName: "Mail Test",
    companyDomain: "finder.test",
    country: "UK",
  },
  {
    firstName: "Victor",
    lastName: "Finder",
    title: "VP Marketing",
    seniority: "vp",
    department: "marketing",
    companyName: "Mail Test",
    companyDomain: "finder.test",
    country: "France",
  },
  {
    firstName: "Mona",
    lastName: "Finder",
    title: "Sales Manager",
    seniority: "manager",
    department: "sales",
    companyName: "Other",
    companyDomain: "finder.test",
    country: "UK",
  },
];

test("the Finder page: facet filters, select → enrich with a progress bar → add to a campaign", async ({ page }) => {
  test.setTimeout(180_000);
  await signInAsOwner(page, "/leads");
  const api = apiClient(page);
  await ok(api.POST("/finder/directory/import", { body: { people } }));
  const campaign = await ok(api.POST("/campaigns", { body: { name: "Finder e2e" } }));

  await page.goto("/finder");
  await expect(page.getByRole("heading", { name: "Finder", level: 1 })).toBeVisible();
  await expect(page.getByTestId("finder-total")).toHaveText("3 people");
  const seniority = page.getByTestId("facet-seniorities");
  await expect(seniority).toContainText("vp");
  await expect(seniority.locator("label", { hasText: "vp" })).toContainText("2");

  await seniority.getByLabel("vp").check();
  await expect(page.getByTestId("finder-total")).toHaveText("2 people");
  await expect(page.getByRole("cell", { name: "Mona Finder" })).toHaveCount(0);

  await page.getByLabel("Select Vera Finder").check();
  await page.getByLabel("Select Victor Finder").check();
  await page.getByRole("button", { name: "Find emails for 2 selected" }).click();
  const job = page.getByTestId("enrich-job");
  await expect(job.getByRole("progressbar", { name: "people" })).toBeVisible();
  await expect(job).toContainText("COMPLETED", { timeout: 90_000 });
  await expect(job).toContainText("vera.finder@finder.test");
  await expect(job).toContainText("CATCH_ALL");
  await expect(page.getByTestId("progress-text")).toContainText("2 / 2 people");

  await job.getByLabel("Campaign").selectOption(campaign.id);
  await job.getByRole("button", { name: "Add to campaign" }).click();
  await expect(job.getByRole("status")).toContainText("2 leads created");
  await expect(job.getByRole("status")).toContainText("2 added to the campaign");
  const { leads } = await ok(api.GET("/campaigns/{id}/leads", { params: { path: { id: campaign.id } } }));
  const emails = leads.map((l) => l.email).sort();
  expect(emails).toEqual(["vera.finder@finder.test", "victor.finder@finder.test"]);
});
