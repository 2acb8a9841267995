import { expect, test } from "@playwright/test";
import { apiClient, ok } from "./support/api";
import { signInAsOwner } from "./support/session";

test.use({ baseURL: process.env.E2E_BASE_URL });

/** The UTC day `n` days from now, as YYYY-MM-DD (the forecast starts today). */
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

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
  const [soon, later] = [inDays(5), inDays(10)];
  await form.getByLabel("Blackout dates").fill(`${later}, ${soon}`);
  await form.getByLabel("Out-of-office pause without a date (days)").fill("10");
  await form.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByTestId("settings-saved")).toBeVisible();
  const saved = await ok(api.GET("/campaigns/{id}/settings", { params: { path: { id: campaign.id } } }));
  expect(saved).toMatchObject({
    skipHolidays: true,
    blackoutDates: [soon, later],
    oooDefaultPauseDays: 10,
    oooResume: true,
  });
  // The saved dates come back sorted, one per line.
  await expect(form.getByLabel("Blackout dates")).toHaveValue(`${soon}\n${later}`);

  await form.getByLabel("Blackout dates").fill("24.12.2026");
  await form.getByRole("button", { name: "Save settings" }).click();
  await expect(form.getByText("blackout dates are YYYY-MM-DD days", { exact: true })).toBeVisible();
  const unchanged = await ok(api.GET("/campaigns/{id}/settings", { params: { path: { id: campaign.id } } }));
  expect(unchanged.blackoutDates).toEqual([soon, later]);

  // The Schedule tab lists the blackout dates among the skipped days of the forecast.
  await form.getByRole("button", { name: "Discard changes" }).click();
  await page.getByRole("tab", { name: "Schedule" }).click();
  await page.getByLabel("Days forecast").selectOption("14");
  await expect(page.getByTestId("skipped-days")).toContainText("Blackout dates (every lead)");
});
