import { expect, test } from "@playwright/test";
import { apiClient, ok } from "./support/api";
import { useSpecMailPeers } from "./support/mail-peers";
import { signInAsOwner } from "./support/session";

test.use({ baseURL: process.env.E2E_BASE_URL });

const stamp = Date.now().toString(36);
const MAILBOX = { email: `rita-${stamp}@notes-e2e.test`, password: "notespassword1234", senderName: "Rita Notes" };
const mail = useSpecMailPeers(MAILBOX, { rejectRecipients: [] });

/** An answer to our campaign email, threaded to it. */
function answer(o: { from: string; inReplyTo: string; body: string; auto?: boolean; id: string }): string {
  return [
    `From: ${o.from}`,
    `To: ${MAILBOX.senderName} <${MAILBOX.email}>`,
    "Subject: Re: Notes",
    `Message-ID: <${o.id}-${stamp}@notes-e2e.example>`,
    `In-Reply-To: ${o.inReplyTo}`,
    `References: ${o.inReplyTo}`,
    `Date: ${new Date().toUTCString()}`,
    ...(o.auto ? ["Auto-Submitted: auto-replied"] : []),
    "Content-Type: text/plain; charset=utf-8",
    "",
    o.body,
    "",
  ].join("\r\n");
}

/** A campaign email to `lead`, the lead's answer, and the conversation opened once the answer is in. */
async function answered(page: import("@playwright/test").Page, lead: { email: string; firstName: string }, body: string, auto = false) {
  const mailboxId = await mail.importMailbox(page);
  // The spec's mailbox is imported again by each test; the previous test's clean-up turned its sending off.
  await ok(apiClient(page).PATCH("/mailboxes/{id}", { params: { path: { id: mailboxId } }, body: { sendingEnabled: true } }));
  const c = await mail.oneStepCampaign(page, { mailboxId, lead, name: `Notes ${lead.firstName} ${stamp}`, subject: "Notes", body: "Hi" });
  await c.launch();
  const inReplyTo = await mail.firstEmailTo(lead.email);
  await mail.deliver(answer({ from: lead.email, inReplyTo, body, auto, id: lead.firstName }));
  const api = apiClient(page);
  await expect
    .poll(async () => (await ok(api.GET("/replies/thread/{leadId}", { params: { path: { leadId: c.leadId } } }))).messages.length, {
      timeout: 90_000,
      message: "the answer is synced",
    })
    .toBe(2);
  await page.goto(`/inbox?lead=${c.leadId}`);
  return { ...c, convo: page.getByRole("region", { name: "Conversation" }) };
}

test("an out-of-office answer shows the day the lead is back and the sentence it was read from", async ({ page }) => {
  test.setTimeout(240_000);
  await signInAsOwner(page, "/inbox");
  const back = new Date(Date.now() + 20 * 86_400_000);
  const german = `${String(back.getUTCDate()).padStart(2, "0")}.${String(back.getUTCMonth() + 1).padStart(2, "0")}.${back.getUTCFullYear()}`;
  const { convo } = await answered(
    page,
    { email: `ooo-${stamp}@notes-e2e.example`, firstName: "Olaf" },
    `Ich bin ab dem ${german} wieder im Büro.`,
    true,
  );
  const note = convo.getByTestId("return-date");
  await expect(note).toBeVisible({ timeout: 30_000 });
  await expect(note).toContainText(String(back.getUTCFullYear()));
  await expect(note).toContainText(german);
});

test("a wrong-person answer offers the person it names as a lead, and one click adds them to the campaign", async ({ page }) => {
  test.setTimeout(240_000);
  await signInAsOwner(page, "/inbox");
  const jane = `jane-${stamp}@notes-e2e.example`;
  const { convo, campaignId } = await answered(
    page,
    { email: `wrong-${stamp}@notes-e2e.example`, firstName: "Walt" },
    `I'm not the right person for this, please reach out to ${jane}.`,
  );
  const referral = convo.getByTestId("referral");
  await expect(referral).toContainText(jane, { timeout: 30_000 });
  await referral.getByRole("button", { name: "Add as a lead to this campaign" }).click();
  await expect(referral.getByTestId("referral-added")).toContainText("added as a lead and is in the campaign");
  const api = apiClient(page);
  const inCampaign = await ok(api.GET("/campaigns/{id}/leads", { params: { path: { id: campaignId } } }));
  expect(inCampaign.leads.map((l: { email: string }) => l.email)).toContain(jane);
});
