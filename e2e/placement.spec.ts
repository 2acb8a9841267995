import { expect, test } from "@playwright/test";
import { type MailNetwork, startMailNetwork } from "../test/peers/mail-network";
import type { BodyOf } from "../lib/client";
import { apiClient, ok } from "./support/api";
import { signInAsOwner } from "./support/session";

test.use({ baseURL: process.env.E2E_BASE_URL });

/**
 * A placement test from the Deliverability page through local peers: a mail network of this spec alone
 * (one SMTP server for every account, one IMAP store per account) that files mail to one seed in Junk and
 * gives the Gmail-style seed a Promotions label. The worker's placement job reads the seeds.
 */
const stamp = Date.now().toString(36);
const SENDER = `pia-${stamp}@placement-e2e.test`;
const SEEDS = {
  inbox: `seed-in-${stamp}@seeds-e2e.test`,
  junk: `seed-junk-${stamp}@seeds-e2e.test`,
  gmail: `seed-g-${stamp}@gmail-e2e.test`,
};
let net: MailNetwork;
const created: string[] = [];

test.beforeAll(async () => {
  net = await startMailNetwork({
    accounts: {
      [SENDER]: "senderpassword1",
      [SEEDS.inbox]: "seedpassword1",
      [SEEDS.junk]: "seedpassword2",
      [SEEDS.gmail]: "seedpassword3",
    },
    junk: (to) => to === SEEDS.junk,
    gmail: [SEEDS.gmail],
    labels: () => ["\\Inbox", "CATEGORY_PROMOTIONS"],
  });
});

// The shared instance runs on after this spec: its mailboxes are paused, so none reports a problem once the peers are gone.
test.afterAll(async ({ browser }) => {
  const page = await browser.newPage();
  await signInAsOwner(page, "/deliverability");
  for (const id of created) await apiClient(page).PATCH("/mailboxes/{id}", { params: { path: { id } }, body: { sendingEnabled: false } });
  await page.close();
  await Promise.race([net.close(), new Promise((r) => setTimeout(r, 5000))]);
});

test("runs a placement test for a mailbox from the Deliverability page: the grid fills in per seed, the history keeps the test", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signInAsOwner(page, "/deliverability");
  const seed = { isSeed: true };
  type Item = BodyOf<"/mailboxes/bulk-import", "post">["mailboxes"][number];
  const items = [
    net.importItem(SENDER),
    net.importItem(SEEDS.inbox, seed),
    net.importItem(SEEDS.junk, seed),
    net.importItem(SEEDS.gmail, seed),
  ];
  const imported = await ok(apiClient(page).POST("/mailboxes/bulk-import", { body: { verify: true, mailboxes: items as Item[] } }));
  expect(imported.failed).toEqual([]);
  created.push(...imported.mailboxes.map((m) => m.id));

  await page.reload();
  const panel = page.getByRole("region", { name: "Inbox placement" });
  await expect(panel).toBeVisible();
  // Seeds receive probes: they are not offered as the mailbox to test.
  const select = panel.getByLabel("Mailbox to test");
  await expect(select.locator("option", { hasText: SEEDS.inbox })).toHaveCount(0);
  await select.selectOption({ label: SENDER });
  await panel.getByLabel("Subject (optional)").fill(`Lunch next week? ${stamp}`);
  await panel.getByRole("button", { name: "Run placement test" }).click();

  // The grid shows the test at once, one row per seed, and fills in as the worker reads the seeds.
  const result = panel.getByTestId("placement-result");
  await expect(result).toContainText(SENDER);
  const grid = result.getByRole("table", { name: "Placement per seed" });
  await expect(grid.getByRole("row")).toHaveCount(1 + 3);
  await expect(result).toHaveAttribute("data-status", "COMPLETED", { timeout: 90_000 });
  await expect(grid.getByRole("row", { name: new RegExp(SEEDS.inbox) })).toContainText("Inbox");
  await expect(grid.getByRole("row", { name: new RegExp(SEEDS.junk) })).toContainText("Spam");
  await expect(grid.getByRole("row", { name: new RegExp(SEEDS.junk) })).toContainText("Junk");
  await expect(grid.getByRole("row", { name: new RegExp(SEEDS.gmail) })).toContainText("Promotions");
  await expect(result.getByTestId("placement-share")).toHaveText("2 of 3 in the inbox (67 %)");
  await expect(result).toContainText("Gmail tabs: Promotions 1");

  // Each seed got its own probe with the subject given.
  const probes = net.delivered.filter((d) => d.from === SENDER);
  expect(probes.map((d) => d.to).sort()).toEqual(Object.values(SEEDS).sort());
  expect(probes.every((d) => d.raw.includes(`Lunch next week? ${stamp}`))).toBe(true);

  // The history lists it, newest first, and it stays there after a reload.
  await page.reload();
  const history = panel.getByRole("table", { name: "Placement tests" });
  await expect(history.getByRole("row").nth(1)).toContainText(SENDER);
  await expect(history.getByRole("row").nth(1)).toContainText("Completed");
});
