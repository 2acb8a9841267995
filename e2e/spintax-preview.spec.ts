import { expect, test } from "@playwright/test";
import { apiClient, ok } from "./support/api";
import { signInAsOwner } from "./support/session";

test.use({ baseURL: process.env.E2E_BASE_URL });

/** A lead of this spec only (its own domain), so other specs' lead counts stay as they expect. */
const ADA = { email: "ada@spintax-e2e.example", firstName: "Ada", lastName: "Spin" };

test("spintax in the preview: the lead's own variation first, then Previous and Next round every choice", async ({ page }) => {
  await signInAsOwner(page, "/campaigns");
  const stamp = Date.now().toString(36);
  const api = apiClient(page);
  const campaign = await ok(api.POST("/campaigns", { body: { name: `Spintax e2e ${stamp}` } }));
  const path = { id: campaign.id };
  const put = await ok(
    api.PUT("/campaigns/{id}/steps", {
      params: { path },
      body: {
        steps: [
          {
            stepOrder: 0,
            subject: "{Quick question|A thought|One idea} for {{firstName}}",
            bodyTemplate: "{Hi|Hello} {{firstName}},\n\nWorth a call?",
          },
        ],
      },
    }),
  );
  const stepId = put.steps[0].id;
  const { leadIds } = await ok(api.POST("/leads", { body: { leads: [ADA] } }));
  await ok(api.POST("/campaigns/{id}/leads", { params: { path }, body: { leadIds } }));

  // What the server renders for this lead and step: no spinIndex is what the lead receives, 1 and 2 the other choices.
  const subjectAt = async (spinIndex?: number) =>
    (
      await ok(
        api.POST("/campaigns/{id}/steps/preview", {
          params: { path },
          body: { stepId, leadId: leadIds[0], ...(spinIndex === undefined ? {} : { spinIndex }) },
        }),
      )
    ).subject;
  const own = await subjectAt();
  const second = await subjectAt(1);
  const third = await subjectAt(2);
  expect(new Set([own, second, third]).size).toBe(3);

  await page.goto(`/campaigns/${campaign.id}`);
  await page.getByRole("tab", { name: "Sequence" }).click();
  const preview = page.getByRole("region", { name: "Preview" });
  await preview.getByLabel("Preview for lead").selectOption({ label: `Ada Spin — ${ADA.email}` });
  const variation = preview.getByTestId("preview-variation");
  const subject = preview.getByTestId("preview-subject");
  await expect(variation).toContainText("Variation 1 of 3 · As this lead receives it");
  await expect(subject).toHaveText(own);

  await preview.getByRole("button", { name: "Next variation" }).click();
  await expect(variation).toContainText("Variation 2 of 3");
  await expect(variation).not.toContainText("As this lead receives it");
  await expect(subject).toHaveText(second);

  await preview.getByRole("button", { name: "Previous variation" }).click();
  await preview.getByRole("button", { name: "Previous variation" }).click();
  await expect(variation).toContainText("Variation 3 of 3");
  await expect(subject).toHaveText(third);

  // Round again to the lead's own choices.
  await preview.getByRole("button", { name: "Next variation" }).click();
  await expect(variation).toContainText("Variation 1 of 3");
  await expect(variation).toContainText("As this lead receives it");
  await expect(subject).toHaveText(own);
});
