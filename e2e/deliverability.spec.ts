import { expect, test } from "@playwright/test";
import { apiClient, ok } from "./support/api";
import { signInAsOwner } from "./support/session";

// The global setup's peers: SMTP refuses any login it does not know (535); its DNS peer (DNS_SERVERS of
// the app) answers NXDOMAIN for every blocklist name, so every look-up there is "not listed".
const smtpPort = Number(process.env.E2E_SMTP_PORT);
const imapPort = Number(process.env.E2E_IMAP_PORT);
test.use({ baseURL: process.env.E2E_BASE_URL });

/** A mailbox of this spec alone, on its own domain, whose password the SMTP peer refuses: its login check raises LOGIN_FAILING. */
const REFUSED = "refused@deliverability.test";
let mailboxId: string | undefined;

test.afterEach(async ({ page }) => {
  // Deleted (it never sent), so the rest of the suite sees no failing mailbox; its alerts go with it.
  if (mailboxId) {
    const client = apiClient(page);
    await ok(client.DELETE("/mailboxes/{id}", { params: { path: { id: mailboxId } } }));
    mailboxId = undefined;
    // Its domain too, which closes the domain's own alerts (its DNS records are missing on the DNS peer).
    const list = await ok(client.GET("/domains", { params: { query: { limit: 200 } } }));
    const domain = list.find((d) => d.domain === REFUSED.split("@")[1]);
    if (domain) await ok(client.DELETE("/domains/{id}", { params: { path: { id: domain.id } } }));
  }
});

test("the Deliverability page: an alert raised by the login check is acknowledged, and a blacklist check runs to its results", async ({
  page,
}) => {
  // The health check runs every 2 s here and the blacklist job every 5 s; allow for a slow machine.
  test.setTimeout(180_000);
  await signInAsOwner(page, "/deliverability");
  await expect(page.getByRole("heading", { name: "Deliverability", level: 1 })).toBeVisible();
  await expect(page.getByTestId("card-mailboxes")).toBeVisible();

  const imported = await ok(
    apiClient(page).POST("/mailboxes/bulk-import", {
      body: {
        verify: false,
        mailboxes: [
          {
            email: REFUSED,
            smtpHost: "127.0.0.1",
            smtpPort,
            smtpSecurity: "NONE",
            smtpPassword: "not-the-password",
            imapHost: "127.0.0.1",
            imapPort,
            imapSecurity: "NONE",
          },
        ],
      },
    }),
  );
  mailboxId = imported.mailboxes[0].id;

  // The worker's login check finds the refused login and raises the alert; reload until it has.
  const alerts = page.getByRole("table", { name: "Open alerts" });
  const row = alerts.getByTestId("alert-row").filter({ hasText: REFUSED });
  await expect(async () => {
    await page.reload();
    await expect(row).toHaveCount(1, { timeout: 2_000 });
  }).toPass({ timeout: 60_000, intervals: [1_000, 2_000] });
  await expect(row).toContainText("Login failing");
  await expect(row).toContainText("535");
  const unacknowledged = Number((await page.getByTestId("card-alerts").textContent())?.match(/(\d+) not acknowledged/)?.[1]);
  expect(unacknowledged).toBeGreaterThan(0);

  await row.getByRole("button", { name: "Acknowledge" }).click();
  await expect(row).toContainText("Acknowledged");
  await expect(row.getByRole("button", { name: "Acknowledge" })).toHaveCount(0);
  await expect(page.getByTestId("card-alerts")).toContainText(`${unacknowledged - 1} not acknowledged`);
  const id = await row.getAttribute("data-alert-id");
  const stored = await ok(apiClient(page).GET("/deliverability/alerts", { params: { query: { acknowledged: "true", open: "true" } } }));
  expect(stored.alerts.find((a) => a.id === id)?.acknowledgedAt).toEqual(expect.any(String));

  // A blacklist check of one domain and one address: 3 domain zones and 3 IP zones by default.
  const section = page.getByRole("region", { name: "Blacklist check" });
  await section.getByLabel("Domains and IP addresses").fill("deliverability.test\n192.0.2.44");
  await section.getByRole("button", { name: "Run blacklist check" }).click();
  const job = section.getByTestId("blacklist-job");
  await expect(job).toBeVisible();
  await expect(job).toContainText("COMPLETED", { timeout: 60_000 });
  await expect(job.getByRole("progressbar")).toHaveCount(0);
  await expect(section.getByTestId("blacklist-summary")).toContainText("2 targets · 0 listings");
  const results = section.getByRole("table", { name: "Blacklist results" }).getByTestId("blacklist-result");
  await expect(results).toHaveCount(6);
  await expect(results.filter({ hasText: "Not listed" })).toHaveCount(6);
  await expect(results.filter({ hasText: "deliverability.test" }).filter({ hasText: "dbl.spamhaus.org" })).toHaveCount(1);
  await expect(results.filter({ hasText: "192.0.2.44" }).filter({ hasText: "zen.spamhaus.org" })).toHaveCount(1);

  // A bad address is refused before any job starts, with the API's reason for that line.
  await section.getByLabel("Domains and IP addresses").fill("999.1.2.3");
  await section.getByRole("button", { name: "Run blacklist check" }).click();
  await expect(section.getByRole("alert")).toContainText("999.1.2.3: is not an IPv4 or IPv6 address");
});
