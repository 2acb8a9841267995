import { expect, test } from "@playwright/test";
import { apiClient, ok } from "./support/api";
import { E2E_STATS_SENDER, signInAsOwner } from "./support/session";

// Real SMTP and IMAP peers started by the global setup; the worker ticks every second.
const smtpPort = Number(process.env.E2E_SMTP_PORT);
const imapPort = Number(process.env.E2E_IMAP_PORT);
test.use({ baseURL: process.env.E2E_BASE_URL });

/**
 * The Analytics page after a campaign really sends: its cards show the overview's numbers, the sender's
 * row counts the two emails, the charts and the bounce log are drawn, and the CSV downloads carry the
 * same numbers. The sender is the campaign-stats spec's mailbox (the one the peers let send for real);
 * the campaign is paused at the end so that spec finds a quiet mailbox. No bounce is made here: a hard
 * bounce suppresses its address, and the refused recipient belongs to the campaign-stats spec.
 */
test("analytics: real numbers after a campaign sends — cards, mailbox and domain rows, charts, bounce log, CSVs", async ({ page }) => {
  expect(smtpPort && imapPort, "the global setup starts the mail peers").toBeTruthy();
  test.setTimeout(180_000);
  // Signed in on a page the first-run spec already opened; the Analytics page may still be compiling
  // on a first visit to a dev server, hence the longer wait for its heading.
  await signInAsOwner(page, "/leads");
  await page.goto("/analytics");
  await expect(page.getByRole("heading", { name: "Analytics" })).toBeVisible({ timeout: 90_000 });
  await expect(page.getByTestId("period-picker")).toBeVisible();

  const stamp = Date.now().toString(36);
  const api = apiClient(page);
  const imported = await ok(
    api.POST("/mailboxes/bulk-import", {
      body: {
        verify: true,
        mailboxes: [
          {
            email: E2E_STATS_SENDER.email,
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
  const before = (await ok(api.GET("/analytics/mailbox-stats"))).mailboxes.find((m) => m.id === mailboxId);

  const campaign = await ok(
    api.POST("/campaigns", {
      body: {
        name: `Analytics e2e ${stamp}`,
        sendWindowStartHour: 0,
        sendWindowEndHour: 24,
        sendDaysOfWeek: [0, 1, 2, 3, 4, 5, 6],
        minGapMinutes: 0,
      },
    }),
  );
  const path = { id: campaign.id };
  await ok(
    api.POST("/campaigns/{id}/steps", {
      params: { path },
      body: { stepOrder: 0, subject: "Hello {{firstName}}", bodyTemplate: "Hi {{firstName}}" },
    }),
  );
  await ok(api.PUT("/campaigns/{id}/mailboxes", { params: { path }, body: { mailboxIds: [mailboxId] } }));
  const { leadIds } = await ok(
    api.POST("/leads", {
      body: {
        leads: [
          { email: `ann-${stamp}@analytics-e2e.example`, firstName: "Ann" },
          { email: `bob-${stamp}@analytics-e2e.example`, firstName: "Bob" },
        ],
      },
    }),
  );
  await ok(api.POST("/campaigns/{id}/leads", { params: { path }, body: { leadIds } }));
  await ok(api.PATCH("/campaigns/{id}/status", { params: { path }, body: { status: "ACTIVE", confirm: true } }));

  // The worker sends both within seconds.
  await expect(async () => {
    const stats = await ok(api.GET("/campaigns/{id}/stats", { params: { path } }));
    expect(stats.sentCount).toBe(2);
  }).toPass({ timeout: 60_000, intervals: [1_000, 2_000] });
  await ok(api.PATCH("/campaigns/{id}/status", { params: { path }, body: { status: "PAUSED" } }));

  // The page shows what the API counts, for the same period (the default 30 days).
  await page.reload();
  const overview = await ok(api.GET("/analytics/overview"));
  expect(overview.totalSent).toBeGreaterThanOrEqual(2);
  await expect(page.getByTestId("card-sent-value")).toHaveText(overview.totalSent.toLocaleString("en-US"));
  await expect(page.getByTestId("card-sent")).toContainText(`emails to ${overview.leadsContacted.toLocaleString("en-US")} leads`);
  await expect(page.getByTestId("card-bounced-value")).toHaveText(overview.totalBounced.toLocaleString("en-US"));

  // The sender's row: two more emails to two more leads, active in the last 7 days (under its cap).
  const row = page.getByTestId(`mailbox-row-${E2E_STATS_SENDER.email}`);
  const cells = row.getByRole("cell");
  await expect(cells.nth(3)).toHaveText(String((before?.sent ?? 0) + 2));
  await expect(cells.nth(4)).toHaveText(String((before?.leadsContacted ?? 0) + 2));
  await expect(row).toContainText(/Low activity|Active/);
  await expect(row.getByRole("img", { name: /^Campaign emails sent per day, last 14 days: .*[1-9]/ })).toBeVisible();
  await expect(page.getByTestId("domain-row-stats-sender.test")).toBeVisible();

  // Charts (Recharts) and the bounce log.
  // The chart itself (its legend icons are small recharts-surface svgs too).
  await expect(page.getByTestId("chart-sent").getByRole("application")).toBeVisible();
  await expect(page.getByTestId("chart-replied").getByRole("application", { name: "Replies per day" })).toBeVisible();
  await expect(page.getByTestId("bounce-log")).toBeVisible();

  // Another period: the cards follow it.
  await page.getByRole("button", { name: "7 days" }).click();
  const week = await ok(api.GET("/analytics/overview", { params: { query: { days: 7 } } }));
  await expect(page.getByTestId("card-sent-value")).toHaveText(week.totalSent.toLocaleString("en-US"));

  // The downloads are CSV attachments with the same numbers.
  const href = await page.getByRole("link", { name: "Campaigns (CSV)" }).getAttribute("href");
  const csv = await page.request.get(href!);
  expect(csv.headers()["content-disposition"]).toBe('attachment; filename="campaigns.csv"');
  const lines = (await csv.text()).split("\r\n");
  const head = lines[0].split(",");
  const mine = lines.find((l) => l.startsWith(`${campaign.id},`))!.split(",");
  expect(mine[head.indexOf("sentCount")]).toBe("2");
  expect(mine[head.indexOf("leadsContacted")]).toBe("2");
  const daily = await page.request.get((await page.getByRole("link", { name: "Daily numbers (CSV)" }).getAttribute("href"))!);
  const total = (await daily.text()).trimEnd().split("\r\n").pop()!.split(",");
  expect(total[0]).toBe("total");
  expect(total[1]).toBe(String(week.totalSent));
});
