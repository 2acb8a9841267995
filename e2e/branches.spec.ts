import { expect, test } from "@playwright/test";
import { apiClient, ok } from "./support/api";
import { signInAsOwner } from "./support/session";

test.use({ baseURL: process.env.E2E_BASE_URL });

test("the sequence editor: a subsequence with a step, a reply-intent branch into it and a no-reply rule, reordered and saved", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signInAsOwner(page, "/campaigns");
  const api = apiClient(page);
  const campaign = await ok(api.POST("/campaigns", { body: { name: "Branches (e2e)" } }));
  const path = { params: { path: { id: campaign.id } } };
  await ok(
    api.PUT("/campaigns/{id}/steps", { ...path, body: { steps: [{ stepOrder: 0, subject: "Idea", bodyTemplate: "Hi {{firstName}}" }] } }),
  );
  await page.goto(`/campaigns/${campaign.id}`);
  await page.getByRole("tab", { name: "Sequence" }).click();

  // A subsequence that continues the thread, with one step.
  await page.getByLabel("New subsequence name").fill("Booking");
  await page.getByRole("button", { name: "Add subsequence" }).click();
  const booking = page.getByRole("region", { name: "Subsequence Booking" });
  await expect(booking).toBeVisible();
  await booking.getByLabel("Booking: new step body").fill("Great, here is my calendar.");
  await booking.getByLabel("Booking: hours after the previous email").fill("1");
  await booking.getByRole("button", { name: "Add step to Booking" }).click();
  await expect(booking.getByText("Great, here is my calendar.")).toBeVisible();

  // Step 1's branches: Interested → Booking; then a no-reply rule, moved above it.
  const branches = page.locator('[data-testid="branches"][data-step="Step 1"]');
  await branches.getByRole("button", { name: "Add a rule to Step 1" }).click();
  await branches.getByLabel("Step 1 rule 1: then").selectOption("subsequence");
  await branches.getByLabel("Step 1 rule 1: subsequence").selectOption({ label: "Booking" });
  await branches.getByRole("button", { name: "Add a rule to Step 1" }).click();
  await branches.getByLabel("Step 1 rule 2: when").selectOption("noReply");
  await branches.getByLabel("Step 1 rule 2: hours without a reply").fill("48");
  await branches.getByRole("button", { name: "Step 1 rule 2: move up" }).click();
  await branches.getByRole("button", { name: "Save the branches of Step 1" }).click();
  // "Branches saved" shows once the PATCH answered and the step was read back; the draft is kept until then.
  await expect(branches.getByRole("status")).toHaveText("Branches saved");
  await expect(branches.getByTestId("branch-rule")).toHaveCount(2);

  const subs = await ok(api.GET("/campaigns/{id}/subsequences", path));
  const steps = await ok(api.GET("/campaigns/{id}/steps", path));
  expect(steps.steps[0].branches).toEqual([
    { when: { noReplyAfterHours: 48 }, action: { type: "continue" } },
    { when: { replied: ["INTERESTED"] }, action: { type: "subsequence", subsequenceId: subs.subsequences[0].id } },
  ]);
  expect(subs.subsequences[0]).toMatchObject({ name: "Booking", threading: "same", steps: [{ stepOrder: 0 }] });

  // A rule that names nothing is refused by its place, and nothing is saved.
  await branches.getByRole("button", { name: "Add a rule to Step 1" }).click();
  await branches.getByLabel("Step 1 rule 3: then").selectOption("tag");
  await branches.getByRole("button", { name: "Save the branches of Step 1" }).click();
  await expect(branches.getByTestId("branch-rule").nth(2).getByTestId("branch-error")).toBeVisible();
  expect((await ok(api.GET("/campaigns/{id}/steps", path))).steps[0].branches).toHaveLength(2);
});
