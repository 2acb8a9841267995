import { expect, test } from "@playwright/test";
import { apiClient, ok } from "./support/api";
import { useSpecMailPeers } from "./support/mail-peers";
import { signInAsOwner } from "./support/session";
import { openNewWorkspace } from "./support/workspace";

test.use({ baseURL: process.env.E2E_BASE_URL });

const stamp = Date.now().toString(36);
const MAILBOX = { email: `olga-${stamp}@onboarding-e2e.test`, password: "onboardingpass1234", senderName: "Olga Onboarding" };

/** Mail peers of this spec alone: the checklist's mailbox logs in on them; it is paused after the test. */
const mail = useSpecMailPeers(MAILBOX, { rejectRecipients: [] });

test("a new workspace's checklist ticks as the work is done (mailbox, leads, a campaign with a step), links to each page, and stays hidden once dismissed", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signInAsOwner(page, "/leads");
  await openNewWorkspace(page, `Onboarding ${stamp}`);
  // `/` lands on Leads: the checklist is there, nothing done.
  await page.goto("/");
  await expect(page).toHaveURL(/\/leads$/);
  const card = page.getByRole("region", { name: "Set up your workspace" });
  await expect(card.getByTestId("onboarding-progress")).toHaveText(/^0 of 6 done/);
  const item = (id: string) => card.getByTestId(`onboarding-${id}`);
  for (const [id, href] of [
    ["mailbox", "/mailboxes"],
    ["dns", "/domains"],
    ["warmup", "/mailboxes"],
    ["leads", "/leads"],
    ["campaign", "/campaigns"],
    ["launch", "/campaigns"],
  ]) {
    await expect(item(id).getByRole("link")).toHaveAttribute("href", href);
    await expect(item(id)).not.toHaveAttribute("data-done");
  }

  // Each link opens its page, where the checklist shows too.
  await item("mailbox").getByRole("link").click();
  await expect(page).toHaveURL(/\/mailboxes$/);
  await expect(card).toBeVisible();
  await item("dns").getByRole("link").click();
  await expect(page).toHaveURL(/\/domains$/);
  await item("campaign").getByRole("link").click();
  await expect(page).toHaveURL(/\/campaigns$/);

  // A mailbox connected through the API: the checklist reads it from the workspace on the next load.
  await mail.importMailbox(page);
  await page.reload();
  await expect(item("mailbox")).toHaveAttribute("data-done", "true");
  await expect(item("mailbox")).toContainText("1 mailbox connected");
  await expect(card.getByTestId("onboarding-progress")).toHaveText(/^1 of 6 done/);

  // Leads through the API; the window regaining focus is enough to see them (no reload).
  await ok(apiClient(page).POST("/leads", { body: { leads: [{ email: `lena-${stamp}@onboarding-lead.example`, firstName: "Lena" }] } }));
  await page.evaluate(() => window.dispatchEvent(new Event("visibilitychange")));
  await expect(item("leads")).toHaveAttribute("data-done", "true");

  // A campaign through the dashboard: created, it is not ticked until it has a step, and the item
  // then leads to its sequence.
  await page.getByRole("button", { name: "New campaign" }).click();
  const create = page.getByRole("dialog", { name: "New campaign" });
  await create.getByLabel("Campaign name").fill(`Welcome ${stamp}`);
  await create.getByRole("button", { name: "Create campaign" }).click();
  await expect(page).toHaveURL(/\/campaigns\/cmp_[a-z0-9]+$/);
  const campaignId = new URL(page.url()).pathname.split("/").pop()!;
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Campaigns" }).click();
  await expect(item("campaign")).not.toHaveAttribute("data-done");
  await expect(item("campaign").getByRole("link")).toHaveAttribute("href", `/campaigns/${campaignId}?tab=sequence`);
  await item("campaign").getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/campaigns/${campaignId}\\?tab=sequence$`));
  await page.getByRole("button", { name: "Write the first email" }).click();
  const first = page.getByRole("region", { name: "Step 1" });
  await first.getByLabel("Subject").fill("Welcome, {{firstName}}");
  await first.getByLabel("Body (plain text)").fill("Hi {{firstName}}, glad to have you.");
  await first.getByRole("button", { name: "Save" }).click();
  await expect(first.getByText("Not saved yet")).toHaveCount(0);
  await page.getByRole("link", { name: "← Campaigns" }).click();
  await expect(page).toHaveURL(/\/campaigns$/);
  await expect(item("campaign")).toHaveAttribute("data-done", "true");
  await expect(item("launch").getByRole("link")).toHaveAttribute("href", `/campaigns/${campaignId}`);
  await expect(card.getByTestId("onboarding-progress")).toHaveText(/^3 of 6 done/);

  // Dismissed, it stays hidden after a reload, on every page it would show on.
  await card.getByRole("button", { name: "Dismiss" }).click();
  await expect(card).toBeHidden();
  await page.reload();
  await expect(page.getByRole("heading", { name: "Campaigns" })).toBeVisible();
  await expect(card).toBeHidden();
  await page.goto("/leads");
  await expect(page.getByRole("heading", { name: "Leads" })).toBeVisible();
  await expect(card).toBeHidden();

  // "Show setup checklist" in the sidebar brings it back, from a page where it does not show.
  await page.goto("/settings");
  await page.getByRole("complementary", { name: "Sidebar" }).getByRole("button", { name: "Show setup checklist" }).click();
  await expect(page).toHaveURL(/\/leads$/);
  await expect(card.getByTestId("onboarding-progress")).toHaveText(/^3 of 6 done/);
  await expect(page.getByRole("button", { name: "Show setup checklist" })).toHaveCount(0);
});
