import { expect, type Page, test } from "@playwright/test";
import { apiClient, ok } from "./support/api";
import { checkWidths } from "./support/layout";
import { useSpecMailPeers } from "./support/mail-peers";
import { signInAsOwner } from "./support/session";

test.use({ baseURL: process.env.E2E_BASE_URL });

const stamp = Date.now().toString(36);
const MAILBOX = { email: `hal-${stamp}@hand-e2e.test`, password: "handpassword1234", senderName: "Hal Hand" };
const RAE = `rae-${stamp}@handmade-e2e.example`;
const SAM = `sam-${stamp}@handmade-e2e.example`;
const TIA = `tia-${stamp}@handmade-e2e.example`;
const UMA = `uma-${stamp}@handmade-e2e.example`;
const TAG = `Warm ${stamp}`;

const mail = useSpecMailPeers(MAILBOX, { rejectRecipients: [] });

/** Rae's answer to our email, threaded to it, as her mail client would write it. */
function raeReply(inReplyTo: string, subject: string): string {
  return [
    `From: Rae Rowe <${RAE}>`,
    `To: ${MAILBOX.senderName} <${MAILBOX.email}>`,
    `Subject: Re: ${subject}`,
    `Message-ID: <rae-${stamp}@handmade-e2e.example>`,
    `In-Reply-To: ${inReplyTo}`,
    `References: ${inReplyTo}`,
    `Date: ${new Date().toUTCString()}`,
    "Content-Type: text/plain; charset=utf-8",
    "",
    "Sounds good — can we book a call next week?",
    "",
    `On Mon, ${MAILBOX.senderName} wrote:`,
    "> Hi Rae",
    "",
  ].join("\r\n");
}

/** The leads list narrowed to this spec's leads. */
async function searchLeads(page: Page) {
  await page.goto("/leads");
  await page.getByLabel("Search leads").fill(stamp);
  return page.getByRole("table", { name: "Leads" });
}

test("a lead added by hand: its page shows a real send and the reply; bulk tag, bulk delete", async ({ page }, testInfo) => {
  test.setTimeout(300_000);
  await signInAsOwner(page, "/leads");
  const api = apiClient(page);
  await ok(api.POST("/tags", { body: { name: TAG } }));

  // Add lead: every field, a custom field and an existing tag, through POST /leads.
  await page.goto("/leads");
  await page.getByRole("button", { name: "Add lead" }).click();
  const dialog = page.getByRole("dialog", { name: "Add lead" });
  await dialog.getByLabel("Email", { exact: true }).fill(RAE);
  await dialog.getByLabel("First name").fill("Rae");
  await dialog.getByLabel("Last name").fill("Rowe");
  await dialog.getByLabel("Company name").fill("Handmade");
  await dialog.getByLabel("Job title").fill("Founder");
  await dialog.getByLabel("Timezone").fill("Europe/Berlin");
  await dialog.getByRole("button", { name: "Add custom field" }).click();
  await dialog.getByLabel("Custom field name").fill("plan");
  await dialog.getByLabel("Value of plan").fill("gold");
  await dialog.getByLabel(TAG).check();
  await dialog.getByRole("button", { name: "Add lead" }).click();
  await expect(dialog.getByTestId("add-lead-result")).toHaveText(new RegExp(`^Created ${RAE}\\.`));

  // The same address again merges; a malformed one is refused with the API's reason.
  await dialog.getByRole("button", { name: "Add another" }).click();
  await dialog.getByLabel("Email", { exact: true }).fill(RAE.toUpperCase());
  await dialog.getByLabel("Phone number").fill("+49 30 1234");
  await dialog.getByRole("button", { name: "Add lead" }).click();
  await expect(dialog.getByTestId("add-lead-result")).toContainText("was already a lead: merged into it");
  await dialog.getByRole("button", { name: "Add another" }).click();
  await dialog.getByLabel("Email", { exact: true }).fill("not-an-address");
  await dialog.getByRole("button", { name: "Add lead" }).click();
  await expect(dialog.getByTestId("add-lead-result")).toContainText("Not added:");
  await dialog.getByRole("button", { name: "Cancel" }).click();

  const leads = await searchLeads(page);
  const raeRow = leads.getByRole("row", { name: new RegExp(RAE.replace(/[.]/g, "\\.")) });
  await expect(raeRow).toContainText("Rae Rowe");
  await expect(raeRow).toContainText(TAG);
  await expect(leads).not.toContainText("not-an-address");
  await checkWidths(page, testInfo, "leads-list");

  // Its page: the fields, the tag, the custom field; the timeline has the tag so far.
  await raeRow.getByRole("link", { name: RAE }).click();
  await expect(page.getByRole("heading", { name: RAE })).toBeVisible();
  const details = page.getByRole("region", { name: "Details" });
  await expect(details).toContainText("Founder");
  await expect(details).toContainText("+49 30 1234");
  await expect(details).toContainText("gold");
  const events = page.getByRole("list", { name: "Timeline events" });
  await expect(events.locator('li[data-kind="tagged"]')).toContainText(TAG);
  const leadUrl = page.url();

  // A real send to it and its reply, through this spec's own SMTP and IMAP peers.
  const mailboxId = await mail.importMailbox(page);
  const subject = `A hand-picked idea ${stamp}`;
  const { launch } = await mail.oneStepCampaign(page, {
    mailboxId,
    lead: { email: RAE },
    name: `Hand e2e ${stamp}`,
    subject,
    body: "Hi {{firstName}}, a short idea.",
  });
  await launch();
  const messageId = await mail.firstEmailTo(RAE);
  await mail.deliver(raeReply(messageId, subject));

  // The worker's inbox sync (IMAP_POLL_INTERVAL_S=2) picks the reply up; then the page shows it.
  const leadId = new URL(leadUrl).pathname.split("/").pop()!;
  const kinds = async () => (await ok(api.GET("/leads/{id}/timeline", { params: { path: { id: leadId } } }))).events.map((e) => e.kind);
  await expect.poll(kinds, { timeout: 90_000, message: "the reply reaches the lead's timeline" }).toContain("replied");
  await page.goto(leadUrl);
  const replied = events.locator('li[data-kind="replied"]');
  await expect(replied).toContainText("Interested");
  await expect(replied).toContainText("Sounds good — can we book a call next week?");
  await expect(replied).toContainText(`Hand e2e ${stamp}`);
  await expect(replied).toContainText("Step 1");
  const sent = events.locator('li[data-kind="sent"]');
  await expect(sent).toContainText(subject);
  await expect(sent).toContainText(`From ${MAILBOX.email}`);
  await expect(events.locator('li[data-kind="campaign_added"]')).toContainText(`Hand e2e ${stamp}`);
  await expect(page.getByRole("region", { name: "Campaigns" })).toContainText(`Hand e2e ${stamp}`);
  await checkWidths(page, testInfo, "lead-page");

  // Bulk: tag Rae and Sam at once, then delete Tia and Uma (owner).
  await ok(api.POST("/leads", { body: { leads: [{ email: SAM }, { email: TIA }, { email: UMA }] } }));
  const list = await searchLeads(page);
  await expect(list.getByRole("row")).toHaveCount(5); // the header and four leads
  await list.getByLabel(`Select ${SAM}`).check();
  await list.getByLabel(`Select ${RAE}`).check();
  const bulk = page.getByRole("region", { name: "Bulk actions" });
  await expect(bulk).toContainText("2 leads selected");
  await bulk.getByLabel("Bulk action").selectOption("tag");
  await bulk.getByLabel("Tag to apply").selectOption({ label: TAG });
  await bulk.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("leads-notice")).toHaveText(`Tagged 1 lead with “${TAG}” (1 lead had it already).`);
  await expect(list.getByRole("row", { name: new RegExp(SAM.replace(/[.]/g, "\\.")) })).toContainText(TAG);
  await expect(raeRow).toContainText(TAG);
  await checkWidths(page, testInfo, "leads-bulk");

  await bulk.getByRole("button", { name: "Clear selection" }).click();
  await list.getByLabel(`Select ${TIA}`).check();
  await list.getByLabel(`Select ${UMA}`).check();
  await page.getByRole("button", { name: "Delete 2 selected" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete 2 leads?" });
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByTestId("leads-notice")).toHaveText("Deleted 2 leads.");
  await expect(list).not.toContainText(TIA);
  await expect(list).not.toContainText(UMA);
  await expect(list.getByRole("row")).toHaveCount(3);
});
