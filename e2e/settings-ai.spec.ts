import { expect, request, test } from "@playwright/test";
import { startOpenAiPeer } from "../test/peers/openai-peer";
import { apiClient, ok } from "./support/api";
import { checkWidths } from "./support/layout";
import { useSpecMailPeers } from "./support/mail-peers";
import { signInAsOwner } from "./support/session";

// The app may reach the peer on 127.0.0.1 because the global setup starts it with OUTBOUND_ALLOW_HOSTS=127.0.0.1.
test.use({ baseURL: process.env.E2E_BASE_URL });

const stamp = Date.now().toString(36);
const MAILBOX = { email: `al-${stamp}@settings-ai-e2e.test`, password: "aisettingspassword1", senderName: "Al Settings" };
const LEAD = { email: `ren-${stamp}@fabrikam-e2e.example`, firstName: "Ren" };
const KEY = `sk-e2e-${stamp}`;
const mail = useSpecMailPeers(MAILBOX, { rejectRecipients: [] });

let peer: Awaited<ReturnType<typeof startOpenAiPeer>>;
test.beforeAll(async () => {
  test.setTimeout(300_000);
  peer = await startOpenAiPeer();
  // Dev mode compiles a page on its first request: asked once here (signed out: the layout redirects,
  // after compiling), so that signing in does not wait for it within the navigation's timeout.
  const warm = await request.newContext({ baseURL: process.env.E2E_BASE_URL });
  for (const path of ["/login", "/api/auth/csrf", "/api/auth/session", "/settings/ai", "/inbox"])
    await warm.get(path, { timeout: 120_000, maxRedirects: 0 });
  await warm.dispose();
});
test.afterAll(async () => {
  await peer.close();
});
// The suite shares one workspace: whatever this spec set is undone, pass or fail.
test.afterEach(async ({ page }) => {
  const api = apiClient(page);
  await api.DELETE("/settings/ai-provider");
  await api.PATCH("/ai-settings", { body: { aiClassificationEnabled: true } });
});

test("Settings → AI: a provider saved, tested and shown as the workspace's; a setting kept after a reload", async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  await signInAsOwner(page, "/settings/ai");
  await ok(apiClient(page).DELETE("/settings/ai-provider"));
  await page.reload();
  await expect(page.getByRole("heading", { name: "AI", exact: true })).toBeVisible({ timeout: 60_000 });
  const source = page.getByTestId("ai-provider-source");
  await expect(source).not.toHaveText("workspace");
  await checkWidths(page, testInfo, "settings-ai");

  const form = page.getByRole("form", { name: "AI provider" });
  await form.getByLabel("Base URL").fill(peer.baseUrl);
  await form.getByLabel("Model", { exact: true }).fill("e2e-chat");
  await form.getByLabel("API key").fill(KEY);
  await form.getByRole("button", { name: "Save" }).click();
  // Generous waits on each route's first answer: dev mode compiles it on its first request.
  await expect(form.getByText("Saved: this workspace's AI uses this endpoint now.")).toBeVisible({ timeout: 60_000 });
  await expect(source).toHaveText("workspace");
  await expect(form.getByLabel("API key")).toHaveValue("");
  await expect(form.getByLabel("API key")).toHaveAttribute("placeholder", "a key is set");

  await form.getByRole("button", { name: "Test" }).click();
  await expect(form.getByTestId("ai-provider-test-result")).toContainText("OK: e2e-chat answered in", { timeout: 60_000 });
  const chat = peer.chats().at(-1);
  expect(chat?.body).toMatchObject({ model: "e2e-chat", max_tokens: 1 });
  expect(chat?.headers.authorization).toBe(`Bearer ${KEY}`);
  await checkWidths(page, testInfo, "settings-ai-saved");

  // After a reload: the workspace's endpoint, its key set but never shown.
  await page.reload();
  await expect(source).toHaveText("workspace");
  await expect(form.getByLabel("Base URL")).toHaveValue(peer.baseUrl);
  await expect(form.getByText("A key is set.")).toBeVisible();
  expect(await page.content()).not.toContain(KEY);
  await expect(page.getByTestId("ai-credits")).toContainText(" left; they renew on ");

  // A switch is saved as it is flipped, and stays so after a reload.
  const classify = page.getByRole("switch", { name: "Classify replies with AI" });
  await expect(classify).toHaveAttribute("aria-checked", "true");
  await classify.click();
  await expect(classify).toHaveAttribute("aria-checked", "false", { timeout: 60_000 });
  await page.reload();
  await expect(classify).toHaveAttribute("aria-checked", "false");
  await classify.click();
  await expect(classify).toHaveAttribute("aria-checked", "true");

  // Remove: back to the installation's endpoint (none in this suite).
  await form.getByRole("button", { name: "Remove…" }).click();
  await form.getByRole("button", { name: "Yes, remove it" }).click();
  await expect(form.getByText("Removed: this workspace's own endpoint is gone.")).toBeVisible({ timeout: 60_000 });
  await expect(source).not.toHaveText("workspace");
});

test("without an AI provider, the inbox's draft is labelled a template draft and answers what the lead wrote", async ({ page }) => {
  test.setTimeout(240_000);
  await signInAsOwner(page, "/inbox");
  const api = apiClient(page);
  await ok(api.DELETE("/settings/ai-provider"));
  const provider = await ok(api.GET("/settings/ai-provider"));
  expect(provider.source, "the app under test runs without AI_BASE_URL").toBe("none");
  await ok(api.PATCH("/ai-settings", { body: { aiDraftEnabled: true } }));

  const mailboxId = await mail.importMailbox(page);
  const subject = `Templates ${stamp}`;
  const { leadId, launch } = await mail.oneStepCampaign(page, {
    mailboxId,
    lead: LEAD,
    name: `Settings AI e2e ${stamp}`,
    subject,
    body: "Hi {{firstName}}, a short idea.",
  });
  await launch();
  const inReplyTo = await mail.firstEmailTo(LEAD.email);
  await mail.deliver(
    [
      `From: Ren <${LEAD.email}>`,
      `To: ${MAILBOX.senderName} <${MAILBOX.email}>`,
      `Subject: Re: ${subject}`,
      `Message-ID: <ren-${stamp}@fabrikam-e2e.example>`,
      `In-Reply-To: ${inReplyTo}`,
      `References: ${inReplyTo}`,
      `Date: ${new Date().toUTCString()}`,
      "Content-Type: text/plain; charset=utf-8",
      "",
      "Tuesday at 3pm works for me. Do you integrate with HubSpot?",
      "",
    ].join("\r\n"),
  );
  await expect
    .poll(
      async () => {
        const thread = await api.GET("/replies/thread/{leadId}", { params: { path: { leadId } } });
        return thread.data?.messages.filter((m) => m.direction === "inbound").length ?? 0;
      },
      { timeout: 90_000, message: "the lead's reply is synced into the inbox" },
    )
    .toBe(1);

  await page.goto(`/inbox?lead=${leadId}`);
  const composer = page.getByRole("form", { name: "Reply" });
  await composer.getByRole("button", { name: "Draft reply" }).click({ timeout: 60_000 });
  const label = composer.getByTestId("draft-label");
  await expect(label).toContainText("Template draft — no AI provider configured", { timeout: 60_000 });
  await expect(label.getByRole("link", { name: "Set one in Settings → AI" })).toHaveAttribute("href", "/settings/ai");
  const message = composer.getByLabel("Message");
  await expect(message).toHaveValue(/Tuesday at 3pm works for me — I'll send a calendar invite/);
  await expect(message).toHaveValue(/> Do you integrate with HubSpot\?/);
});
