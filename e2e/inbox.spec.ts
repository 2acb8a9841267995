import { expect, test } from "@playwright/test";
import { apiClient, ok } from "./support/api";
import { useSpecMailPeers } from "./support/mail-peers";
import { signInAsOwner } from "./support/session";

test.use({ baseURL: process.env.E2E_BASE_URL });

const stamp = Date.now().toString(36);
const MAILBOX = { email: `ivy-${stamp}@inbox-e2e.test`, password: "inboxpassword1234", senderName: "Ivy Inbox" };
const LEAD = { email: `kim-${stamp}@northwind-e2e.example`, firstName: "Kim", lastName: "Lee", companyName: "Northwind" };
const BOUNCING = `nobody-${stamp}@northwind-e2e.example`;

/** Mail peers of this spec alone, and a counted server for the reply's remote image; the campaign and mailbox are paused after the test. */
const mail = useSpecMailPeers(MAILBOX, { rejectRecipients: [BOUNCING] });

/** The lead's answer, as their mail client would write it: threaded to our email, text and HTML with a remote image. */
function leadReply(o: { subject: string; inReplyTo: string; imageUrl: string }): string {
  const boundary = `b-${stamp}`;
  return [
    `From: ${LEAD.firstName} ${LEAD.lastName} <${LEAD.email}>`,
    `To: ${MAILBOX.senderName} <${MAILBOX.email}>`,
    `Subject: Re: ${o.subject}`,
    `Message-ID: <reply-${stamp}@northwind-e2e.example>`,
    `In-Reply-To: ${o.inReplyTo}`,
    `References: ${o.inReplyTo}`,
    `Date: ${new Date().toUTCString()}`,
    "MIME-Version: 1.0",
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    "",
    `--${boundary}`,
    "Content-Type: text/plain; charset=utf-8",
    "Content-Transfer-Encoding: 8bit",
    "",
    "Sounds good — can we book a call next week?",
    "",
    `On Mon, ${MAILBOX.senderName} wrote:`,
    "> Hi Kim",
    "",
    `--${boundary}`,
    "Content-Type: text/html; charset=utf-8",
    "Content-Transfer-Encoding: 8bit",
    "",
    `<html><body><p>Sounds good — can we <b>book a call</b> next week?</p><img src="${o.imageUrl}" alt="logo" width="1" height="1"><script>document.title = "pwned"</script></body></html>`,
    "",
    `--${boundary}--`,
    "",
  ].join("\r\n");
}

test("a reply arrives over IMAP, shows classified in the unibox, and the answer reaches the lead's server", async ({ page }) => {
  test.setTimeout(240_000);
  await signInAsOwner(page, "/inbox");
  await expect(page.getByRole("heading", { name: "Inbox" })).toBeVisible();

  // A mailbox on this spec's peers, a lead, and a one-step campaign that mails the lead at once.
  const mailboxId = await mail.importMailbox(page);
  const client = apiClient(page);
  const [leadId] = (await ok(client.POST("/leads", { body: { leads: [LEAD] } }))).leadIds;
  const subject = `Quick idea for Northwind ${stamp}`;
  const campaign = await ok(
    client.POST("/campaigns", {
      body: {
        name: `Inbox e2e ${stamp}`,
        sendWindowStartHour: 0,
        sendWindowEndHour: 24,
        sendDaysOfWeek: [0, 1, 2, 3, 4, 5, 6],
        minGapMinutes: 0,
      },
    }),
  );
  const path = { id: campaign.id };
  mail.created.campaignId = campaign.id;
  const steps = [{ stepOrder: 0, subject, bodyTemplate: "Hi {{firstName}},\n\nWould a short call make sense?" }];
  await ok(client.PUT("/campaigns/{id}/steps", { params: { path }, body: { steps } }));
  await ok(client.PUT("/campaigns/{id}/mailboxes", { params: { path }, body: { mailboxIds: [mailboxId] } }));
  await ok(client.POST("/campaigns/{id}/leads", { params: { path }, body: { leadIds: [leadId] } }));
  await ok(client.PATCH("/campaigns/{id}/status", { params: { path }, body: { status: "ACTIVE", confirm: true } }));

  // The worker sends the campaign email to the SMTP peer.
  await expect
    .poll(() => mail.smtp.received.filter((m) => m.to.includes(LEAD.email)).length, {
      timeout: 60_000,
      message: "the campaign email reaches the SMTP peer",
    })
    .toBe(1);
  const campaignEmail = mail.smtp.received.find((m) => m.to.includes(LEAD.email))!;
  expect(campaignEmail.parsed.subject).toBe(subject);
  const campaignMessageId = campaignEmail.parsed.messageId!;
  expect(campaignMessageId).toMatch(/^<.+>$/);

  // The lead answers: the message lands in the mailbox's INBOX on the IMAP peer.
  const imageUrl = mail.imageUrl;
  await mail.deliver(leadReply({ subject, inReplyTo: campaignMessageId, imageUrl }));

  // The worker's inbox sync (IMAP_POLL_INTERVAL_S=2) picks it up and classifies it.
  const row = page.getByRole("list", { name: "Conversations" }).getByRole("listitem").filter({ hasText: subject });
  await expect(async () => {
    await page.reload();
    await expect(row).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 90_000, intervals: [1_000, 2_000] });
  await expect(row).toContainText("Kim Lee");
  await expect(row).toContainText("Northwind");
  await expect(row).toContainText("Interested");
  await expect(row).toContainText("1 unread");
  await expect(row).toContainText(`Inbox e2e ${stamp}`);
  await expect(row.getByTestId("conversation-snippet")).toHaveText("Sounds good — can we book a call next week?");
  await expect(page.getByTestId("inbox-unread")).toContainText("unread");

  // The Interested chip lists it; Not interested does not.
  await page
    .getByRole("group", { name: "Intent" })
    .getByRole("button", { name: /^Not interested/ })
    .click();
  await expect(row).toHaveCount(0);
  await page
    .getByRole("group", { name: "Intent" })
    .getByRole("button", { name: /^Interested/ })
    .click();
  await expect(row).toBeVisible();

  // Opening it: the campaign email and the reply, oldest first; the conversation is marked read.
  await row.getByRole("button", { name: /^Conversation with Kim Lee/ }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]lead=${leadId}`));
  const convo = page.getByRole("region", { name: "Conversation" });
  await expect(convo.getByTestId("conversation-title")).toHaveText("Kim Lee");
  await expect(convo.getByTestId("conversation-intent")).toHaveText("Interested");
  const messages = convo.getByRole("list", { name: "Messages" }).getByRole("article");
  await expect(messages).toHaveCount(2);
  await expect(messages.nth(0)).toHaveAccessibleName(`Campaign email: ${subject}`);
  await expect(messages.nth(0)).toContainText("Sent");
  await expect(messages.nth(1)).toHaveAccessibleName("Message from Kim Lee");
  await expect(row).not.toContainText("unread");

  // The HTML in its sandbox: no script ran, and the remote image waits for "Show images".
  const frame = convo.frameLocator('iframe[title^="Message from"]');
  await expect(frame.locator("body")).toContainText("Sounds good — can we book a call next week?");
  await expect(convo.locator('iframe[title^="Message from"]')).toHaveAttribute("sandbox", "");
  await expect(convo.getByTestId("blocked-images")).toContainText("1 remote image was not loaded");
  expect(await frame.locator("img").getAttribute("src")).toBeNull();
  expect(mail.pixelHits).toBe(0);
  await convo.getByRole("button", { name: "Show images" }).click();
  await expect(frame.locator("img")).toHaveAttribute("src", imageUrl);
  await expect.poll(() => mail.pixelHits, { message: "the image loads once asked for" }).toBeGreaterThan(0);
  expect(await frame.locator("script").count()).toBe(0);

  // Star it and set a reminder.
  await row.getByRole("button", { name: "Star conversation with Kim Lee" }).click();
  await expect(row.getByRole("button", { name: "Star conversation with Kim Lee" })).toHaveAttribute("aria-pressed", "true");
  await convo.getByRole("button", { name: "Remind me" }).click();
  const reminder = convo.getByRole("form", { name: "Reminder" });
  await reminder.getByRole("button", { name: "Tomorrow 9:00" }).click();
  await reminder.getByRole("button", { name: "Save reminder" }).click();
  await expect(reminder).toBeHidden();
  await expect(convo.getByRole("button", { name: "Change reminder" })).toBeVisible();
  await expect(row.getByTestId("reminder")).toBeVisible();

  // A refused recipient: the server's reason shows in the composer, and the failed reply can be retried.
  const reply = convo.getByRole("form", { name: "Reply" });
  await expect(reply.getByLabel("To", { exact: true })).toHaveValue(`Kim Lee <${LEAD.email}>`);
  await reply.getByLabel("To", { exact: true }).fill(BOUNCING);
  await reply.getByLabel("Message", { exact: true }).fill("Does this reach anyone?");
  await reply.getByRole("button", { name: "Send" }).click();
  await expect(reply.getByTestId("send-error")).toContainText("The mail server refused the reply (550)");
  await expect(reply.getByTestId("send-error")).toContainText("Recipient address rejected");
  const failed = messages.filter({ hasText: "Does this reach anyone?" });
  await expect(failed.getByTestId("reply-status")).toHaveText("Failed");
  await expect(failed.getByTestId("reply-error")).toContainText("Recipient address rejected");
  await expect(failed.getByRole("button", { name: "Retry" })).toBeVisible();

  // The answer: to the lead, threaded to their reply, received by the SMTP peer.
  await reply.getByLabel("To", { exact: true }).fill(`Kim Lee <${LEAD.email}>`);
  const answer = `Great, Kim — Thursday at 10:00 works for me. (${stamp})`;
  await reply.getByLabel("Message", { exact: true }).fill(answer);
  await reply.getByRole("button", { name: "Send" }).click();
  await expect(reply.getByTestId("send-notice")).toHaveText("Sent.");
  await expect(reply.getByLabel("Message", { exact: true })).toHaveValue("");
  const sent = messages.filter({ hasText: answer });
  await expect(sent.getByTestId("reply-status")).toHaveText("Sent");
  await expect
    .poll(() => mail.smtp.received.filter((m) => m.to.includes(LEAD.email) && m.parsed.text?.includes(answer)).length, {
      message: "the answer reaches the SMTP peer",
    })
    .toBe(1);
  const delivered = mail.smtp.received.find((m) => m.parsed.text?.includes(answer))!;
  expect(delivered.parsed.subject).toBe(`Re: ${subject}`);
  expect(delivered.parsed.inReplyTo).toBe(`<reply-${stamp}@northwind-e2e.example>`);
  expect(delivered.from).toBe(MAILBOX.email);
  await expect(row).toContainText("Answered");

  // In the background: shown as sending, then sent once the worker delivered it.
  const later = `One more thing, in the background. (${stamp})`;
  await reply.getByLabel("Message", { exact: true }).fill(later);
  await reply.getByLabel("Send in background").check();
  await reply.getByRole("button", { name: "Send" }).click();
  await expect(reply.getByTestId("send-notice")).toHaveText("Queued: it is being sent in the background.");
  await expect(messages.filter({ hasText: later }).getByTestId("reply-status")).toHaveText("Sent", { timeout: 30_000 });
  await expect.poll(() => mail.smtp.received.filter((m) => m.parsed.text?.includes(later)).length).toBe(1);
});
