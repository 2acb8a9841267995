import { expect, test } from "@playwright/test";
import { apiClient, ok } from "./support/api";
import { signInAsOwner } from "./support/session";

test.use({ baseURL: process.env.E2E_BASE_URL });

test("campaign settings: skip public holidays, blackout dates and the out-of-office pause are saved, and a date that is not a day is named", async ({
  page,
}) => {
  await signInAsOwner(page, "/campaigns");
  const api = apiClient(page);
  const campaign = await ok(api.POST("/campaigns", { body: { name: "Days off (e2e)" } }));
  await page.goto(`/campaigns/${campaign.id}`);
  await page.getByRole("tab", { name: "Settings" }).click();
  const form = page.getByRole("form", { name: "Campaign settings" });

  await form.getByLabel("Skip public holidays").check();
  await form.getByLabel("Blackout dates").fill("2026-12-31, 2026-12-24");
  await form.getByLabel("Out-of-office pause without a date (days)").fill("10");
  await form.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByTestId("settings-saved")).toBeVisible();
  const saved = await ok(api.GET("/campaigns/{id}/settings", { params: { path: { id: campaign.id } } }));
  expect(saved).toMatchObject({
    skipHolidays: true,
    blackoutDates: ["2026-12-24", "2026-12-31"],
    oooDefaultPauseDays: 10,
    oooResume: true,
  });
  // The saved dates come back sorted, one per line.
  await expect(form.getByLabel("Blackout dates")).toHaveValue("2026-12-24\n2026-12-31");

  await form.getByLabel("Blackout dates").fill("24.12.2026");
  await form.getByRole("button", { name: "Save settings" }).click();
  await expect(form.getByText("blackout dates are YYYY-MM-DD days")).toBeVisible();
  const unchanged = await ok(api.GET("/campaigns/{id}/settings", { params: { path: { id: campaign.id } } }));
  expect(unchanged.blackoutDates).toEqual(["2026-12-24", "2026-12-31"]);
});
