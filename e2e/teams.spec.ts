import { createHmac } from "node:crypto";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { apiClient } from "./support/api";
import { useSpecMailPeers } from "./support/mail-peers";
import { OWNER, signInAsOwner } from "./support/session";

test.use({ baseURL: process.env.E2E_BASE_URL });

const stamp = Date.now().toString(36);
const ADMIN = { email: `ada-${stamp}@team-e2e.example`, name: "Ada Admin", password: "ada admin password" };
const CLIENT = { email: `cleo-${stamp}@client-e2e.example`, name: "Cleo Client", password: "cleo client password" };
const MAILBOX = { email: `tess-${stamp}@team-e2e.test`, password: "teampassword1234", senderName: "Tess Team" };
const LEAD = { email: `lou-${stamp}@acme-e2e.example`, firstName: "Lou", lastName: "Reed", companyName: "Acme" };

const mail = useSpecMailPeers(MAILBOX, { rejectRecipients: [] });

/**
 * RFC 6238 (HMAC-SHA-1, 30 s, 6 digits) written here on its own, as an authenticator app computes it:
 * the product's implementation is not what checks itself.
 */
function totp(base32: string, at = Date.now()): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const ch of base32.replace(/[\s=]/g, "").toUpperCase()) bits += alphabet.indexOf(ch).toString(2).padStart(5, "0");
  const key = Buffer.from(bits.match(/.{8}/g)!.map((b) => Number.parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / 30)));
  const h = createHmac("sha1", key).update(counter).digest();
  const o = h[h.length - 1] & 15;
  return String((h.readUInt32BE(o) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

/** Invites `email` from Settings → Members and returns the link's path (shown once: no mailer in e2e). */
async function invite(page: Page, email: string, role: RegExp): Promise<string> {
  await page.getByRole("button", { name: "Invite", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Invite to this workspace" });
  await dialog.getByLabel("Email").fill(email);
  await dialog.getByRole("radio", { name: role }).check();
  await dialog.getByRole("button", { name: "Send invitation" }).click();
  const link = await dialog.getByLabel("Invitation link").inputValue();
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("table", { name: "Pending invitations" })).toContainText(email);
  return new URL(link).pathname;
}

/** Opens the invitation in a browser of its own and creates the account; returns that browser's page. */
async function accept(browser: Browser, path: string, who: { name: string; password: string }): Promise<Page> {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const page = await context.newPage();
  await page.goto(path);
  await page.getByLabel("Your name (optional)").fill(who.name);
  await page.getByLabel("Choose a password").fill(who.password);
  await page.getByRole("button", { name: "Create account and accept" }).click();
  return page;
}

/** The lead's answer to our campaign email, threaded, as their mail client writes it. */
function leadReply(subject: string, inReplyTo: string): string {
  return [
    `From: ${LEAD.firstName} ${LEAD.lastName} <${LEAD.email}>`,
    `To: ${MAILBOX.senderName} <${MAILBOX.email}>`,
    `Subject: Re: ${subject}`,
    `Message-ID: <reply-${stamp}@acme-e2e.example>`,
    `In-Reply-To: ${inReplyTo}`,
    `Date: ${new Date().toUTCString()}`,
    "Content-Type: text/plain; charset=utf-8",
    "",
    "Interesting — who on your team can walk me through pricing?",
    "",
  ].join("\r\n");
}

/** A conversation in the inbox: a one-step campaign mails the lead, and the lead answers over IMAP. */
async function conversation(page: Page): Promise<{ leadId: string; subject: string }> {
  const mailboxId = await mail.importMailbox(page);
  const subject = `Pricing for Acme ${stamp}`;
  const { leadId, launch } = await mail.oneStepCampaign(page, {
    mailboxId,
    lead: LEAD,
    name: `Team e2e ${stamp}`,
    subject,
    body: "Hi {{firstName}}",
  });
  await launch();
  await mail.deliver(leadReply(subject, await mail.firstEmailTo(LEAD.email)));
  return { leadId, subject };
}

test("an owner invites an admin and a client; the client sees a client's seat; the admin signs in with two-factor and answers the conversation assigned to them; the audit log shows it", async ({
  page,
  browser,
}) => {
  test.setTimeout(300_000);
  await signInAsOwner(page, "/settings/members");
  await expect(page.getByRole("table", { name: "Members" })).toContainText(OWNER.email);
  const adminLink = await invite(page, ADMIN.email, /^Admin/);
  const clientLink = await invite(page, CLIENT.email, /^Client/);

  // The admin joins and turns on two-factor sign-in with an authenticator (the TOTP above).
  const admin = await accept(browser, adminLink, ADMIN);
  await expect(admin).toHaveURL(/\/leads$/);
  await admin.goto("/settings/security");
  await admin.getByRole("button", { name: "Set up two-factor sign-in" }).click();
  const secret = (await admin.getByTestId("two-factor-secret").textContent())!.replace(/\s/g, "");
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await admin.getByLabel("Code from the app").fill(totp(secret));
  await admin.getByRole("button", { name: "Turn on" }).click();
  await expect(admin.getByRole("list", { name: "Recovery codes" }).getByRole("listitem")).toHaveCount(10);
  await admin.getByRole("button", { name: "I have saved them" }).click();

  // Signing in again asks for the code; the next step's code (each is accepted once) lets the admin in.
  await admin.getByRole("complementary").getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(admin).toHaveURL(/\/login/);
  await admin.getByLabel("Email", { exact: true }).fill(ADMIN.email);
  await admin.getByLabel("Password", { exact: true }).fill(ADMIN.password);
  await admin.getByRole("button", { name: "Sign in" }).click();
  await admin.getByLabel("Authentication code").fill(totp(secret, Date.now() + 30_000));
  await admin.getByRole("button", { name: "Sign in" }).click();
  await expect(admin).toHaveURL(/\/leads$/);

  // The client lands on Campaigns and sees only a client's areas, with nothing to change.
  const client = await accept(browser, clientLink, CLIENT);
  await expect(client).toHaveURL(/\/campaigns$/);
  const nav = client.getByRole("navigation", { name: "Main" }).getByRole("link");
  await expect(nav).toHaveText(["Campaigns", "Inbox", "Analytics", "Settings"]);
  await expect(client.getByRole("heading", { name: "Campaigns" })).toBeVisible();
  await expect(client.getByRole("button", { name: "New campaign" })).toHaveCount(0);
  await client.goto("/leads");
  await expect(client.getByTestId("role-gate")).toContainText("Leads is not part of your seat");
  await client.goto("/settings");
  await expect(client).toHaveURL(/\/settings\/profile$/);
  await expect(client.getByRole("navigation", { name: "Settings" }).getByRole("link")).toHaveText(["Profile", "Security"]);
  const refused = await apiClient(client).POST("/campaigns", { body: { name: "not mine to make" } });
  expect(refused.response.status).toBe(403);

  // A conversation: the owner assigns it to the admin.
  const { leadId, subject } = await conversation(page);
  await expect(async () => {
    await page.goto(`/inbox?lead=${leadId}`);
    await expect(page.getByRole("region", { name: "Conversation" }).getByText("who on your team can walk me through pricing")).toBeVisible({
      timeout: 3_000,
    });
  }).toPass({ timeout: 90_000, intervals: [1_000, 2_000] });
  await page.getByRole("region", { name: "Conversation" }).getByLabel("Assignee").selectOption({ label: ADMIN.name });
  await expect(page.getByRole("list", { name: "Conversations" }).getByRole("listitem").filter({ hasText: subject })).toContainText(
    `Assigned to ${ADMIN.name}`,
  );

  // The admin finds it under "Assigned to me" and answers it.
  await admin.goto("/inbox");
  await admin
    .getByRole("group", { name: "Assignee" })
    .getByRole("button", { name: /^Assigned to me/ })
    .click();
  const row = admin.getByRole("list", { name: "Conversations" }).getByRole("listitem").filter({ hasText: subject });
  await row.getByRole("button", { name: /^Conversation with Lou Reed/ }).click();
  const reply = admin.getByRole("region", { name: "Conversation" }).getByRole("form", { name: "Reply" });
  const answer = `Happy to, Lou — I will send times shortly. (${stamp})`;
  await reply.getByLabel("Message", { exact: true }).fill(answer);
  await reply.getByRole("button", { name: "Send" }).click();
  await expect(reply.getByTestId("send-notice")).toHaveText("Sent.");
  await expect(admin.getByRole("article", { name: `Reply sent by ${ADMIN.name} (you)` })).toContainText(answer);
  await expect.poll(() => mail.smtp.received.filter((m) => m.parsed.text?.includes(answer)).length).toBe(1);

  // The client reads the conversation but has no way to answer it.
  await client.goto(`/inbox?lead=${leadId}`);
  const seen = client.getByRole("region", { name: "Conversation" });
  await expect(seen.getByRole("article", { name: `Reply sent by ${ADMIN.name}` })).toContainText(answer);
  await expect(seen.getByRole("form", { name: "Reply" })).toHaveCount(0);

  // The owner's audit log shows all of it.
  await page.goto("/settings/audit-log");
  const log = page.getByRole("table", { name: "Audit log" });
  for (const text of ["Member invited", "Member joined", "Two-factor sign-in turned on", "Signed in", ADMIN.email, CLIENT.email]) {
    await expect(log).toContainText(text);
  }
});
