import { expect, test } from "@playwright/test";
import { signInAsOwner } from "./support/session";

/** /docs/api renders the OpenAPI document with Scalar: an operation, its response schema and its errors. */
test("the API reference shows an operation with its response schema and error responses", async ({ page }) => {
  await signInAsOwner(page, "/docs/api");
  await expect(page.getByRole("heading", { name: "API reference" })).toBeVisible();
  const reference = page.getByTestId("api-reference");
  // Scalar renders the operation's section when it is navigated to.
  await page.goto("/docs/api#tag/leads/POST/leads");
  const operation = reference.getByRole("heading", { name: "Create or merge up to 1,000 leads by email" });
  await expect(operation).toBeVisible({ timeout: 30_000 });
  const section = reference.locator("section", { has: operation }).first();
  // The response schema of the contract (createLeadsResult): its fields are listed.
  await expect(section.getByText("suppressedEmails").first()).toBeVisible();
  await expect(section.getByText("invalidEmails").first()).toBeVisible();
  // The error responses derived from the contract, with the 2.1 codes.
  for (const status of ["401", "413", "422", "429"]) await expect(section.getByText(status, { exact: true }).first()).toBeVisible();
});
