import { expect, type Page, test } from "@playwright/test";
import { apiClient, ok } from "./support/api";
import { placeWithHolidayAhead } from "./support/holidays";
import { useSpecMailPeers } from "./support/mail-peers";
import { signInAsOwner } from "./support/session";

test.use({ baseURL: process.env.E2E_BASE_URL });

const stamp = Date.now().toString(36);
const MAILBOX = { email: `rio-${stamp}@journey-e2e.test`, password: "journeypassword1234", senderName: "Rio Journey" };
/** The forecast's longest range: the lead's country has a public holiday in it, and none today. */
const FORECAST_DAYS = 30;
const PLACE = placeWithHolidayAhead(new Date(), FORECAST_DAYS);
const LEAD = {
  email: `noor-${stamp}@journey-e2e.example`,
  firstName: "Noor",
  lastName: "Haddad",
  companyName: "Fabrikam",
  timezone: PLACE.timezone,
  customFields: { country: PLACE.country },
};
const CAMPAIGN = `Reacting journey ${stamp}`;
const SUB = "Booking";
const SUBJECT = "{Quick question|A thought|One idea} for {{firstName}}";
const SUBJECTS = ["Quick question for Noor", "A thought for Noor", "One idea for Noor"];
const BODY = "{Hi|Hello} {{firstName}},\n\nWould a short call about {{companyName}} make sense?";
const SUB_BODY = "Great, {{firstName}} — here is my calendar: pick any slot that suits you.";

/** Mail peers of this spec alone (what the app sends is read here); the campaign and mailbox are paused after the test. */
const mail = useSpecMailPeers(MAILBOX, { rejectRecipients: [] });

/** The lead's interested answer, threaded to the campaign's first email as their mail client writes it. */
function interestedReply(subject: string, inReplyTo: string): string {
  return [
    `From: ${LEAD.firstName} ${LEAD.lastName} <${LEAD.email}>`,
    `To: ${MAILBOX.senderName} <${MAILBOX.email}>`,
    `Subject: Re: ${subject}`,
    `Message-ID: <reply-${stamp}@journey-e2e.example>`,
    `In-Reply-To: ${inReplyTo}`,
    `References: ${inReplyTo}`,
    `Date: ${new Date().toUTCString()}`,
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "",
    "Sounds good — can we book a call next week?",
    "",
  ].join("\r\n");
}

/** Settings: any hour of any day with no pacing gap (the test sends at once), and public holidays skipped. */
async function openWindowAndSkipHolidays(page: Page) {
  await page.getByRole("tab", { name: "Settings" }).click();
  const form = page.getByRole("form", { name: "Campaign settings" });
  await form.getByLabel("Send from (hour)").selectOption("0");
  await form.getByLabel("Send until (hour)").selectOption("24");
  const days = form.getByRole("group", { name: "Sending days" });
  for (const d of ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]) await days.getByLabel(d, { exact: true }).check();
  await form.getByLabel("Minimum gap between emails (minutes)").fill("0");
  await form.getByLabel("Skip public holidays").check();
  await form.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByTestId("settings-saved")).toBeVisible();
}

/** The main sequence: a first email in spintax, and a follow-up two days later. */
async function writeSteps(page: Page) {
  await page.getByRole("tab", { name: "Sequence" }).click();
  await page.getByRole("button", { name: "Write the first email" }).click();
  const first = page.getByRole("region", { name: "Step 1" });
  await first.getByLabel("Subject").fill(SUBJECT);
  await first.getByLabel("Body (plain text)").fill(BODY);
  await first.getByRole("button", { name: "Save" }).click();
  await expect(first.getByText("Not saved yet")).toHaveCount(0);

  await page.getByRole("button", { name: "Add step" }).click();
  const second = page.getByRole("region", { name: "Step 2" });
  await second.getByLabel("Delay (hours)").fill("48");
  await second.getByLabel("Body (plain text)").fill("Following up, {{firstName}}: is this worth a look?");
  await second.getByRole("button", { name: "Save" }).click();
  await expect(second.getByText("Not saved yet")).toHaveCount(0);
}

/** The subsequence that continues the thread, with one step due at once, and Step 1's rule into it. */
async function branchIntoSubsequence(page: Page, campaignId: string) {
  await page.getByLabel("New subsequence name").fill(SUB);
  await expect(page.getByLabel("Threading")).toHaveValue("same");
  await page.getByRole("button", { name: "Add subsequence" }).click();
  const booking = page.getByRole("region", { name: `Subsequence ${SUB}` });
  await expect(booking).toContainText("continues the lead's thread");
  await booking.getByLabel(`${SUB}: new step body`).fill(SUB_BODY);
  await booking.getByLabel(`${SUB}: hours after the previous email`).fill("0");
  await booking.getByRole("button", { name: `Add step to ${SUB}` }).click();
  await expect(booking.getByText(SUB_BODY)).toBeVisible();

  const branches = page.locator('[data-testid="branches"][data-step="Step 1"]');
  await branches.getByRole("button", { name: "Add a rule to Step 1" }).click();
  await branches.getByLabel("Step 1 rule 1: when").selectOption("replied");
  await expect(branches.getByLabel("Step 1 rule 1: Interested")).toBeChecked();
  await branches.getByLabel("Step 1 rule 1: then").selectOption("subsequence");
  await branches.getByLabel("Step 1 rule 1: subsequence").selectOption({ label: SUB });
  await branches.getByRole("button", { name: "Save the branches of Step 1" }).click();
  await expect(branches.getByRole("status")).toHaveText("Branches saved");
  // Saved once the step's own answer carries the rule (a disabled button may still be saving).
  const api = apiClient(page);
  const path = { params: { path: { id: campaignId } } };
  const [sub] = (await ok(api.GET("/campaigns/{id}/subsequences", path))).subsequences;
  await expect
    .poll(async () => (await ok(api.GET("/campaigns/{id}/steps", path))).steps.find((s) => s.stepOrder === 0)?.branches, {
      message: "the rule of Step 1 is saved",
    })
    .toEqual([{ when: { replied: ["INTERESTED"] }, action: { type: "subsequence", subsequenceId: sub.id } }]);
  await expect(branches.getByRole("button", { name: "Save the branches of Step 1" })).toBeDisabled();
  expect(sub).toMatchObject({ name: SUB, threading: "same", steps: [{ stepOrder: 0 }] });
}

/** The pool gets the spec's mailbox, then the campaign gets the lead (who is given that mailbox). */
async function poolAndLead(page: Page) {
  await page.getByRole("tab", { name: "Mailboxes" }).click();
  await page.getByRole("button", { name: "Add mailboxes" }).click();
  const pick = page.getByRole("dialog", { name: "Add mailboxes to the pool" });
  await pick.getByRole("checkbox", { name: `Pick ${MAILBOX.email}` }).check();
  await pick.getByRole("button", { name: "Add 1 mailbox" }).click();
  await expect(page.getByTestId("pool-notice")).toHaveText("Added 1 mailbox to the pool (now 1).");

  await page.getByRole("tab", { name: "Leads" }).click();
  await page.getByRole("button", { name: "Add leads" }).click();
  const add = page.getByRole("dialog", { name: "Add leads to the campaign" });
  await add.getByLabel("Search leads to add").fill(LEAD.email);
  await add.getByRole("checkbox", { name: `Pick ${LEAD.email}` }).check();
  await add.getByRole("button", { name: "Add 1 lead" }).click();
  const added = page.getByRole("dialog", { name: "Leads added" });
  await expect(added.getByTestId("add-assigned")).toContainText("1");
  await added.getByRole("button", { name: "Done" }).click();
  const row = page.getByRole("table", { name: "Campaign leads" }).getByRole("row", { name: new RegExp(LEAD.email) });
  await expect(row).toContainText(MAILBOX.email);
}

/** What the sequence editor's preview shows the lead will receive for Step 1 (its own spintax choices). */
async function previewedSubject(page: Page): Promise<{ subject: string; greeting: string }> {
  await page.getByRole("tab", { name: "Sequence" }).click();
  await page.getByRole("region", { name: "Step 1" }).getByLabel("Body (plain text)").click();
  const preview = page.getByRole("region", { name: "Preview" });
  await expect(preview).toContainText("Preview · Step 1");
  await preview.getByLabel("Preview for lead").selectOption({ label: `${LEAD.firstName} ${LEAD.lastName} — ${LEAD.email}` });
  await expect(preview.getByTestId("preview-variation")).toContainText("As this lead receives it");
  await expect(preview).toContainText(`${LEAD.email}`);
  const subject = preview.getByTestId("preview-subject");
  await expect(subject).toHaveText(new RegExp(`^(${SUBJECTS.join("|")})$`));
  await expect(preview).toContainText(/(Hi|Hello) Noor,/);
  const greeting = ((await preview.textContent()) ?? "").match(/(Hi|Hello) Noor,/)![0];
  return { subject: (await subject.textContent()) ?? "", greeting };
}

test("a campaign that reacts, built in the dashboard: spintax, an Interested reply into a threaded subsequence, and a holiday skipped", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signInAsOwner(page, "/campaigns");
  const api = apiClient(page);
  // Set-up that is not what this spec is about: the mailbox on this spec's peers, and the lead in a country with a holiday ahead.
  await mail.importMailbox(page);
  const [leadId] = (await ok(api.POST("/leads", { body: { leads: [LEAD] } }))).leadIds;

  await page.getByRole("button", { name: "New campaign" }).click();
  const create = page.getByRole("dialog", { name: "New campaign" });
  await create.getByLabel("Campaign name").fill(CAMPAIGN);
  await create.getByRole("button", { name: "Create campaign" }).click();
  await expect(page).toHaveURL(/\/campaigns\/cmp_[a-z0-9]+$/);
  const campaignId = new URL(page.url()).pathname.split("/").pop()!;
  mail.created.campaignId = campaignId;

  await openWindowAndSkipHolidays(page);
  await writeSteps(page);
  await branchIntoSubsequence(page, campaignId);
  await poolAndLead(page);
  const shown = await previewedSubject(page);

  // The forecast skips the lead's country's public holiday.
  await page.getByRole("tab", { name: "Schedule" }).click();
  await page.getByLabel("Days forecast").selectOption(String(FORECAST_DAYS));
  const skipped = page.getByTestId("skipped-days");
  await expect(skipped).toContainText(`${PLACE.country} (1 lead)`);
  await expect(skipped).toContainText(PLACE.holiday.name);
  await expect(page.getByRole("table", { name: "Upcoming sends" })).toContainText(LEAD.email);

  // Launch from the dashboard.
  await page.getByRole("button", { name: "Launch", exact: true }).click();
  const launch = page.getByRole("dialog", { name: `Launch ${CAMPAIGN}` });
  await expect(launch.getByRole("region", { name: "Blockers" })).toHaveCount(0);
  await launch.getByRole("button", { name: "Launch", exact: true }).click();
  await expect(launch).toBeHidden();
  await expect(page.getByTestId("campaign-status")).toHaveText("Active");

  // The worker sends Step 1: the subject is one of the spintax choices, the one the preview showed.
  const firstId = await mail.firstEmailTo(LEAD.email);
  const first = mail.smtp.received.find((m) => m.parsed.messageId === firstId)!;
  expect(SUBJECTS).toContain(first.parsed.subject);
  expect(first.parsed.subject).toBe(shown.subject);
  expect(first.parsed.text).toContain(shown.greeting);

  // The lead answers, interested; the inbox sync picks it up and the branch moves the lead into the subsequence.
  await mail.deliver(interestedReply(first.parsed.subject!, firstId));
  await page.goto(`/leads/${leadId}`);
  const where = page.getByTestId("lead-where");
  await expect(async () => {
    await page.reload();
    await expect(where).toContainText(`In subsequence ${SUB}`, { timeout: 3_000 });
  }).toPass({ timeout: 90_000, intervals: [1_000, 2_000] });
  await expect(where).toContainText("Last branch: replied INTERESTED → moved to a subsequence");

  // The subsequence's step continues the thread.
  await expect
    .poll(() => mail.smtp.received.filter((m) => m.to.includes(LEAD.email)).length, {
      timeout: 60_000,
      message: "the subsequence's email reaches the SMTP peer",
    })
    .toBe(2);
  const next = mail.smtp.received.filter((m) => m.to.includes(LEAD.email))[1];
  expect(next.parsed.subject).toBe(`Re: ${first.parsed.subject}`);
  expect(next.parsed.text).toContain("Great, Noor — here is my calendar");
  expect(next.parsed.inReplyTo).toBe(firstId);
  expect([next.parsed.references].flat()).toContain(firstId);
  await expect(page.getByText("Took a sequence branch")).toBeVisible();
});
