import { expect, test } from "@playwright/test";
import { E2E_MAILBOX, signInAsOwner } from "./support/session";

// Real SMTP and IMAP peers started by the global setup (plain text on 127.0.0.1).
const smtpPort = process.env.E2E_SMTP_PORT!;
const imapPort = process.env.E2E_IMAP_PORT!;
test.use({ baseURL: process.env.E2E_BASE_URL });

test("a mailbox on its own SMTP/IMAP server: a refused login shows the server's reply, the right one turns healthy and sends; its domain is checked", async ({
  page,
}) => {
  expect(smtpPort && imapPort, "the global setup starts the mail peers").toBeTruthy();
  // The health check runs in the worker every 15 s at most: allow for it on a slow machine.
  test.setTimeout(180_000);
  await signInAsOwner(page, "/mailboxes");
  await expect(page.getByRole("heading", { name: "Mailboxes" })).toBeVisible();

  await page.getByRole("button", { name: "Connect mailbox" }).click();
  const dialog = page.getByRole("dialog", { name: "Connect mailbox" });

  // mail.test is no hosted-webmail provider (its MX is its own): the API says so and what to do instead.
  await dialog.getByLabel("Email", { exact: true }).fill(E2E_MAILBOX.email);
  await dialog.getByLabel("App password", { exact: true }).fill(E2E_MAILBOX.password);
  await dialog.getByRole("button", { name: "Connect", exact: true }).click();
  await expect(dialog.getByTestId("connect-error")).toContainText("Could not tell which hosted-webmail provider serves mail.test");

  await dialog.getByRole("tab", { name: "Own SMTP/IMAP server" }).click();
  await dialog.getByLabel("Email", { exact: true }).fill(E2E_MAILBOX.email);
  await dialog.getByLabel("Sender name (optional)", { exact: true }).fill("E2E Sender");
  await dialog.getByLabel("SMTP host", { exact: true }).fill("127.0.0.1");
  await dialog.getByLabel("SMTP port", { exact: true }).fill(smtpPort);
  await dialog.getByLabel("SMTP security", { exact: true }).selectOption("NONE");
  await dialog.getByLabel("SMTP password", { exact: true }).fill("not-the-password");
  await dialog.getByLabel("IMAP host", { exact: true }).fill("127.0.0.1");
  await dialog.getByLabel("IMAP port", { exact: true }).fill(imapPort);
  await dialog.getByLabel("IMAP security", { exact: true }).selectOption("NONE");
  await dialog.getByRole("button", { name: "Connect", exact: true }).click();
  // The SMTP server's own refusal, with its reply code.
  await expect(dialog.getByTestId("connect-error")).toContainText("The SMTP server refused the login: 535");
  await expect(dialog.getByTestId("connect-error")).toContainText("Username and Password not accepted");
  await expect(dialog.getByText("SMTP reply code 535")).toBeVisible();

  await dialog.getByLabel("SMTP password", { exact: true }).fill(E2E_MAILBOX.password);
  await dialog.getByRole("button", { name: "Connect", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("mailboxes-notice")).toHaveText(`Connected ${E2E_MAILBOX.email}.`);

  const row = page.getByRole("table", { name: "Mailboxes" }).getByRole("row", { name: /e2e@mail\.test/ });
  await expect(row).toContainText("E2E Sender");
  await expect(row).toContainText("Own SMTP/IMAP");
  await expect(row.getByRole("switch", { name: `Sending from ${E2E_MAILBOX.email}` })).toHaveAttribute("aria-checked", "true");

  // The worker's periodic login check (every 2 s here) marks it healthy; reload until it has run.
  await expect(async () => {
    await page.reload();
    await expect(row.getByTestId("mailbox-health")).toHaveText("Healthy", { timeout: 2_000 });
  }).toPass({ timeout: 45_000, intervals: [1_000, 2_000] });
  await expect(page.getByRole("region", { name: "Mailbox issues" })).toHaveCount(0);

  // A real email through the peer.
  await row.getByRole("button", { name: `Test send from ${E2E_MAILBOX.email}` }).click();
  const send = page.getByRole("dialog", { name: `Send a test email from ${E2E_MAILBOX.email}` });
  await send.getByLabel("To", { exact: true }).fill("someone@example.com");
  await send.getByRole("button", { name: "Send test email" }).click();
  await expect(send.getByTestId("test-send-result")).toContainText("Sent to someone@example.com");
  await expect(send).toContainText("Server reply: 250");
  await send.getByRole("button", { name: "Close", exact: true }).first().click();
  await expect(send).toBeHidden();

  // Multi-select + daily cap.
  await row.getByRole("checkbox", { name: `Select ${E2E_MAILBOX.email}` }).check();
  await page.getByRole("button", { name: "Set daily cap (1)" }).click();
  const cap = page.getByRole("dialog", { name: "Set the daily cap of 1 mailbox" });
  await cap.getByLabel("Emails per day", { exact: true }).fill("15");
  await cap.getByRole("button", { name: "Set daily cap" }).click();
  await expect(page.getByTestId("mailboxes-notice")).toHaveText("Daily send cap set to 15 on 1 mailbox.");
  await expect(row.getByRole("cell", { name: "15", exact: true })).toBeVisible();

  // Edit, and sending off and on again from the table.
  await row.getByRole("button", { name: `Edit ${E2E_MAILBOX.email}` }).click();
  const edit = page.getByRole("dialog", { name: `Edit ${E2E_MAILBOX.email}` });
  await expect(edit.getByLabel("Daily send cap", { exact: true })).toHaveValue("15");
  await edit.getByLabel("Sender name", { exact: true }).fill("E2E Renamed");
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(edit).toBeHidden();
  await expect(row).toContainText("E2E Renamed");
  const sending = row.getByRole("switch", { name: `Sending from ${E2E_MAILBOX.email}` });
  await sending.click();
  await expect(sending).toHaveAttribute("aria-checked", "false");
  await expect(row.getByTestId("mailbox-health")).toHaveText("Paused");
  await sending.click();
  await expect(sending).toHaveAttribute("aria-checked", "true");
  await expect(row.getByTestId("mailbox-health")).toHaveText("Healthy");

  // Its domain was created from the address; the checks read the DNS peer of the global setup.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Domains" }).click();
  await expect(page).toHaveURL(/\/domains$/);
  const domain = page
    .getByRole("table", { name: "Domains" })
    .getByRole("row", { name: /mail\.test/ })
    .first();
  await expect(domain).toBeVisible();
  const recheck = domain.getByRole("button", { name: "Re-check mail.test" });
  await expect(recheck).toBeVisible();
  await recheck.click();
  await expect(domain.getByTestId("check-spf")).toHaveAttribute("data-status", "PASS");
  await expect(domain.getByTestId("check-spf")).toHaveAttribute("title", /SPF is valid/);
  await expect(domain.getByTestId("check-dkim")).toHaveAttribute("data-status", "MISSING");
  await expect(domain.getByTestId("check-dmarc")).toHaveAttribute("data-status", "PASS");
  await expect(domain.getByTestId("check-mx")).toHaveAttribute("data-status", "PASS");
  await expect(domain.getByTestId("check-blacklist")).toHaveAttribute("data-status", "PASS");
  await domain.getByRole("button", { name: "Details" }).click();
  await expect(page.getByText("v=spf1 ip4:127.0.0.1 -all")).toBeVisible();

  // A domain still in use is not deleted; the conflict says why.
  await domain.getByRole("checkbox", { name: "Select mail.test" }).check();
  await page.getByRole("button", { name: "Delete 1 selected" }).click();
  await page.getByRole("dialog", { name: "Delete 1 domain?" }).getByRole("button", { name: "Delete", exact: true }).click();
  await expect(page.getByText("mail.test: still has 1 mailbox(es)")).toBeVisible();
  await expect(page.getByTestId("domains-notice")).toHaveText("Deleted 0 domains.");
  await expect(domain).toBeVisible();
});

function csv(lines: string[]) {
  return { name: "mailboxes.csv", mimeType: "text/csv", buffer: Buffer.from(lines.join("\n") + "\n") };
}

test("CSV import reports each failure with its line and the server's reply; an unverified wrong login becomes an issue", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signInAsOwner(page, "/mailboxes");
  const peer = (email: string, password: string, smtp = smtpPort) =>
    [email, "", "127.0.0.1", smtp, "none", password, "127.0.0.1", imapPort, "NONE"].join(",");
  const header = "Email,Sender Name,SMTP Host,SMTP Port,SMTP Security,SMTP Password,IMAP Host,IMAP Port,IMAP Security";

  await page.getByRole("button", { name: "Import CSV" }).click();
  const dialog = page.getByRole("dialog", { name: "Import mailboxes from CSV" });
  await dialog
    .getByLabel("CSV file")
    .setInputFiles(
      csv([header, peer(E2E_MAILBOX.email, E2E_MAILBOX.password), peer("wrong@mail.test", "nope"), peer("bad@mail.test", "x", "notaport")]),
    );
  // Guessed from the headers.
  await expect(dialog.getByLabel("Import column SMTP Port as")).toHaveValue("smtpPort");
  await expect(dialog.getByLabel("Import column IMAP Security as")).toHaveValue("imapSecurity");
  await dialog.getByRole("button", { name: "Import 3 rows" }).click();
  await expect(dialog.getByRole("progressbar", { name: "rows" })).toHaveAttribute("aria-valuenow", "3");
  await expect(dialog.getByText("Import finished.")).toBeVisible();
  // e2e@mail.test is created, or updated when the other test connected it first.
  const saved =
    Number(await dialog.getByTestId("import-created").locator("dd").textContent()) +
    Number(await dialog.getByTestId("import-updated").locator("dd").textContent());
  expect(saved).toBe(1);
  await expect(dialog.getByTestId("import-failed")).toContainText("2");
  await expect(dialog.getByText(/Line 3: wrong@mail\.test — The SMTP server refused the login: 535 .*\(SMTP 535\)/)).toBeVisible();
  await expect(dialog.getByText(/Line 4: bad@mail\.test — SMTP Port: "notaport" is not a whole number/)).toBeVisible();
  await dialog.getByRole("button", { name: "Done" }).click();
  const table = page.getByRole("table", { name: "Mailboxes" });
  await expect(table.getByRole("row", { name: /e2e@mail\.test/ })).toBeVisible();
  await expect(table.getByRole("row", { name: /wrong@mail\.test/ })).toHaveCount(0);

  // Saved without trying the login: the periodic check finds it refused and reports it.
  await page.getByRole("button", { name: "Connect mailbox" }).click();
  const connect = page.getByRole("dialog", { name: "Connect mailbox" });
  await connect.getByRole("tab", { name: "Own SMTP/IMAP server" }).click();
  await connect.getByLabel("Email", { exact: true }).fill("broken@mail.test");
  await connect.getByLabel("SMTP host", { exact: true }).fill("127.0.0.1");
  await connect.getByLabel("SMTP port", { exact: true }).fill(smtpPort);
  await connect.getByLabel("SMTP security", { exact: true }).selectOption("NONE");
  await connect.getByLabel("SMTP password", { exact: true }).fill("wrong-password");
  await connect.getByLabel("IMAP host", { exact: true }).fill("127.0.0.1");
  await connect.getByLabel("IMAP port", { exact: true }).fill(imapPort);
  await connect.getByLabel("IMAP security", { exact: true }).selectOption("NONE");
  await connect.getByLabel("Try the SMTP and IMAP logins before saving").uncheck();
  await connect.getByRole("button", { name: "Connect", exact: true }).click();
  await expect(connect).toBeHidden();

  const issues = page.getByRole("region", { name: "Mailbox issues" });
  await expect(async () => {
    await page.reload();
    await expect(issues.getByRole("listitem").filter({ hasText: "broken@mail.test" })).toContainText("Login failing", { timeout: 2_000 });
  }).toPass({ timeout: 45_000, intervals: [1_000, 2_000] });
  const issue = issues.getByRole("listitem").filter({ hasText: "broken@mail.test" });
  await expect(issue).toContainText("535");
  await expect(issue).toContainText("Fix:");
  const row = table.getByRole("row", { name: /broken@mail\.test/ });
  await expect(row.getByTestId("mailbox-health")).toHaveText("Login failing");
  await row.getByText("Why?").click();
  await expect(row.getByText(/SMTP login: 535/)).toBeVisible();

  // No history yet, so it can be deleted; the issue goes with it.
  await row.getByRole("button", { name: "Delete broken@mail.test" }).click();
  await page.getByRole("dialog", { name: "Delete broken@mail.test?" }).getByRole("button", { name: "Delete", exact: true }).click();
  await expect(page.getByTestId("mailboxes-notice")).toHaveText("Deleted broken@mail.test.");
  await expect(row).toHaveCount(0);
  await expect(issues).toHaveCount(0);
});
