import { expect, test } from "@playwright/test";
import { apiClient, ok } from "./support/api";
import { useSpecMailPeers } from "./support/mail-peers";
import { signInAsOwner } from "./support/session";
import { openNewWorkspace } from "./support/workspace";

test.use({ baseURL: process.env.E2E_BASE_URL });

// A sender on this spec's own mail peers, on a domain the DNS peer knows nothing of (no SPF, DKIM, DMARC or MX).
const SENDER = { email: "wanda@launch-warnings.test", password: "warningspassword1234", senderName: "Wanda Warn" };
const peers = useSpecMailPeers(SENDER, { rejectRecipients: [] });

const LONG = `${"We help teams like yours book more meetings without hiring another rep. ".repeat(8)}Worth a short call next week?`;

test("the launch dialog lists what hurts deliverability, each with its fix and a link to where it is fixed, and still offers Launch", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  await signInAsOwner(page, "/campaigns");
  // Its own workspace: no tracking domain of another spec, no sends of this mailbox.
  await openNewWorkspace(page, `Launch warnings ${stamp}`);
  const api = apiClient(page);
  const mailboxId = await peers.importMailbox(page);

  const name = `Warnings e2e ${stamp}`;
  const campaign = await ok(
    api.POST("/campaigns", { body: { name, defaultTimezone: "Europe/Berlin", trackOpens: true, trackClicks: true } }),
  );
  peers.created.campaignId = campaign.id;
  const path = { id: campaign.id };
  const steps = await ok(
    api.PUT("/campaigns/{id}/steps", {
      params: { path },
      body: {
        steps: [
          { stepOrder: 0, subject: "Hi {{firstName}}", bodyTemplate: `Hi {{firstName}}, you mentioned {{pain}}. ${LONG}` },
          { stepOrder: 1, bodyTemplate: "", bodyHtmlTemplate: "<p>Hi {{firstName}}, any thoughts?</p>", delayHoursAfterPrevious: 48 },
          { stepOrder: 2, bodyTemplate: `Act now: this offer is guaranteed to work. ${LONG}`, delayHoursAfterPrevious: 48 },
        ],
      },
    }),
  );
  expect(steps.steps).toHaveLength(3);
  await ok(api.PUT("/campaigns/{id}/mailboxes", { params: { path }, body: { mailboxIds: [mailboxId] } }));
  const leads = Array.from({ length: 5 }, (_, i) => ({
    email: `lw${i}-${stamp}@leads-e2e.example`,
    firstName: `Lee${i}`,
    ...(i === 0 ? { customFields: { pain: "slow onboarding" } } : {}),
  }));
  const { leadIds } = await ok(api.POST("/leads", { body: { leads } }));
  await ok(api.POST("/campaigns/{id}/leads", { params: { path }, body: { leadIds } }));

  await page.goto(`/campaigns/${campaign.id}`);
  await expect(page.getByRole("heading", { name })).toBeVisible();
  await page.getByRole("button", { name: "Launch", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: `Launch ${name}` });
  await expect(dialog).toContainText("Ready to launch; check the warnings first.");
  const warnings = dialog.getByRole("region", { name: "Warnings" });
  const entry = (code: string) => warnings.locator(`li[data-code="${code}"]`);

  await expect(entry("DOMAIN_NOT_AUTHENTICATED")).toContainText("launch-warnings.test");
  await expect(entry("DOMAIN_NOT_AUTHENTICATED")).toContainText("Gmail and Yahoo refuse bulk mail without all three");
  await expect(entry("DOMAIN_NOT_AUTHENTICATED").getByTestId("launch-fix")).toContainText(
    "Fix: publish the records the Domains page shows",
  );
  await expect(entry("DOMAIN_NOT_AUTHENTICATED").getByRole("link", { name: "Open Domains" })).toHaveAttribute("href", "/domains");

  await expect(entry("MAILBOX_NOT_WARMED")).toContainText(`warmup off and no sending history: ${SENDER.email}`);
  await expect(entry("MAILBOX_NOT_WARMED").getByRole("link", { name: "Open warmup on Mailboxes" })).toHaveAttribute("href", "/mailboxes");

  await expect(entry("EMPTY_VARIABLES")).toContainText("{{pain}} is empty for 4 leads in step 1");
  await expect(entry("EMPTY_VARIABLES").getByTestId("launch-fix")).toContainText("Fix: fill pain on those leads");
  await expect(entry("SPAM_WORDS")).toContainText('step 3 uses 2 words spam filters flag: "act now", "guaranteed"');
  await expect(entry("TRACKING_SHARED_DOMAIN")).toContainText("tracks opens and clicks");
  await expect(entry("TRACKING_SHARED_DOMAIN").getByRole("link", { name: "Settings → Tracking domains" })).toHaveAttribute(
    "href",
    "/settings/tracking-domains",
  );
  await expect(entry("TRACKED_SHORT_HTML")).toHaveCount(1);
  await expect(entry("TRACKED_SHORT_HTML")).toContainText("step 2 has 31 characters of text beside the open-tracking pixel");
  // Each step warning links to its own step's editor.
  const stepOf = (order: number) => steps.steps.find((s) => s.stepOrder === order)?.id ?? "";
  for (const [code, order] of [
    ["EMPTY_VARIABLES", 0],
    ["SPAM_WORDS", 2],
    ["TRACKED_SHORT_HTML", 1],
  ] as const)
    await expect(entry(code).getByRole("link", { name: "Edit the step in the sequence" })).toHaveAttribute(
      "href",
      `/campaigns/${campaign.id}?tab=sequence#step-${stepOf(order)}`,
    );

  // Warnings never block: Launch is offered as is.
  await expect(dialog.getByRole("region", { name: "Blockers" })).toHaveCount(0);
  await expect(dialog.getByRole("button", { name: "Launch", exact: true })).toBeEnabled();

  // The step's link opens the sequence editor at that step, scrolled to and previewed.
  await entry("SPAM_WORDS").getByRole("link", { name: "Edit the step in the sequence" }).click();
  await expect(page).toHaveURL(new RegExp(`/campaigns/${campaign.id}\\?tab=sequence#step-${stepOf(2)}$`));
  await expect(page.getByRole("tab", { name: "Sequence" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("region", { name: "Step 3", exact: true })).toBeInViewport();
  await expect(page.getByRole("heading", { name: "Preview · Step 3" })).toBeVisible();
});
