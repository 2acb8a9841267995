import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import { apiClient, ok } from "./support/api";
import { signInAsOwner } from "./support/session";

// The app may reach 127.0.0.1 because the global setup starts it with OUTBOUND_ALLOW_HOSTS=127.0.0.1.
test.use({ baseURL: process.env.E2E_BASE_URL });

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A webhook receiver on 127.0.0.1 that records every request with its raw body. A path containing
 * /fail answers 500, any other 200 with a short body (the log keeps the receiver's answer).
 */
let server: Server;
let origin: string;
const received: Received[] = [];

test.beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = req.url ?? "/";
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      const fail = path.includes("/fail");
      res.writeHead(fail ? 500 : 200, { "Content-Type": "text/plain" });
      res.end(fail ? "receiver is down for maintenance" : "thanks from the e2e receiver");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** The signature a receiver checks (docs/webhooks.md), written out here rather than imported from the app: hex HMAC-SHA256 of `${timestamp}.${rawBody}`. */
function signedWith(secret: string, r: Received): boolean {
  const ts = String(r.headers["x-service-timestamp"] ?? "");
  if (!/^\d+$/.test(ts) || Math.abs(Date.now() / 1000 - Number(ts)) > 300) return false;
  const expected = createHmac("sha256", secret).update(`${ts}.${r.body}`).digest();
  return String(r.headers["x-service-signature"] ?? "")
    .split(",")
    .some((part) => {
      const hex = /^\s*v1=([0-9a-f]{64})\s*$/.exec(part)?.[1];
      return !!hex && timingSafeEqual(Buffer.from(hex, "hex"), expected);
    });
}

/** A path no other run of this spec uses, so the rows are this test's own whatever the database holds. */
function uniquePath(name: string): string {
  return `/hooks/${name}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/**
 * The requests to `path` (only those of `event` when given: the workspace is shared with the other specs,
 * whose campaigns may still be sending, so a webhook for many events also gets theirs).
 */
async function waitForRequest(path: string, count = 1, event?: string): Promise<Received[]> {
  const mine = () => received.filter((r) => r.path === path && (!event || r.headers["x-service-event"] === event));
  await expect.poll(() => mine().length, { message: `requests to ${path}` }).toBeGreaterThanOrEqual(count);
  return mine();
}

function webhookRow(page: Page, url: string) {
  return page
    .getByRole("table", { name: "Webhooks" })
    .getByRole("row")
    .filter({ has: page.getByRole("link", { name: url, exact: true }) });
}

test("create a webhook: a metadata URL is refused inline, the secret is shown once, a signed test is delivered and logged, and resent with the same event id", async ({
  page,
}) => {
  await signInAsOwner(page, "/webhooks");
  await expect(page.getByRole("heading", { name: "Webhooks", exact: true })).toBeVisible();

  await page.getByRole("button", { name: "New webhook" }).click();
  const dialog = page.getByRole("dialog", { name: "New webhook" });
  const url = dialog.getByLabel("Endpoint URL", { exact: true });

  // The cloud metadata endpoint: 400 VALIDATION_ERROR, its fieldErrors.url shown under the field.
  await url.fill("http://169.254.169.254/latest/meta-data/");
  await dialog.getByLabel("All events").check();
  await expect(dialog.getByText("14 of 14 selected.")).toBeVisible();
  await dialog.getByRole("button", { name: "Create webhook" }).click();
  await expect(dialog.getByText(/^The URL points at a private or reserved address \(169\.254\.169\.254 /)).toBeVisible();
  await expect(url).toHaveAttribute("aria-invalid", "true");
  await expect(dialog.getByTestId("webhook-form-error")).toContainText("url: The URL points at a private or reserved address");

  // Select-all, then a few off; 2 attempts and a 5 s timeout.
  const path = uniquePath("ok");
  const endpoint = `${origin}${path}`;
  await url.fill(endpoint);
  await dialog.getByLabel("All events").uncheck();
  await expect(dialog.getByText("Pick at least one event.")).toBeVisible();
  await dialog.getByLabel("All events").check();
  await dialog.getByRole("checkbox", { name: /^email\.opened/ }).uncheck();
  await dialog.getByRole("checkbox", { name: /^email\.clicked/ }).uncheck();
  await expect(dialog.getByText("12 of 14 selected.")).toBeVisible();
  await dialog.getByLabel("Delivery attempts", { exact: true }).fill("2");
  await dialog.getByLabel("Timeout (ms)", { exact: true }).fill("5000");
  await dialog.getByRole("button", { name: "Create webhook" }).click();

  // The secret, once, with its warning.
  const created = page.getByRole("dialog", { name: "Webhook created" });
  await expect(created.getByText("Copy the signing secret now. It will not be shown again.")).toBeVisible();
  const secretBox = created.getByLabel("Signing secret", { exact: true });
  await expect(secretBox).toHaveValue(/^whsec_[A-Za-z0-9_-]{20,}$/);
  const secret = await secretBox.inputValue();
  await created.getByRole("button", { name: "Done" }).click();
  await expect(created).toBeHidden();

  const row = webhookRow(page, endpoint);
  await expect(row).toContainText("2 attempts · 5 s");
  await expect(row).toContainText("email.replied");
  await expect(row).not.toContainText("email.opened");
  await expect(row.getByRole("switch", { name: `Active: ${endpoint}` })).toHaveAttribute("aria-checked", "true");
  // Never again: not after a reload, not in the list's answer.
  await page.reload();
  await expect(row).toBeVisible();
  await expect(page.getByLabel("Signing secret")).toHaveCount(0);
  expect(JSON.stringify(await ok(apiClient(page).GET("/webhooks")))).not.toContain(secret);

  // A test event: delivered, and the receiver got it signed with that secret.
  await row.getByRole("button", { name: `Send a test to ${endpoint}` }).click();
  const testDialog = page.getByRole("dialog", { name: "Send a test event" });
  await testDialog.getByRole("button", { name: "Send test event" }).click();
  await expect(testDialog.getByTestId("webhook-test-result")).toHaveText("Delivered — the receiver answered HTTP 200");
  const [hit] = await waitForRequest(path, 1, "webhook.test");
  expect(hit.headers["x-service-event"]).toBe("webhook.test");
  expect(hit.headers["content-type"]).toBe("application/json");
  expect(signedWith(secret, hit), `X-Service-Signature ${hit.headers["x-service-signature"]} verifies with the secret`).toBe(true);
  expect(signedWith("whsec_not-the-secret", hit)).toBe(false);
  const body = JSON.parse(hit.body) as { id: string; event: string; data: Record<string, unknown> };
  expect(body.event).toBe("webhook.test");
  expect(body.id).toBe(hit.headers["x-service-event-id"]);
  await expect(testDialog).toContainText(`Event id: ${body.id}`);
  await testDialog.getByRole("button", { name: "Close" }).last().click();
  await expect(testDialog).toBeHidden();

  // The delivery log of this webhook.
  await row.getByRole("link", { name: `Deliveries of ${endpoint}` }).click();
  await expect(page).toHaveURL(/\/webhooks\/[^/]+$/);
  await expect(page.getByTestId("webhook-url")).toHaveText(endpoint);
  const log = page.getByRole("table", { name: "Deliveries" });
  const delivery = log.getByTestId("delivery-row").filter({ hasText: "webhook.test" });
  await expect(delivery).toHaveCount(1);
  await expect(delivery).toContainText("Delivered");
  await expect(delivery).toContainText("200");
  await delivery.getByRole("button", { name: `Details of webhook.test ${body.id}` }).click();
  await expect(delivery.getByRole("button", { name: `Details of webhook.test ${body.id}` })).toHaveAttribute("aria-expanded", "true");
  await expect(log).toContainText(body.id);
  await expect(log).toContainText("thanks from the e2e receiver");
  await expect(log).toContainText("None (finished)");

  // Status filter.
  await page.getByLabel("Status", { exact: true }).selectOption("FAILED");
  await expect(log).toContainText("No deliveries with this status.");
  await page.getByLabel("Status", { exact: true }).selectOption("DELIVERED");
  await expect(delivery).toBeVisible();

  // Resend: same event id, signed again.
  await delivery.getByRole("button", { name: `Resend webhook.test ${body.id}` }).click();
  await expect(page.getByTestId("resend-result")).toHaveText(`Resent webhook.test (${body.id}): delivered, HTTP 200.`);
  const hits = await waitForRequest(path, 2, "webhook.test");
  expect(hits[1].headers["x-service-event-id"]).toBe(body.id);
  expect(hits[1].body).toBe(hit.body);
  expect(signedWith(secret, hits[1])).toBe(true);
});

test("pause and resume, edit (a private URL refused inline), a failing receiver in the log, rotate with two signatures, delete", async ({
  page,
}) => {
  await signInAsOwner(page, "/webhooks");
  const path = uniquePath("fail");
  const endpoint = `${origin}${path}`;
  const { data, response } = await apiClient(page).POST("/webhooks", {
    body: { url: endpoint, events: ["email.replied", "webhook.test"], retryAttempts: 3 },
  });
  expect(response.status, JSON.stringify(data)).toBe(201);
  const oldSecret = data!.secret;
  await page.reload();

  const row = webhookRow(page, endpoint);
  const toggle = row.getByRole("switch", { name: `Active: ${endpoint}` });
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-checked", "false");
  await expect(row).toContainText("Paused");
  await expect(page.getByTestId("webhooks-notice")).toContainText("Paused the webhook");
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-checked", "true");
  await expect(row).not.toContainText("Paused");

  // Edit: a private address is refused under the URL field; then more attempts.
  await row.getByRole("button", { name: `Edit ${endpoint}` }).click();
  const edit = page.getByRole("dialog", { name: "Edit webhook" });
  await expect(edit.getByLabel("Endpoint URL", { exact: true })).toHaveValue(endpoint);
  await edit.getByLabel("Endpoint URL", { exact: true }).fill("http://10.0.0.1/hook");
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(edit.getByText(/^The URL points at a private or reserved address \(10\.0\.0\.1 /)).toBeVisible();
  await edit.getByLabel("Endpoint URL", { exact: true }).fill(endpoint);
  await edit.getByLabel("Delivery attempts", { exact: true }).fill("5");
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(edit).toBeHidden();
  await expect(row).toContainText("5 attempts · 10 s");

  // The receiver answers 500: not delivered, with the receiver's status and the error.
  await row.getByRole("button", { name: `Send a test to ${endpoint}` }).click();
  const testDialog = page.getByRole("dialog", { name: "Send a test event" });
  await testDialog.getByRole("button", { name: "Send test event" }).click();
  await expect(testDialog.getByTestId("webhook-test-result")).toHaveText("Not delivered — the receiver answered HTTP 500");
  await expect(testDialog.getByTestId("webhook-test-error")).toHaveText("Receiver answered 500");
  await testDialog.getByRole("button", { name: "Close" }).last().click();

  // Rotate: confirm, the new secret once, and both sign for 24 h.
  await row.getByRole("button", { name: `Rotate the secret of ${endpoint}` }).click();
  const rotate = page.getByRole("dialog", { name: "Rotate the signing secret?" });
  await expect(rotate).toContainText("For the next 24 hours every request is signed with both the new and the current secret");
  await rotate.getByRole("button", { name: "Rotate secret" }).click();
  const rotated = page.getByRole("dialog", { name: "New signing secret" });
  await expect(rotated.getByText("Copy the new signing secret now. It will not be shown again.")).toBeVisible();
  await expect(rotated.getByTestId("rotation-overlap")).toContainText("For 24 hours");
  await expect(rotated.getByTestId("rotation-overlap")).toContainText("both the new and the old secret sign every request");
  const newSecret = await rotated.getByLabel("Signing secret", { exact: true }).inputValue();
  expect(newSecret).toMatch(/^whsec_/);
  expect(newSecret).not.toBe(oldSecret);
  await rotated.getByRole("button", { name: "Done" }).click();
  await expect(row).toContainText("Secret rotating");

  const before = received.filter((r) => r.path === path).length;
  await row.getByRole("button", { name: `Send a test to ${endpoint}` }).click();
  await testDialog.getByRole("button", { name: "Send test event" }).click();
  await expect(testDialog.getByTestId("webhook-test-result")).toHaveText("Not delivered — the receiver answered HTTP 500");
  await testDialog.getByRole("button", { name: "Close" }).last().click();
  const hits = await waitForRequest(path, before + 1);
  const last = hits[hits.length - 1];
  expect(String(last.headers["x-service-signature"]).split(",")).toHaveLength(2);
  expect(signedWith(newSecret, last)).toBe(true);
  expect(signedWith(oldSecret, last)).toBe(true);

  // The failures in the log, with the receiver's answer.
  await row.getByRole("link", { name: `Deliveries of ${endpoint}` }).click();
  const log = page.getByRole("table", { name: "Deliveries" });
  await page.getByLabel("Status", { exact: true }).selectOption("FAILED");
  const failed = log.getByTestId("delivery-row");
  await expect(failed).toHaveCount(2);
  await expect(failed.first()).toContainText("Failed");
  await expect(failed.first()).toContainText("500");
  await failed
    .first()
    .getByRole("button", { name: /^Details of webhook\.test / })
    .click();
  await expect(log).toContainText("Receiver answered 500");
  await expect(log).toContainText("receiver is down for maintenance");
  await expect(failed.first().getByRole("button", { name: /^Resend webhook\.test / })).toBeVisible();

  // Delete from the webhook's page: back to the list, gone.
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  const del = page.getByRole("dialog", { name: "Delete this webhook?" });
  await del.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(page).toHaveURL(/\/webhooks$/);
  await expect(page.getByRole("link", { name: endpoint, exact: true })).toHaveCount(0);
});
