import { expect, test, type Page } from "@playwright/test";
import { apiClient, ok } from "./support/api";
import { E2E_REFUSED_RECIPIENT, E2E_STATS_SENDER, signInAsOwner } from "./support/session";

// Real SMTP and IMAP peers started by the global setup (plain text on 127.0.0.1); the SMTP peer
// refuses E2E_REFUSED_RECIPIENT with 550 5.1.1, and the worker ticks every second.
const smtpPort = Number(process.env.E2E_SMTP_PORT);
const imapPort = Number(process.env.E2E_IMAP_PORT);
test.use({ baseURL: process.env.E2E_BASE_URL });

/** A UTC day as the dashboard labels it ("Mon, Jun 2"), in the browser's locale. */
function dayLabel(page: Page, offsetDays: number): Promise<string> {
  return page.evaluate(
    (d) =>
      new Date(Date.now() + d * 86_400_000).toLocaleDateString(undefined, {
        timeZone: "UTC",
        month: "short",
        day: "numeric",
        weekday: "short",
      }),
    offsetDays,
  );
}

test("campaign stats: the Overview before and after real sends, the Schedule forecast, and the Activity log with a bounce's SMTP reason", async ({
  page,
}) => {
  expect(smtpPort && imapPort, "the global setup starts the mail peers").toBeTruthy();
  test.setTimeout(180_000);
  await signInAsOwner(page, "/campaigns");
  const stamp = Date.now().toString(36);
  const ada = `ada-${stamp}@stats-e2e.example`;
  const name = `Stats e2e ${stamp}`;

  // A pool mailbox of its own on the peers (verify: the import tries the real logins first).
  // Set-up that is not what this spec is about goes through the typed client, with the page's own session.
  const api = apiClient(page);
  const imported = await ok(
    api.POST("/mailboxes/bulk-import", {
      body: {
        verify: true,
        mailboxes: [
          {
            email: E2E_STATS_SENDER.email,
            senderName: "Stan Stats",
            smtpHost: "127.0.0.1",
            smtpPort,
            smtpSecurity: "NONE",
            smtpPassword: E2E_STATS_SENDER.password,
            imapHost: "127.0.0.1",
            imapPort,
            imapSecurity: "NONE",
          },
        ],
      },
    }),
  );
  expect(imported.failed).toEqual([]);
  const mailboxId = imported.mailboxes.find((m) => m.email === E2E_STATS_SENDER.email)!.id;

  // Every day, every hour, no pacing gap, no tracking: the worker sends as soon as it is launched.
  const campaign = await ok(
    api.POST("/campaigns", {
      body: {
        name,
        sendWindowStartHour: 0,
        sendWindowEndHour: 24,
        sendDaysOfWeek: [0, 1, 2, 3, 4, 5, 6],
        minGapMinutes: 0,
        trackOpens: false,
        trackClicks: false,
      },
    }),
  );
  const path = { id: campaign.id };
  await ok(
    api.POST("/campaigns/{id}/steps", {
      params: { path },
      body: { stepOrder: 0, subject: "Numbers, {{firstName}}", bodyTemplate: "Hi {{firstName}}, a quick question." },
    }),
  );
  await ok(api.PUT("/campaigns/{id}/mailboxes", { params: { path }, body: { mailboxIds: [mailboxId] } }));
  const { leadIds } = await ok(
    api.POST("/leads", {
      body: {
        leads: [
          { email: ada, firstName: "Ada" },
          { email: E2E_REFUSED_RECIPIENT, firstName: "Nobody" },
        ],
      },
    }),
  );
  expect(leadIds).toHaveLength(2);
  await ok(api.POST("/campaigns/{id}/leads", { params: { path }, body: { leadIds } }));

  // The page opens on the Overview: nothing sent, opens and clicks not tracked (rather than 0%).
  await page.goto(`/campaigns/${campaign.id}`);
  await expect(page.getByRole("heading", { name })).toBeVisible();
  await expect(page.getByRole("tab", { name: "Overview" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByTestId("stat-sent").getByTestId("stat-value")).toHaveText("0");
  await expect(page.getByTestId("stat-contacted").getByTestId("stat-value")).toHaveText("0");
  await expect(page.getByTestId("stat-opened").getByTestId("stat-value")).toHaveText("Not tracked");
  await expect(page.getByTestId("stat-clicked").getByTestId("stat-value")).toHaveText("Not tracked");
  await expect(page.getByTestId("stat-bounced").getByTestId("stat-value")).toHaveText("—");
  await expect(page.getByTestId("daily-summary")).toContainText("Nothing sent in the last 30 days.");
  await expect(page.getByTestId("daily-summary")).toContainText("Opens and clicks are not tracked");
  await expect(page.getByRole("img", { name: "Emails per day, last 30 days" })).toBeVisible();
  const variants = page.getByRole("table", { name: "Results per step and variant" });
  await expect(variants.getByTestId("variant-row")).toHaveCount(1);
  await expect(variants.getByTestId("variant-row")).toContainText("Step 1");

  // The Schedule: both first emails forecast for the first day the window allows (today here: any
  // hour, every day), from the pool mailbox, with the note that the campaign is still a draft.
  await page.getByRole("tab", { name: "Schedule" }).click();
  await expect(page).toHaveURL(/\?tab=schedule$/);
  const today = await dayLabel(page, 0);
  const tomorrow = await dayLabel(page, 1); // the forecast starts at "now": only a run at UTC midnight sees tomorrow
  await expect(page.getByTestId("forecast-summary")).toHaveText(
    new RegExp(`^2 first emails and 0 follow-ups in the next 7 days; the first on (${today}|${tomorrow})\\.$`),
  );
  await expect(page.getByTestId("schedule-notes")).toContainText("The campaign is DRAFT");
  await expect(page.getByRole("img", { name: "Forecast sends per day, next 7 days" })).toBeVisible();
  const perMailbox = page
    .getByRole("table", { name: "Forecast per mailbox" })
    .getByRole("row", { name: new RegExp(E2E_STATS_SENDER.email) });
  await expect(perMailbox).toBeVisible();
  await expect(perMailbox.getByRole("cell").nth(1)).toHaveText(/^[02] \/ \d+$/);
  const upcoming = page.getByRole("table", { name: "Upcoming sends" });
  for (const email of [ada, E2E_REFUSED_RECIPIENT]) {
    const row = upcoming.getByRole("row", { name: new RegExp(email) });
    await expect(row).toContainText("Step 1");
    await expect(row).toContainText(E2E_STATS_SENDER.email);
  }

  // The Activity: an empty log.
  await page.getByRole("tab", { name: "Activity" }).click();
  await expect(page.getByTestId("activity-empty")).toHaveText("No emails sent yet.");

  // Launch; the worker sends both within seconds: one accepted, one refused by the server.
  await page.getByRole("button", { name: "Launch", exact: true }).click();
  const launch = page.getByRole("dialog", { name: `Launch ${name}` });
  await expect(launch.getByRole("region", { name: "Blockers" })).toHaveCount(0);
  await launch.getByRole("button", { name: "Launch", exact: true }).click();
  // The server may still ask for a confirmation (a warming mailbox): then launch anyway.
  const anyway = launch.getByRole("button", { name: "Launch anyway" });
  await expect(anyway.or(page.getByTestId("campaign-notice"))).toBeVisible();
  if (await anyway.isVisible()) await anyway.click();
  await expect(page.getByTestId("campaign-status")).toHaveText("Active");

  const log = page.getByRole("table", { name: "Campaign activity" });
  await expect(async () => {
    await page.getByRole("button", { name: "Refresh" }).click();
    await expect(log.getByTestId("activity-row")).toHaveCount(2, { timeout: 2_000 });
    await expect(log.locator('[data-testid="activity-row"][data-status="SENDING"]')).toHaveCount(0, { timeout: 1_000 });
  }).toPass({ timeout: 60_000, intervals: [1_000, 2_000] });
  const sent = log.getByRole("row", { name: new RegExp(ada) });
  await expect(sent).toHaveAttribute("data-status", "SENT");
  await expect(sent).toContainText("Sent");
  await expect(sent).toContainText(E2E_STATS_SENDER.email);
  await expect(sent).toContainText("Numbers, Ada");
  await expect(sent).toContainText("not tracked");
  const bounced = log.getByRole("row", { name: new RegExp(E2E_REFUSED_RECIPIENT) });
  await expect(bounced).toHaveAttribute("data-status", "BOUNCED");
  await expect(bounced).toContainText("Hard bounce");
  await expect(bounced.getByTestId("smtp-reason")).toContainText("SMTP");
  await expect(bounced.getByTestId("smtp-reason")).toContainText("User unknown");

  // The status filter asks the server for one status only.
  await page.getByLabel("Status", { exact: true }).selectOption("BOUNCED");
  await expect(log.getByTestId("activity-row")).toHaveCount(1);
  await expect(log.getByTestId("activity-row")).toContainText(E2E_REFUSED_RECIPIENT);
  await page.getByLabel("Status", { exact: true }).selectOption("FAILED");
  await expect(page.getByTestId("activity-empty")).toHaveText("No failed emails.");

  // The Overview counts them: 2 sent to 2 leads, 1 bounced; still no open rate.
  await page.getByRole("tab", { name: "Overview" }).click();
  await expect(page.getByTestId("stat-sent").getByTestId("stat-value")).toHaveText("2");
  await expect(page.getByTestId("stat-contacted").getByTestId("stat-value")).toHaveText("2");
  await expect(page.getByTestId("stat-bounced").getByTestId("stat-value")).toHaveText("50.0%");
  await expect(page.getByTestId("stat-bounced").getByTestId("stat-detail")).toHaveText("1 email bounced");
  await expect(page.getByTestId("stat-opened").getByTestId("stat-value")).toHaveText("Not tracked");
  await expect(page.getByTestId("daily-summary")).toContainText("2 emails sent in the last 30 days.");
  await expect(variants.getByTestId("variant-row")).toContainText("50.0% (1)");
  await expect(page.getByTestId("stats-freshness")).toContainText("Live: updated every 15 s");

  // Nothing is left to send; paused so the rest of the suite runs on a quiet instance.
  await page.getByRole("button", { name: "Pause" }).click();
  await expect(page.getByTestId("campaign-status")).toHaveText("Paused");
});
