import { expect, test } from "@playwright/test";
import { apiClient, ok } from "./support/api";
import { E2E_CAMPAIGN_SENDER, signInAsOwner } from "./support/session";

// Real SMTP and IMAP peers started by the global setup (plain text on 127.0.0.1).
const smtpPort = Number(process.env.E2E_SMTP_PORT);
const imapPort = Number(process.env.E2E_IMAP_PORT);
test.use({ baseURL: process.env.E2E_BASE_URL });

/** Leads of this spec only (their own domain), so other specs' lead counts stay as they expect. */
const LIN = { email: "lin@campaign-e2e.example", firstName: "Lin", lastName: "Nakamura", companyName: "Acme" };
const OMAR = { email: "omar@campaign-e2e.example", firstName: "Omar", companyName: "Globex" };

test("a campaign from scratch: a two-step sequence with an A/B variant, the preview for a lead, leads, a pool mailbox, and a launch past the check's warnings once its blockers are gone", async ({
  page,
}) => {
  expect(smtpPort && imapPort, "the global setup starts the mail peers").toBeTruthy();
  test.setTimeout(180_000);
  await signInAsOwner(page, "/campaigns");
  await expect(page.getByRole("heading", { name: "Campaigns" })).toBeVisible();

  // Set-up that is not what this spec is about goes through the typed client, with the page's own session.
  const api = apiClient(page);
  await ok(api.POST("/leads", { body: { leads: [LIN, OMAR] } }));
  // A mailbox on the SMTP/IMAP peers: verify: true makes the import try the real logins first.
  const imported = await ok(
    api.POST("/mailboxes/bulk-import", {
      body: {
        verify: true,
        mailboxes: [
          {
            email: E2E_CAMPAIGN_SENDER.email,
            senderName: "Sam Sender",
            smtpHost: "127.0.0.1",
            smtpPort,
            smtpSecurity: "NONE",
            smtpPassword: E2E_CAMPAIGN_SENDER.password,
            imapHost: "127.0.0.1",
            imapPort,
            imapSecurity: "NONE",
            signatureHtml: "<p>Sam Sender<br>Campaigns Inc.</p>",
          },
        ],
      },
    }),
  );
  expect(imported.failed).toEqual([]);

  // Create: straight to the new campaign's page, as a draft.
  await page.getByRole("button", { name: "New campaign" }).click();
  const create = page.getByRole("dialog", { name: "New campaign" });
  await create.getByLabel("Campaign name").fill("Founders e2e");
  await create.getByLabel("Folder (optional)").fill("E2E");
  await create.getByRole("button", { name: "Create campaign" }).click();
  await expect(page).toHaveURL(/\/campaigns\/cmp_[a-z0-9]+$/);
  await expect(page.getByRole("heading", { name: "Founders e2e" })).toBeVisible();
  await expect(page.getByTestId("campaign-status")).toHaveText("Draft");

  // Step 1, then its variant B (which starts as a copy of A), then a follow-up.
  await page.getByRole("button", { name: "Write the first email" }).click();
  const first = page.getByRole("region", { name: "Step 1" });
  await first.getByLabel("Subject").fill("Quick question, {{firstName}}");
  await first.getByLabel("Body (plain text)").fill("Hi {{firstName}},\n\nHow does {{companyName}} book demos today?\n\n{{signature}}");
  await first.getByRole("button", { name: "Save" }).click();
  await expect(first.getByText("Not saved yet")).toHaveCount(0);
  await expect(first.getByText("No spam-trigger words in the saved version.")).toBeVisible();

  await page.getByRole("button", { name: "Add variant to Step 1" }).click();
  const variantB = page.getByRole("region", { name: "Step 1 variant B" });
  await expect(variantB.getByLabel("Body (plain text)")).toHaveValue(/How does \{\{companyName\}\} book demos/);
  await variantB.getByLabel("Subject").fill("{{firstName}}, a thought about {{companyName}}");
  await variantB.getByRole("button", { name: "Save" }).click();
  await expect(variantB.getByText("Not saved yet")).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Step 1 variant A" }).getByLabel("Subject")).toHaveValue("Quick question, {{firstName}}");

  await page.getByRole("button", { name: "Add step" }).click();
  const second = page.getByRole("region", { name: "Step 2" });
  await second.getByLabel("Delay (hours)").fill("48");
  await second.getByLabel("Body (plain text)").fill("Following up, {{firstName}}: happy to set up a free trial.");
  await second.getByRole("button", { name: "Save" }).click();
  await expect(second.getByText("Not saved yet")).toHaveCount(0);
  // The spam-word scan of the saved step names the phrase and its category.
  await expect(second.getByTestId("spam-words")).toContainText("“free trial” (overpromise)");

  const campaignId = new URL(page.url()).pathname.split("/").pop()!;
  const { steps } = await ok(api.GET("/campaigns/{id}/steps", { params: { path: { id: campaignId } } }));
  expect(steps.map((s) => [s.stepOrder, s.variantGroup, s.delayHoursAfterPrevious])).toEqual([
    [0, null, null],
    [0, "B", null],
    [1, null, 48],
  ]);

  // Leads added before the pool has a mailbox: added, but without one.
  await page.getByRole("tab", { name: "Leads" }).click();
  await page.getByRole("button", { name: "Add leads" }).click();
  const add = page.getByRole("dialog", { name: "Add leads to the campaign" });
  await add.getByLabel("Search leads to add").fill("campaign-e2e");
  await add.getByRole("checkbox", { name: `Pick ${LIN.email}` }).check();
  await add.getByRole("checkbox", { name: `Pick ${OMAR.email}` }).check();
  await add.getByRole("button", { name: "Add 2 leads" }).click();
  const added = page.getByRole("dialog", { name: "Leads added" });
  await expect(added.getByTestId("add-no_eligible_mailbox")).toContainText("2");
  await expect(added.getByTestId("add-assigned")).toContainText("0");
  await expect(added.getByTestId("add-suppressed")).toContainText("0");
  await added.getByRole("button", { name: "Done" }).click();
  const campaignLeads = page.getByRole("table", { name: "Campaign leads" });
  await expect(campaignLeads.getByRole("row", { name: new RegExp(LIN.email) })).toContainText("No mailbox");
  await expect(campaignLeads.getByRole("row", { name: new RegExp(OMAR.email) })).toContainText("No mailbox");

  // The launch check blocks: Launch is not offered, and the reason stands beside the button.
  await expect(page.getByRole("button", { name: "Launch", exact: true })).toBeDisabled();
  await expect(page.getByTestId("launch-blockers")).toContainText("The mailbox pool is empty: add mailboxes to send from.");
  await expect(page.getByTestId("campaign-status")).toHaveText("Draft");

  // The preview renders the editor's draft for a chosen lead, with the server's renderer.
  await page.getByRole("tab", { name: "Sequence" }).click();
  const preview = page.getByRole("region", { name: "Preview" });
  await page.getByRole("region", { name: "Step 1 variant A" }).getByLabel("Body (plain text)").click();
  await expect(preview).toContainText("Preview · Step 1 variant A");
  await preview.getByLabel("Preview for lead").selectOption({ label: `Lin Nakamura — ${LIN.email}` });
  await expect(preview.getByTestId("preview-subject")).toHaveText("Quick question, Lin");
  await expect(preview).toContainText("Hi Lin,");
  await expect(preview).toContainText("How does Acme book demos today?");
  // A typo in the unsaved draft: shown as raw text in red, with the renderer's suggestion.
  const bodyA = page.getByRole("region", { name: "Step 1 variant A" }).getByLabel("Body (plain text)");
  await bodyA.fill("Hello {{firstname}},\n\nHow does {{companyName}} book demos today?\n\n{{signature}}");
  await expect(preview.getByTestId("variables-unknown")).toContainText("{{firstname}}");
  await expect(
    preview.getByText("{{firstname}} is not a known variable, so it will be sent exactly as written. Did you mean {{firstName}}?"),
  ).toBeVisible();
  await page.getByRole("region", { name: "Step 1 variant A" }).getByRole("button", { name: "Discard changes" }).click();
  await expect(bodyA).toHaveValue(/^Hi \{\{firstName\}\},/);
  await expect(preview).toContainText("Hi Lin,");

  // The pool: one mailbox picked by hand; then the leads get it through Reassign.
  await page.getByRole("tab", { name: "Mailboxes" }).click();
  await page.getByRole("button", { name: "Add mailboxes" }).click();
  const pick = page.getByRole("dialog", { name: "Add mailboxes to the pool" });
  await pick.getByRole("checkbox", { name: `Pick ${E2E_CAMPAIGN_SENDER.email}` }).check();
  await pick.getByRole("button", { name: "Add 1 mailbox" }).click();
  await expect(page.getByTestId("pool-notice")).toHaveText("Added 1 mailbox to the pool (now 1).");
  const poolRow = page.getByRole("table", { name: "Mailbox pool" }).getByRole("row", { name: new RegExp(E2E_CAMPAIGN_SENDER.email) });
  await expect(poolRow).toContainText("Sam Sender");
  await expect(poolRow).toContainText("Yes");

  await page.getByRole("tab", { name: "Leads" }).click();
  await page.getByRole("button", { name: "Reassign" }).click();
  await expect(page.getByTestId("leads-notice")).toHaveText("Reassigned 2 leads.");
  await expect(campaignLeads.getByRole("row", { name: new RegExp(LIN.email) })).toContainText(E2E_CAMPAIGN_SENDER.email);
  await expect(campaignLeads.getByRole("row", { name: new RegExp(OMAR.email) })).toContainText(E2E_CAMPAIGN_SENDER.email);

  // Launch: no blockers left, only warnings (the leads and the campaign have no timezone).
  await expect(page.getByTestId("launch-blockers")).toHaveCount(0);
  await page.getByRole("button", { name: "Launch", exact: true }).click();
  const launch = page.getByRole("dialog", { name: "Launch Founders e2e" });
  await expect(launch.getByRole("region", { name: "Warnings" })).toContainText("NO_TIMEZONE");
  await expect(launch.getByRole("region", { name: "Blockers" })).toHaveCount(0);
  await expect(launch).toContainText("Ready to launch; check the warnings first.");
  await launch.getByRole("button", { name: "Launch", exact: true }).click();
  await expect(launch).toBeHidden();
  await expect(page.getByTestId("campaign-status")).toHaveText("Active");
  await expect(page.getByTestId("campaign-notice")).toHaveText("Founders e2e is active: it sends within its window and days.");

  // Paused again, so the rest of the suite runs on a quiet instance.
  await page.getByRole("button", { name: "Pause" }).click();
  await expect(page.getByTestId("campaign-status")).toHaveText("Paused");
});

test("the campaign list: filters by status and folder, duplicate, delete with what it removes, bulk archive", async ({ page }) => {
  await signInAsOwner(page, "/campaigns");
  const stamp = Date.now().toString(36);
  const api = apiClient(page);
  const alpha = await ok(api.POST("/campaigns", { body: { name: `Alpha ${stamp}`, folder: `Folder ${stamp}` } }));
  await ok(api.POST("/campaigns", { body: { name: `Beta ${stamp}` } }));
  const [lead] = (await ok(api.POST("/leads", { body: { leads: [{ email: `list-${stamp}@campaign-e2e.example`, firstName: "Lee" }] } })))
    .leadIds;
  await ok(api.POST("/campaigns/{id}/leads", { params: { path: { id: alpha.id } }, body: { leadIds: [lead] } }));
  await page.reload();

  const table = page.getByRole("table", { name: "Campaigns" });
  await page.getByLabel("Search campaigns").fill(stamp);
  await expect(table.getByRole("row")).toHaveCount(3); // header + 2
  await page.getByLabel("Folder", { exact: true }).selectOption(`Folder ${stamp}`);
  await expect(table.getByRole("row", { name: new RegExp(`Alpha ${stamp}`) })).toBeVisible();
  await expect(table.getByRole("row", { name: new RegExp(`Beta ${stamp}`) })).toHaveCount(0);
  await page.getByLabel("Folder", { exact: true }).selectOption({ label: "No folder" });
  await expect(table.getByRole("row", { name: new RegExp(`Beta ${stamp}`) })).toBeVisible();
  await expect(table.getByRole("row", { name: new RegExp(`Alpha ${stamp}`) })).toHaveCount(0);
  await page.getByLabel("Folder", { exact: true }).selectOption({ label: "Any folder" });
  await page.getByRole("checkbox", { name: "Active", exact: true }).check();
  await expect(table).toContainText("No campaigns match these filters.");
  await page.getByRole("checkbox", { name: "Active", exact: true }).uncheck();
  await page.getByRole("checkbox", { name: "Draft", exact: true }).check();
  await expect(table.getByRole("row", { name: new RegExp(`Alpha ${stamp}`) })).toContainText("Draft");
  await page.getByRole("checkbox", { name: "Draft", exact: true }).uncheck();

  // Duplicate: a draft copy in the same folder.
  await page.getByRole("button", { name: `Duplicate Alpha ${stamp}` }).click();
  const dup = page.getByRole("dialog", { name: `Duplicate Alpha ${stamp}` });
  await expect(dup.getByLabel("Name of the copy")).toHaveValue(`Copy of Alpha ${stamp}`);
  await dup.getByRole("button", { name: "Duplicate" }).click();
  await expect(page.getByTestId("campaigns-notice")).toContainText(`Created Copy of Alpha ${stamp} as a draft.`);
  await expect(table.getByRole("row", { name: new RegExp(`Copy of Alpha ${stamp}`) })).toContainText(`Folder ${stamp}`);

  // Delete shows what goes with it: Alpha's one lead is in no other campaign.
  await page.getByRole("button", { name: `Delete Alpha ${stamp}` }).click();
  const del = page.getByRole("dialog", { name: `Delete Alpha ${stamp}?` });
  await expect(del.getByTestId("delete-preview")).toContainText("1 lead only in this campaign");
  await expect(del.getByTestId("delete-preview")).toContainText("0 emails sent");
  await del.getByLabel(/Also delete the 1 lead/).check();
  await del.getByRole("button", { name: "Delete campaign" }).click();
  await expect(page.getByTestId("campaigns-notice")).toHaveText(`Deleted Alpha ${stamp}. 1 lead deleted with it.`);
  await expect(table.getByRole("link", { name: `Alpha ${stamp}`, exact: true })).toHaveCount(0);

  // Bulk archive of the two left.
  await page.getByRole("checkbox", { name: `Select Beta ${stamp}`, exact: true }).check();
  await page.getByRole("checkbox", { name: `Select Copy of Alpha ${stamp}`, exact: true }).check();
  await page.getByRole("button", { name: "Archive 2 selected" }).click();
  await page.getByRole("dialog", { name: "Archive 2 campaigns?" }).getByRole("button", { name: "Archive" }).click();
  await expect(page.getByTestId("campaigns-notice")).toHaveText("Archived 2 campaigns.");
  await expect(table.getByRole("row", { name: new RegExp(`Beta ${stamp}`) })).toContainText("Archived");
  await expect(table.getByRole("row", { name: new RegExp(`Copy of Alpha ${stamp}`) })).toContainText("Archived");
});
