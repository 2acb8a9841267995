import { expect, test } from "@playwright/test";
import { signInAsOwner } from "./support/session";

/** /docs/api renders the OpenAPI document with Scalar: an operation, its response schema and its errors. */
test("the API reference shows an operation with its response schema and error responses", async ({ page }) => {
  await signInAsOwner(page, "/docs/api");
  await expect(page.getByRole("heading", { name: "API reference" })).toBeVisible();
  // Scalar renders the operation's section when it is navigated to.
  await page.goto("/docs/api#tag/leads/POST/leads");
  const summary = "Create or merge up to 1,000 leads by email";
  const operation = page.getByTestId("api-reference").getByRole("region", { name: summary });
  await expect(operation.getByRole("heading", { name: summary })).toBeVisible({ timeout: 30_000 });
  // The response schema of the contract (createLeadsResult): opened, its fields are listed.
  const responses = operation.getByRole("list", { name: "Responses" });
  await responses.getByRole("button", { name: /^200 Per-lead results/ }).click();
  await expect(responses.getByText("suppressedEmails", { exact: true }).first()).toBeVisible();
  await expect(responses.getByText("invalidEmails", { exact: true }).first()).toBeVisible();
  // The error responses derived from the contract: credential, body size, idempotency, rate limit.
  for (const status of ["401", "413", "422", "429"]) {
    await expect(responses.getByRole("button", { name: new RegExp(`^${status} `) })).toBeVisible();
  }
  await expect(responses.getByRole("button", { name: /^422 .*IDEMPOTENCY_MISMATCH/ })).toBeVisible();
});
