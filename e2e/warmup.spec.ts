import { expect, test } from "@playwright/test";
import { apiClient, ok } from "./support/api";
import { useSpecMailPeers } from "./support/mail-peers";
import { signInAsOwner } from "./support/session";

test.use({ baseURL: process.env.E2E_BASE_URL });

const stamp = Date.now().toString(36);
const MAILBOX = { email: `wanda-${stamp}@warmup-e2e.test`, password: "warmuppassword1234", senderName: "Wanda Warmup" };
/** A second address on the same peers (it logs in as MAILBOX): warmup is never started on it. */
const NEVER_WARMED = `otto-${stamp}@warmup-e2e.test`;

/** Mail peers of this spec alone; its mailbox is paused after the test. */
const mail = useSpecMailPeers(MAILBOX, { rejectRecipients: [] });
let neverWarmedId: string | undefined;

test.afterEach(async ({ page }) => {
  // Nothing of this spec keeps warming, or checks logins, once its peers close.
  const { mailboxId } = mail.created;
  const client = apiClient(page);
  if (mailboxId) await client.POST("/mailboxes/{id}/stop-warmup", { params: { path: { id: mailboxId } } });
  if (neverWarmedId) {
    await ok(client.DELETE("/mailboxes/{id}", { params: { path: { id: neverWarmedId } } }));
    neverWarmedId = undefined;
  }
});

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

test("warmup from the mailboxes page: start with settings (EARLY, day 0, today's target, the ramp chart), stop (PAUSED), resume on the day reached, and a bulk resume that lists what it skipped", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signInAsOwner(page, "/mailboxes");
  await mail.importMailbox(page);
  const second = await ok(
    apiClient(page).POST("/mailboxes/bulk-import", {
      body: {
        verify: false,
        mailboxes: [
          {
            email: NEVER_WARMED,
            smtpHost: "127.0.0.1",
            smtpPort: mail.smtp.port,
            smtpSecurity: "NONE",
            smtpUsername: MAILBOX.email,
            smtpPassword: MAILBOX.password,
            imapHost: "127.0.0.1",
            imapPort: mail.imap.port,
            imapSecurity: "NONE",
            imapUsername: MAILBOX.email,
          },
        ],
      },
    }),
  );
  neverWarmedId = second.mailboxes[0].id;
  await page.reload();

  const table = page.getByRole("table", { name: "Mailboxes" });
  const row = table.getByRole("row", { name: new RegExp(literal(MAILBOX.email)) });
  const toggle = row.getByRole("switch", { name: `Warmup of ${MAILBOX.email}` });
  await expect(row.getByTestId("warmup-status")).toHaveAttribute("data-status", "OFF");
  await expect(toggle).toHaveAttribute("aria-checked", "false");

  // The panel: never started, so the form starts warmup; the API's ranges are checked per field.
  await row.getByRole("button", { name: `Warmup details of ${MAILBOX.email}` }).click();
  const panel = page.getByRole("dialog", { name: `Warmup of ${MAILBOX.email}` });
  await expect(panel.getByTestId("warmup-status")).toHaveAttribute("data-status", "OFF");
  await expect(panel.getByText("No warmup in the last 30 days yet.")).toBeVisible();
  const settings = panel.getByRole("form", { name: "Ramp settings" });
  await settings.getByLabel("Starting volume").fill("60");
  await settings.getByRole("button", { name: "Start warmup" }).click();
  await expect(settings.getByText("Too big: expected number to be <=50")).toBeVisible();
  await expect(panel.getByTestId("warmup-status")).toHaveAttribute("data-status", "OFF");

  await settings.getByLabel("Starting volume").fill("12");
  await settings.getByLabel("Daily increase").fill("3");
  await settings.getByLabel("Target volume").fill("30");
  await settings.getByRole("button", { name: "Start warmup" }).click();
  await expect(panel.getByTestId("warmup-status")).toHaveAttribute("data-status", "EARLY");
  await expect(panel.getByTestId("warmup-day")).toHaveText("0");
  await expect(panel.getByTestId("warmup-today-target")).toHaveText("12");
  await expect(panel.getByTestId("warmup-sent-today")).toHaveText(/^\d+$/);
  await expect(panel.getByTestId("warmup-replied-today")).toHaveText(/^\d+$/);
  // The ramp's 30 days: the chart, and today's row (UTC) among the daily numbers.
  await expect(panel.locator(".recharts-surface").first()).toBeVisible();
  await panel.getByText("Daily numbers").click();
  const today = new Date().toISOString().slice(0, 10);
  await expect(panel.getByRole("table", { name: "Warmup per day" }).getByRole("row", { name: new RegExp(`^${today} 12 `) })).toBeVisible();

  // Settings change on the running ramp: its day is kept.
  await settings.getByLabel("Starting volume").fill("15");
  await settings.getByRole("button", { name: "Save settings" }).click();
  await expect(settings.getByText("Settings saved; the ramp keeps its day.")).toBeVisible();
  await expect(panel.getByTestId("warmup-today-target")).toHaveText("15");
  await expect(panel.getByTestId("warmup-day")).toHaveText("0");
  await panel.getByRole("button", { name: "Close", exact: true }).first().click();
  await expect(panel).toBeHidden();

  // The table's switch: off pauses, on resumes on the day reached.
  await expect(row.getByTestId("warmup-status")).toHaveAttribute("data-status", "EARLY");
  await expect(toggle).toHaveAttribute("aria-checked", "true");
  await toggle.click();
  await expect(row.getByTestId("warmup-status")).toHaveAttribute("data-status", "PAUSED");
  await expect(toggle).toHaveAttribute("aria-checked", "false");
  await toggle.click();
  await expect(row.getByTestId("warmup-status")).toHaveAttribute("data-status", "EARLY");
  await expect(toggle).toHaveAttribute("aria-checked", "true");
  await expect(row.getByTestId("warmup-error")).toHaveCount(0);
  await row.getByRole("button", { name: `Warmup details of ${MAILBOX.email}` }).click();
  await expect(panel.getByTestId("warmup-day")).toHaveText("0");
  await expect(panel.getByTestId("warmup-today-target")).toHaveText("15");
  await expect(panel.getByTestId("warmup-status")).toHaveAttribute("data-status", "EARLY");
  await panel.getByRole("button", { name: "Close", exact: true }).first().click();

  // Bulk resume: the paused one resumes; the one never started is skipped with the server's reason.
  await toggle.click();
  await expect(row.getByTestId("warmup-status")).toHaveAttribute("data-status", "PAUSED");
  await row.getByRole("checkbox", { name: `Select ${MAILBOX.email}` }).check();
  await table.getByRole("checkbox", { name: `Select ${NEVER_WARMED}` }).check();
  await page.getByRole("button", { name: "Resume warmup (2)" }).click();
  const bulk = page.getByRole("dialog", { name: "Resume warmup of 2 mailboxes" });
  await bulk.getByRole("button", { name: "Resume warmup" }).click();
  const result = page.getByRole("dialog", { name: "Warmup resumed" });
  await expect(result.getByTestId("bulk-resume-summary")).toHaveText("Warmup resumed on 1 mailbox; 1 skipped.");
  await expect(result.getByRole("list", { name: "Skipped mailboxes" })).toContainText(`${NEVER_WARMED}: Warmup was never started`);
  await result.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId("mailboxes-notice")).toHaveText("Warmup resumed on 1 mailbox; 1 skipped.");
  await expect(row.getByTestId("warmup-status")).toHaveAttribute("data-status", "EARLY");
  await expect(table.getByRole("row", { name: new RegExp(literal(NEVER_WARMED)) }).getByTestId("warmup-status")).toHaveAttribute(
    "data-status",
    "OFF",
  );
});

test("Settings → Warmup presets: each provider's preset is saved, checked per field, and cleared", async ({ page }) => {
  await signInAsOwner(page, "/settings/api-keys");
  await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Warmup presets" }).click();
  await expect(page).toHaveURL(/\/settings\?section=warmup-presets$/);
  await expect(page.getByRole("heading", { name: "Warmup presets" })).toBeVisible();
  const google = page.getByRole("form", { name: "Google preset" });

  // Per field: out of range, and a min reply rate above the max.
  await google.getByLabel("Daily increase").fill("11");
  await google.getByLabel("Reply rate min (%)").fill("50");
  await google.getByLabel("Reply rate max (%)").fill("40");
  await google.getByRole("button", { name: "Save Google preset" }).click();
  await expect(google.getByText("Too big: expected number to be <=10")).toBeVisible();
  await expect(google.getByText("replyRateMinPct must not be above replyRateMaxPct")).toBeVisible();

  await google.getByLabel("Daily increase").fill("4");
  await google.getByLabel("Reply rate min (%)").fill("20");
  await google.getByRole("button", { name: "Save Google preset" }).click();
  await expect(google.getByText("Google preset saved.")).toBeVisible();
  await page.reload();
  await expect(google.getByLabel("Daily increase")).toHaveValue("4");
  await expect(google.getByLabel("Reply rate max (%)")).toHaveValue("40");
  await expect(google.getByLabel("Starting volume")).toHaveValue("");

  // Cleared, so other specs' mailboxes start on the defaults.
  await google.getByRole("button", { name: "Clear" }).click();
  await expect(google.getByText("Google preset cleared.")).toBeVisible();
  await expect(google.getByLabel("Daily increase")).toHaveValue("");
  await page.reload();
  await expect(google.getByLabel("Daily increase")).toHaveValue("");
  await expect(google.getByText("No preset: the defaults apply.")).toBeVisible();
});
