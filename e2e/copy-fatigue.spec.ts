import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import postgres from "postgres";
import { embeddedUrl, PASSWORD_FILE } from "../db/embedded";
import { apiClient, ok } from "./support/api";
import { signInAsOwner } from "./support/session";

test.use({ baseURL: process.env.E2E_BASE_URL });

/**
 * The campaign's sends and replies are history no dashboard flow can make in a spec's time (400 sends
 * per variant), so they are written straight into the app's database, as the send engine and the
 * inbox sync would have: per variant, 20 replies to the first 200 sends and 2 to the latest 200.
 */
async function seedHistory(campaignId: string, steps: { id: string }[], mailboxId: string, leadId: string) {
  const dir = process.env.E2E_DATA_DIR!;
  const password = readFileSync(path.join(dir, PASSWORD_FILE), "utf8").trim();
  const sql = postgres(embeddedUrl(Number(process.env.E2E_PG_PORT), password, "outreach"), { max: 1, onnotice: () => {} });
  try {
    const [{ workspace_id: workspaceId }] = await sql<
      { workspace_id: string }[]
    >`select workspace_id from campaigns where id = ${campaignId}`;
    for (const s of steps) {
      await sql`
        insert into emails (id, workspace_id, mailbox_id, lead_email, campaign_id, step_id, message_id, subject, status, sent_at)
        select ${s.id} || '-' || g, ${workspaceId}, ${mailboxId}, 'l' || g || '@fatigue-e2e.example', ${campaignId}, ${s.id},
          '<' || ${s.id} || g || '@e2e>', 'x', 'SENT', now() - interval '30 days' + g * interval '1 minute'
        from generate_series(1, 400) g`;
      await sql`
        insert into replies (id, workspace_id, mailbox_id, lead_id, campaign_id, email_id, message_id, received_at)
        select 'rep-' || ${s.id} || '-' || g, ${workspaceId}, ${mailboxId}, ${leadId}, ${campaignId}, ${s.id} || '-' || g,
          '<r' || ${s.id} || g || '@e2e>', now()
        from generate_series(1, 400) g where (g <= 200 and g % 10 = 0) or g in (250, 350)`;
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** The spec's mailbox points at a closed port: paused afterwards, so it raises no issue for the specs after this one. */
let created: string | undefined;
test.afterEach(async ({ page }) => {
  if (!created) return;
  await ok(apiClient(page).PATCH("/mailboxes/{id}", { params: { path: { id: created } }, body: { sendingEnabled: false } }));
});

test("copy fatigue: flags on the sequence editor, a rewrite filling the editor without saving, and dismiss", async ({ page }) => {
  await signInAsOwner(page, "/campaigns");
  const stamp = Date.now().toString(36);
  const api = apiClient(page);
  const imported = await ok(
    api.POST("/mailboxes/bulk-import", {
      body: {
        verify: false,
        mailboxes: [
          {
            email: `fatigue-${stamp}@fatigue-e2e.example`,
            smtpHost: "127.0.0.1",
            smtpPort: 1,
            smtpPassword: "x",
            imapHost: "127.0.0.1",
            imapPort: 1,
          },
        ],
      },
    }),
  );
  const mailboxId = imported.mailboxes[0].id;
  created = mailboxId;
  const campaign = await ok(api.POST("/campaigns", { body: { name: `Fatigue e2e ${stamp}` } }));
  const path = { id: campaign.id };
  const body = "Hi {{firstName}},\n\nWe help teams book demos.\n\nWorth a call next week?\n\nBest,\nSam";
  const put = await ok(
    api.PUT("/campaigns/{id}/steps", {
      params: { path },
      body: {
        steps: [
          { stepOrder: 0, variantGroup: "A", subject: "Quick question about demos at {{companyName}} this month", bodyTemplate: body },
          { stepOrder: 0, variantGroup: "B", subject: "Demos", bodyTemplate: "Hello {{firstName}}, variant B." },
        ],
      },
    }),
  );
  const { leadIds } = await ok(api.POST("/leads", { body: { leads: [{ email: `who-${stamp}@fatigue-e2e.example` }] } }));
  await seedHistory(campaign.id, put.steps, mailboxId, leadIds[0]);

  await page.goto(`/campaigns/${campaign.id}`);
  await page.getByRole("tab", { name: "Sequence" }).click();
  await expect(page.getByTestId("copy-fatigue-summary")).toContainText("2 flagged");
  const flagA = page.getByRole("status", { name: "Copy fatigue: Step 1 variant A" });
  await expect(flagA).toContainText("Reply rate fell from 10.0% over the first 200 sends to 1.0% over the latest 200");
  await expect(flagA).toContainText("first 200: 10.0% replies");

  // The rewrite fills variant A's editor; the step itself is unchanged until Save.
  await flagA.getByRole("button", { name: "Suggest a rewrite" }).click();
  const editorA = page.getByRole("region", { name: "Step 1 variant A" });
  await expect(editorA.getByLabel("Body (plain text)")).toHaveValue(
    "Hi {{firstName}},\n\nWorth a call next week?\n\nWe help teams book demos.\n\nBest,\nSam",
  );
  await expect(editorA.getByLabel("Subject")).toHaveValue("Quick question about demos at");
  await expect(editorA).toContainText("Unsaved changes");
  await expect(flagA).toBeHidden();
  const saved = await ok(api.GET("/campaigns/{id}/steps", { params: { path } }));
  expect(saved.steps.find((s) => s.variantGroup === "A")!.bodyTemplate).toBe(body);

  // Dismiss B: nothing flagged is left, and it stays dismissed on a new scan.
  await page.getByRole("status", { name: "Copy fatigue: Step 1 variant B" }).getByRole("button", { name: "Dismiss" }).click();
  await expect(page.getByRole("status", { name: /Copy fatigue: / })).toHaveCount(0);
  await page.getByRole("button", { name: "Scan copy now" }).click();
  await expect(page.getByTestId("copy-fatigue-summary")).toContainText("nothing flagged");
});
