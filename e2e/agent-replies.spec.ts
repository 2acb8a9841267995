import { expect, test } from "@playwright/test";
import { apiClient, ok } from "./support/api";
import { useSpecMailPeers } from "./support/mail-peers";
import { signInAsOwner } from "./support/session";

test.use({ baseURL: process.env.E2E_BASE_URL });

const stamp = Date.now().toString(36);
const MAILBOX = { email: `ada-${stamp}@agent-e2e.test`, password: "agentpassword1234", senderName: "Ada Agent" };
const LEAD = { email: `lou-${stamp}@contoso-e2e.example`, firstName: "Lou" };
const PASSAGE = "The Team plan costs 49 euros per seat per month, billed annually.";
const mail = useSpecMailPeers(MAILBOX, { rejectRecipients: [] });

function question(inReplyTo: string, subject: string): string {
  return [
    `From: Lou <${LEAD.email}>`,
    `To: ${MAILBOX.senderName} <${MAILBOX.email}>`,
    `Subject: Re: ${subject}`,
    `Message-ID: <q-${stamp}@contoso-e2e.example>`,
    `In-Reply-To: ${inReplyTo}`,
    `References: ${inReplyTo}`,
    `Date: ${new Date().toUTCString()}`,
    "Content-Type: text/plain; charset=utf-8",
    "",
    "Thanks. How much does the Team plan cost per seat?",
    "",
  ].join("\r\n");
}

test("a reply agent answers a lead's question over IMAP/SMTP, and its activity links to the conversation", async ({ page }) => {
  test.setTimeout(240_000);
  await signInAsOwner(page, "/reply-agents");
  const mailboxId = await mail.importMailbox(page);
  const api = apiClient(page);
  const subject = `Pricing idea ${stamp}`;
  const { campaignId, leadId, launch } = await mail.oneStepCampaign(page, {
    mailboxId,
    lead: LEAD,
    name: `Agent e2e ${stamp}`,
    subject,
    body: "Hi {{firstName}}, an idea.",
  });
  const agent = await ok(
    api.POST("/reply-agents", {
      body: { name: `Helper ${stamp}`, companyName: "Acme", tone: "FRIENDLY", autonomousReplies: true, campaignIds: [campaignId] },
    }),
  );
  const doc = `Acme pricing.\n\n${PASSAGE} Every plan has a 14-day free trial.\n\nSecurity: data stays in Frankfurt.`;
  await ok(
    api.POST("/reply-agents/{id}/documents", {
      params: { path: { id: agent.id } },
      body: { filename: "pricing.txt", mimeType: "text/plain", contentBase64: Buffer.from(doc).toString("base64") },
    }),
  );
  await launch();
  const campaignMessageId = await mail.firstEmailTo(LEAD.email);

  // The lead asks; the sync ingests and classifies it, the agent answers from the trained document, threaded.
  await mail.deliver(question(campaignMessageId, subject));
  await expect
    .poll(() => mail.smtp.received.filter((m) => m.to.includes(LEAD.email)).length, {
      timeout: 90_000,
      message: "the agent's answer reaches the lead's server",
    })
    .toBe(2);
  const answer = mail.smtp.received.filter((m) => m.to.includes(LEAD.email))[1];
  expect(answer.parsed.inReplyTo).toBe(`<q-${stamp}@contoso-e2e.example>`);
  expect(answer.parsed.text).toContain(PASSAGE);

  // The agent page lists it, linked to the conversation, where it shows as sent by an agent.
  await page.goto(`/reply-agents/${agent.id}`);
  const activity = page.getByRole("region", { name: "Agent activity" });
  await expect(activity).toContainText("Sent");
  await expect(activity).toContainText(PASSAGE);
  await activity.getByRole("link", { name: LEAD.email }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]lead=${leadId}`));
  const reply = page.getByRole("region", { name: "Conversation" }).getByRole("article", { name: "Reply sent by an agent" });
  await expect(reply).toContainText(PASSAGE);
});
