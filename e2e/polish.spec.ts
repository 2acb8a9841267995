import { type Browser, expect, type Page, test } from "@playwright/test";
import { apiClient, ok } from "./support/api";
import { checkWidths } from "./support/layout";
import { useSpecMailPeers } from "./support/mail-peers";
import { OWNER, signInAsOwner } from "./support/session";
import { openNewWorkspace } from "./support/workspace";

test.use({ baseURL: process.env.E2E_BASE_URL });

const stamp = Date.now().toString(36);
const MAILBOX = { email: `pia-${stamp}@polish-e2e.test`, password: "polishpassword1234", senderName: "Pia Polish" };
const LEAD = { email: `lee-${stamp}@polish-lead.example`, firstName: "Lee", lastName: "Ito", companyName: "Initech" };

/** Mail peers of this spec alone (its campaign sends one email and gets one answer); paused after each test. */
const mail = useSpecMailPeers(MAILBOX, { rejectRecipients: [] });
let warmingMailboxId: string | undefined;

test.afterEach(async ({ page }) => {
  // Nothing of this spec keeps warming once its peers close.
  if (warmingMailboxId) await apiClient(page).POST("/mailboxes/{id}/stop-warmup", { params: { path: { id: warmingMailboxId } } });
  warmingMailboxId = undefined;
});

/** The lead's answer to the campaign email, threaded. */
function leadReply(subject: string, inReplyTo: string): string {
  return [
    `From: ${LEAD.firstName} ${LEAD.lastName} <${LEAD.email}>`,
    `To: ${MAILBOX.senderName} <${MAILBOX.email}>`,
    `Subject: Re: ${subject}`,
    `Message-ID: <reply-${stamp}@polish-lead.example>`,
    `In-Reply-To: ${inReplyTo}`,
    `Date: ${new Date().toUTCString()}`,
    "Content-Type: text/plain; charset=utf-8",
    "",
    "Sounds good, send me the details.",
    "",
  ].join("\r\n");
}

const fontOf = (page: Page, selector: string) =>
  page
    .frameLocator('iframe[title="HTML preview"]')
    .locator(selector)
    .evaluate((el) => getComputedStyle(el).fontFamily);

test("an unknown dashboard address answers 404 with the branded page and a way back", async ({ page }, testInfo) => {
  await signInAsOwner(page, "/campaigns");
  const res = await page.goto(`/campaigns-nowhere-${stamp}`);
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "This page does not exist" })).toBeVisible();
  await expect(page.getByTestId("status-page")).toContainText("404");
  await checkWidths(page, testInfo, "not-found");
  await page.getByRole("link", { name: "Back to the dashboard" }).click();
  await expect(page).toHaveURL(/\/leads$/);
});

test("the API reference shows its operations within a second and links the guides it mentions", async ({ page }) => {
  await signInAsOwner(page, "/docs/api");
  // The first visit compiles and warms the page (in dev mode that dominates); the second is measured.
  const summary = "Create or merge up to 1,000 leads by email";
  await expect(page.getByText(summary).first()).toBeVisible({ timeout: 60_000 });
  const started = Date.now();
  await page.goto("/docs/api", { waitUntil: "commit" });
  const firstByte = Date.now() - started;
  await expect(page.getByText(summary).first()).toBeVisible({ timeout: 5000 });
  const elapsed = Date.now() - started;
  expect(elapsed, `an operation's title took ${elapsed} ms to show (the answer began after ${firstByte} ms)`).toBeLessThan(1000);

  // A guide named in the reference is a link to the guide's page in the dashboard.
  const guide = page.getByRole("link", { name: "docs/onboarding.md" }).first();
  await expect(guide).toHaveAttribute("href", "/docs/guides/onboarding");
  // Scalar rewrites the address (its own router) when it mounts, which can undo a navigation begun a
  // moment before; the click waits until the viewer is in.
  await expect(page.getByTestId("api-reference")).toHaveAttribute("data-loaded", "true", { timeout: 30_000 });
  await page.getByRole("link", { name: "docs/mcp.md" }).first().click();
  await expect(page).toHaveURL(/\/docs\/guides\/mcp$/);
  await expect(page.getByTestId("doc-article").getByRole("heading", { level: 1 })).toBeVisible();

  // Inside the full viewer too, once it has loaded: the audit log's action field points at docs/teams.md.
  await page.goto("/docs/api#tag/onboarding/GET/onboarding");
  const viewer = page.getByTestId("api-reference");
  await expect(viewer).toHaveAttribute("data-loaded", "true", { timeout: 30_000 });
  await expect(page.getByTestId("operation-index")).toBeHidden();
  await expect(viewer.getByRole("link", { name: "docs/onboarding.md" }).first()).toHaveAttribute("href", "/docs/guides/onboarding");
});

/** Accepts an invitation in a browser of its own and creates the account; returns that browser's page. */
async function accept(browser: Browser, path: string, password: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const page = await context.newPage();
  await page.goto(path);
  await page.getByLabel("Choose a password").fill(password);
  await page.getByRole("button", { name: "Create account and accept" }).click();
  return page;
}

test("the sidebar shows the whole signed-in address, runs the page's full height, and becomes a menu at phone width", async ({
  page,
  browser,
}) => {
  await signInAsOwner(page, "/docs/api");
  const sidebar = page.getByRole("complementary", { name: "Sidebar" });
  await expect(sidebar.getByTestId("sidebar-user")).toContainText(OWNER.email);

  // A long page: the sidebar's column reaches its bottom, and the navigation stays in view.
  await expect(page.getByRole("heading", { name: "API reference" })).toBeVisible();
  // Measured together and polled: the reference's interactive view replaces the operation list as it
  // loads, so the page's height changes once while the test looks.
  await expect
    .poll(() =>
      page.evaluate(() => {
        window.scrollTo(0, document.documentElement.scrollHeight);
        const aside = document.querySelector("aside#sidebar-panel")!.getBoundingClientRect();
        const nav = document.querySelector('nav[aria-label="Main"]')!.getBoundingClientRect();
        const height = document.documentElement.scrollHeight;
        return {
          longPage: height > innerHeight * 2,
          sidebarReachesBottom: aside.bottom + window.scrollY >= height - 1,
          navInView: nav.top >= 0 && nav.top < innerHeight,
        };
      }),
    )
    .toEqual({ longPage: true, sidebarReachesBottom: true, navInView: true });

  // A member with a long address (invited to a workspace of this spec) sees all of it.
  await openNewWorkspace(page, `Polish sidebar ${stamp}`);
  const email = `a-rather-long-address-${stamp}@polish-sidebar-e2e.example`;
  const invited = await ok(apiClient(page).POST("/account/invitations", { body: { email, role: "member" } }));
  const member = await accept(browser, new URL(invited.url!).pathname, "member long password");
  await expect(member).toHaveURL(/\/leads$/);
  const user = member.getByRole("complementary", { name: "Sidebar" }).getByTestId("sidebar-user");
  await expect(user).toContainText(email);
  expect(await user.evaluate((el) => [...el.querySelectorAll("span")].every((s) => s.scrollWidth <= s.clientWidth))).toBe(true);
  await expect(user).toHaveAttribute("title", new RegExp(email.replace(/[.]/g, "\\.")));

  // At phone width the navigation is behind the menu button.
  await member.setViewportSize({ width: 390, height: 844 });
  const mainNav = member.getByRole("navigation", { name: "Main" });
  await expect(mainNav).toBeHidden();
  await member.getByRole("button", { name: "Open menu" }).click();
  await expect(mainNav).toBeVisible();
  await mainNav.getByRole("link", { name: "Campaigns" }).click();
  await expect(member).toHaveURL(/\/campaigns$/);
  await expect(mainNav).toBeHidden();
  await member.context().close();
});

// Last in the file: what it created in its own workspace is paused after it by the mail peers' hook,
// which would look for it in the next test's workspace otherwise.
test("a campaign: Launch is disabled with the reason while a blocker stands, warming mailboxes still ask to launch anyway; one stats strip; the preview in the email's fonts; styled file input; inbox and campaign pages at phone width", async ({
  page,
}, testInfo) => {
  test.setTimeout(300_000);
  await signInAsOwner(page, "/campaigns");
  await openNewWorkspace(page, `Polish ${stamp}`);
  const api = apiClient(page);
  const mailboxId = await mail.importMailbox(page);
  await ok(api.POST("/mailboxes/{id}/start-warmup", { params: { path: { id: mailboxId } }, body: {} }));
  warmingMailboxId = mailboxId;

  // A one-step campaign to one lead whose HTML body sets a font on one block and none on the rest.
  const subject = `Polish ${stamp}`;
  const [leadId] = (await ok(api.POST("/leads", { body: { leads: [LEAD] } }))).leadIds;
  const body = {
    name: `Polish ${stamp}`,
    sendWindowStartHour: 0,
    sendWindowEndHour: 24,
    sendDaysOfWeek: [0, 1, 2, 3, 4, 5, 6],
    minGapMinutes: 0,
  };
  const campaign = await ok(api.POST("/campaigns", { body }));
  mail.created.campaignId = campaign.id;
  const path = { id: campaign.id };
  const html = '<p id="plain">Hi {{firstName}},</p><div id="styled" style="font-family: Georgia, serif">a note in Georgia.</div>';
  await ok(
    api.PUT("/campaigns/{id}/steps", {
      params: { path },
      body: { steps: [{ stepOrder: 0, subject, bodyTemplate: "Hi {{firstName}}, a note.", bodyHtmlTemplate: html }] },
    }),
  );
  await ok(api.POST("/campaigns/{id}/leads", { params: { path }, body: { leadIds: [leadId] } }));

  // No mailbox in the pool: Launch is disabled, and the reason stands beside it.
  await page.goto(`/campaigns/${campaign.id}`);
  const launchButton = page.getByRole("button", { name: "Launch", exact: true });
  await expect(launchButton).toBeDisabled();
  await expect(page.getByTestId("launch-blockers")).toContainText("The mailbox pool is empty: add mailboxes to send from.");
  await expect(launchButton).toHaveAccessibleDescription(/The mailbox pool is empty/);

  // The Overview shows the numbers once: no second strip above the tabs.
  await expect(page.getByText("Emails sent", { exact: true })).toHaveCount(1);
  await expect(page.getByText("Leads contacted", { exact: true })).toHaveCount(1);
  await checkWidths(page, testInfo, "campaign-overview");

  // With the pool set the blocker is gone; the warming mailbox is a warning the server asks to confirm.
  await ok(api.PUT("/campaigns/{id}/mailboxes", { params: { path }, body: { mailboxIds: [mailboxId] } }));
  await ok(api.POST("/campaigns/{id}/leads/reassign", { params: { path }, body: { all: true } }));
  await page.reload();
  await expect(page.getByTestId("launch-blockers")).toHaveCount(0);
  await launchButton.click();
  const launch = page.getByRole("dialog", { name: `Launch Polish ${stamp}` });
  await expect(launch.getByRole("region", { name: "Warnings" })).toContainText("WARMING_MAILBOXES");
  await launch.getByRole("button", { name: "Launch", exact: true }).click();
  await expect(launch).toContainText("repeat with confirm: true");
  await launch.getByRole("button", { name: "Launch anyway" }).click();
  await expect(launch).toBeHidden();
  await expect(page.getByTestId("campaign-status")).toHaveText("Active");

  // The HTML preview: the email's own font where it sets one, a mail client's sans-serif elsewhere.
  await page.getByRole("tab", { name: "Sequence" }).click();
  await expect(page.frameLocator('iframe[title="HTML preview"]').locator("#styled")).toBeVisible();
  expect(await fontOf(page, "#styled")).toMatch(/^Georgia/);
  expect(await fontOf(page, "#plain")).toBe("Arial, Helvetica, sans-serif");

  // File inputs share one style: the chooser looks like the product's secondary button.
  const file = page.getByLabel(/^Attach a file to/).first();
  const chooser = await file.evaluate((el) => {
    const s = getComputedStyle(el, "::file-selector-button");
    return { border: `${s.borderTopWidth} ${s.borderTopStyle}`, radius: s.borderTopLeftRadius, padding: s.paddingLeft, cursor: s.cursor };
  });
  expect(chooser).toEqual({ border: "1px solid", radius: "6px", padding: "12px", cursor: "pointer" });
  await checkWidths(page, testInfo, "campaign-sequence");

  // The lead answers the email the campaign sent.
  const messageId = await mail.firstEmailTo(LEAD.email);
  await mail.deliver(leadReply(subject, messageId));

  // The inbox at phone width: the list first, then the thread, and back.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/inbox");
  const row = page.getByRole("button", { name: /^Conversation with Lee Ito/ });
  await expect(async () => {
    await page.reload();
    await expect(row).toBeVisible({ timeout: 3000 });
  }).toPass({ timeout: 90_000 });
  await expect(page.getByText("Pick a conversation to read it and reply.")).toBeHidden();
  await checkWidths(page, testInfo, "inbox-list");
  await page.setViewportSize({ width: 390, height: 844 });
  await row.click();
  const conversation = page.getByRole("region", { name: "Conversation" });
  await expect(conversation.getByTestId("conversation-title")).toHaveText("Lee Ito");
  await expect(row).toBeHidden();
  await checkWidths(page, testInfo, "inbox-thread");
  await page.setViewportSize({ width: 390, height: 844 });
  await conversation.getByRole("button", { name: "← Conversations" }).click();
  await expect(row).toBeVisible();

  // The campaigns list at both widths.
  await page.goto("/campaigns");
  await expect(page.getByRole("table", { name: "Campaigns" })).toContainText(`Polish ${stamp}`);
  await checkWidths(page, testInfo, "campaigns-list");
});
