import { expect, test } from "@playwright/test";
import { apiClient, ok } from "./support/api";
import { useSpecMailPeers } from "./support/mail-peers";
import { signInAsOwner } from "./support/session";

test.use({ baseURL: process.env.E2E_BASE_URL });

/**
 * The Unmatched view, Forward and the intent counts. Like inbox.spec.ts, this spec has mail peers of
 * its own (hoodiecrow shares one store between its users; what the global SMTP peer receives cannot be
 * read from here).
 */
const stamp = Date.now().toString(36);
const MAILBOX = { email: `uma-${stamp}@unmatched-e2e.test`, password: "unmatchedpassword1234", senderName: "Uma Unmatched" };
const LEAD = { email: `lou-${stamp}@client-e2e.example`, firstName: "Lou", lastName: "Park", companyName: "Client Co" };
const STRANGER = { name: "Stan Ger", email: `stan-${stamp}@nowhere-e2e.example` };
const COLLEAGUE = `pat-${stamp}@partner-e2e.example`;
const REFUSED = `gone-${stamp}@partner-e2e.example`;

/** With a counted server for the stranger's remote image; the mailbox is paused after the test. */
const mail = useSpecMailPeers(MAILBOX, { rejectRecipients: [REFUSED] });

/** Someone who is no lead writes out of the blue: text and HTML with a remote image, and a file. */
function strangerMessage(subject: string, imageUrl: string): string {
  const mixed = `m-${stamp}`;
  const alt = `a-${stamp}`;
  return [
    `From: ${STRANGER.name} <${STRANGER.email}>`,
    `To: ${MAILBOX.senderName} <${MAILBOX.email}>`,
    `Subject: ${subject}`,
    `Message-ID: <stranger-${stamp}@nowhere-e2e.example>`,
    `Date: ${new Date().toUTCString()}`,
    "MIME-Version: 1.0",
    `Content-Type: multipart/mixed; boundary="${mixed}"`,
    "",
    `--${mixed}`,
    `Content-Type: multipart/alternative; boundary="${alt}"`,
    "",
    `--${alt}`,
    "Content-Type: text/plain; charset=utf-8",
    "",
    "Hello, we run a newsletter for founders and would love to feature you.",
    "",
    `--${alt}`,
    "Content-Type: text/html; charset=utf-8",
    "",
    `<html><body><p>Hello, we run a <b>newsletter</b> for founders and would love to feature you.</p><img src="${imageUrl}" alt="logo" width="1" height="1"><script>document.title = "pwned"</script></body></html>`,
    "",
    `--${alt}--`,
    "",
    `--${mixed}`,
    'Content-Type: text/plain; name="media-kit.txt"',
    'Content-Disposition: attachment; filename="media-kit.txt"',
    "",
    "Audience: 40,000 founders.",
    "",
    `--${mixed}--`,
    "",
  ].join("\r\n");
}

/** The lead writes first (no campaign): matched by their address, a conversation of its own. */
function leadMessage(subject: string): string {
  return [
    `From: ${LEAD.firstName} ${LEAD.lastName} <${LEAD.email}>`,
    `To: ${MAILBOX.email}`,
    `Subject: ${subject}`,
    `Message-ID: <lead-${stamp}@client-e2e.example>`,
    `Date: ${new Date().toUTCString()}`,
    "Content-Type: text/plain; charset=utf-8",
    "",
    "Could you send me your pricing for 20 seats?",
    "",
  ].join("\r\n");
}

test("mail from a stranger shows under Unmatched and can be forwarded; a lead's message is forwarded from its conversation; the chips count in one call", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const requests: string[] = [];
  page.on("request", (r) => requests.push(r.url()));
  await signInAsOwner(page, "/inbox");
  await expect(page.getByRole("heading", { name: "Inbox" })).toBeVisible();

  await mail.importMailbox(page);
  await ok(apiClient(page).POST("/leads", { body: { leads: [LEAD] } }));

  const strangerSubject = `Feature in our newsletter? ${stamp}`;
  const leadSubject = `Pricing question ${stamp}`;
  const imageUrl = mail.imageUrl;
  await mail.deliver(strangerMessage(strangerSubject, imageUrl));
  await mail.deliver(leadMessage(leadSubject));
  // The lead's message stored before the views are compared: a sync cycle (every ~5 s) can fall between
  // the two deliveries, and the Conversations list only looks again after its 15 s poll. (GET /replies
  // lists the messages matched to a lead; the stranger's is waited for in the Unmatched view below.)
  await expect
    .poll(async () => (await ok(apiClient(page).GET("/replies", { params: { query: { q: stamp } } }))).replies.map((r) => r.subject), {
      message: "the sync stores the lead's message",
      timeout: 90_000,
      intervals: [1_000, 2_000],
    })
    .toEqual([leadSubject]);

  // The Unmatched view: the stranger's message, stored by now (the worker's sync job runs every 5 s, each mailbox due after 2 s). The view is in the address, so a reload keeps it.
  await page.getByRole("tab", { name: /^Unmatched/ }).click();
  await expect(page.getByRole("tab", { name: /^Unmatched/ })).toHaveAttribute("aria-selected", "true");
  await expect(page).toHaveURL(/[?&]view=unmatched/);
  const row = page.getByRole("list", { name: "Unmatched messages" }).getByTestId("unmatched-row").filter({ hasText: strangerSubject });
  await expect(async () => {
    await page.reload();
    await expect(row).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 90_000, intervals: [1_000, 2_000] });
  await expect(row).toContainText(STRANGER.name);
  await expect(row).toContainText(STRANGER.email);
  await expect(row.getByTestId("unmatched-snippet")).toHaveText("Hello, we run a newsletter for founders and would love to feature you.");
  await expect(row.getByTestId("unmatched-mailbox")).toHaveText(`to ${MAILBOX.email}`);
  await expect(row.locator("time")).toBeVisible();
  await expect(page.getByRole("tab", { name: /^Unmatched/ })).toContainText(/\d/);
  // The lead's message is a conversation, not unmatched.
  await expect(page.getByTestId("unmatched-row").filter({ hasText: leadSubject })).toHaveCount(0);

  // Opening it: headers, the HTML in its sandbox with the remote image held back, and the file.
  await row.getByRole("button").click();
  await expect(page).toHaveURL(/[?&]message=rep_/);
  const pane = page.getByRole("region", { name: "Unmatched message" });
  await expect(pane.getByTestId("unmatched-subject")).toHaveText(strangerSubject);
  await expect(pane.getByTestId("unmatched-from")).toHaveText(`${STRANGER.name} <${STRANGER.email}>`);
  await expect(pane).toContainText(`Received in ${MAILBOX.email}`);
  const frameEl = pane.locator('iframe[title^="Message from"]');
  await expect(frameEl).toHaveAttribute("sandbox", "");
  const frame = pane.frameLocator('iframe[title^="Message from"]');
  await expect(frame.locator("body")).toContainText("we run a newsletter for founders");
  await expect(pane.getByTestId("blocked-images")).toContainText("1 remote image was not loaded");
  expect(await frame.locator("img").getAttribute("src")).toBeNull();
  expect(await frame.locator("script").count()).toBe(0);
  expect(mail.pixelHits).toBe(0);
  await expect(pane.getByRole("list", { name: "Files" })).toContainText("media-kit.txt");

  // Forward: a typo is caught before anything is sent; a refused recipient shows the server's words; then it goes.
  await pane.getByRole("button", { name: "Forward" }).click();
  const dialog = page.getByRole("dialog", { name: "Forward message" });
  await expect(dialog).toContainText(`sent on as “Fwd:” from ${MAILBOX.email}, with its file`);
  await dialog.getByLabel("To", { exact: true }).fill("pat at partner");
  await dialog.getByRole("button", { name: "Forward" }).click();
  await expect(dialog).toContainText("Not an email address: “pat at partner”.");
  await dialog.getByLabel("To", { exact: true }).fill(REFUSED);
  await dialog.getByRole("button", { name: "Forward" }).click();
  await expect(dialog.getByTestId("forward-error")).toContainText("The mail server refused it (550)");
  await expect(dialog.getByTestId("forward-error")).toContainText("Recipient address rejected");
  const note = `Pat — worth a look? (${stamp})`;
  await dialog.getByLabel("To", { exact: true }).fill(`Pat <${COLLEAGUE}>`);
  await dialog.getByLabel(/^Note/).fill(note);
  await dialog.getByRole("button", { name: "Forward" }).click();
  await expect(dialog.getByTestId("forward-notice")).toHaveText(`Forwarded to ${COLLEAGUE}.`);
  await expect
    .poll(() => mail.smtp.received.filter((m) => m.to.includes(COLLEAGUE)).length, { message: "the forward reaches the SMTP peer" })
    .toBe(1);
  const fwd = mail.smtp.received.find((m) => m.to.includes(COLLEAGUE))!;
  expect(fwd.from).toBe(MAILBOX.email);
  expect(fwd.parsed.subject).toBe(`Fwd: ${strangerSubject}`);
  expect(fwd.parsed.text).toContain(note);
  expect(fwd.parsed.text).toContain("---------- Forwarded message ---------");
  expect(fwd.parsed.text).toContain(`From: ${STRANGER.name} <${STRANGER.email}>`);
  expect(fwd.parsed.text).toContain("we run a newsletter for founders");
  expect(fwd.parsed.attachments.map((a) => a.filename)).toEqual(["media-kit.txt"]);
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(dialog).toBeHidden();

  // Conversations: the lead's message, forwarded from the conversation.
  await page.getByRole("tab", { name: "Conversations" }).click();
  await expect(page).not.toHaveURL(/view=unmatched/);
  const convoRow = page.getByRole("list", { name: "Conversations" }).getByRole("listitem").filter({ hasText: leadSubject });
  await expect(convoRow).toBeVisible();
  // The chips' counts come from one /replies/intent-counts call, not a threads call per intent.
  const intents = page.getByRole("group", { name: "Intent" });
  await expect(intents.getByRole("button", { name: /^All \d+/ })).toBeVisible();
  expect(requests.some((u) => u.includes("/api/v1/replies/intent-counts"))).toBe(true);
  expect(requests.filter((u) => u.includes("/api/v1/replies/threads?") && /[?&]limit=1(&|$)/.test(u))).toEqual([]);

  await convoRow.getByRole("button", { name: /^Conversation with Lou Park/ }).click();
  const convo = page.getByRole("region", { name: "Conversation" });
  const message = convo.getByRole("article", { name: "Message from Lou Park" });
  await expect(message).toBeVisible();
  await message.getByRole("button", { name: "Forward" }).click();
  await expect(dialog).toContainText(leadSubject);
  await dialog.getByLabel("To", { exact: true }).fill(COLLEAGUE);
  await dialog.getByRole("button", { name: "Forward" }).click();
  await expect(dialog.getByTestId("forward-notice")).toHaveText(`Forwarded to ${COLLEAGUE}.`);
  await expect
    .poll(() => mail.smtp.received.filter((m) => m.to.includes(COLLEAGUE) && m.parsed.subject === `Fwd: ${leadSubject}`).length)
    .toBe(1);
  expect(mail.smtp.received.find((m) => m.parsed.subject === `Fwd: ${leadSubject}`)!.parsed.text).toContain(
    "Could you send me your pricing for 20 seats?",
  );
});
