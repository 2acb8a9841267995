import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { minimalPdf } from "../test/fixtures/documents";
import { apiClient, ok } from "./support/api";
import { signInAsOwner } from "./support/session";

// The app may crawl 127.0.0.1 because the global setup starts it with OUTBOUND_ALLOW_HOSTS=127.0.0.1.
test.use({ baseURL: process.env.E2E_BASE_URL });

/** A small site: robots.txt keeps the crawler off /private; three readable pages. */
let site: Server;
let origin: string;
const requested: string[] = [];
const html = (title: string, body: string, links: string[] = []) =>
  `<!doctype html><html><head><title>${title}</title></head><body><nav>${links.map((l) => `<a href="${l}">${l}</a>`).join(" ")}</nav>` +
  `<article><h1>${title}</h1><p>${body}</p></article></body></html>`;
const PAGES: Record<string, string> = {
  "/": html("Widget Co", "Widget Co makes sturdy widgets for workshops and schools.", ["/shipping", "/returns", "/private/admin"]),
  "/shipping": html("Shipping", "Orders ship from Rotterdam and arrive within three business days anywhere in the EU."),
  "/returns": html("Returns", "Unused widgets can be returned within sixty days for a full refund."),
  "/private/admin": html("Admin", "Nothing to see."),
};

test.beforeAll(async () => {
  site = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    requested.push(path);
    if (path === "/robots.txt") return res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nDisallow: /private\n");
    const page = PAGES[path];
    if (!page) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page);
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  site.closeAllConnections();
  await new Promise<void>((resolve) => site.close(() => resolve()));
});

test("builds a reply agent: fields and campaign, documents with upload progress, a website scan, and a question", async ({ page }) => {
  const suffix = Date.now().toString(36);
  await signInAsOwner(page, "/reply-agents");
  const campaign = await ok(apiClient(page).POST("/campaigns", { body: { name: `Agent campaign ${suffix}` } }));

  await page.getByRole("link", { name: "Reply agents" }).click();
  await expect(page.getByRole("heading", { name: "Reply agents" })).toBeVisible();
  await page.getByLabel("New agent name").fill(`Helper ${suffix}`);
  await page.getByRole("button", { name: "Create agent" }).click();
  await expect(page.getByRole("heading", { name: `Helper ${suffix}` })).toBeVisible();

  // Fields and the campaign, saved with one PATCH and read back after a reload.
  await page.getByLabel("Company name").fill("Widget Co");
  await page.getByLabel("Tone").selectOption("FRIENDLY");
  await page.getByRole("checkbox", { name: `Agent campaign ${suffix}` }).check();
  await page.getByRole("button", { name: "Save agent" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Company name")).toHaveValue("Widget Co");
  await expect(page.getByLabel("Tone")).toHaveValue("FRIENDLY");
  await expect(page.getByRole("checkbox", { name: `Agent campaign ${suffix}` })).toBeChecked();
  await expect(page.getByText("1 campaign", { exact: false })).toBeVisible();
  expect(campaign.id).toBeTruthy();

  // Documents: a PDF and a text file; a PNG is refused with the API's message.
  const input = page.getByTestId("document-input");
  await input.setInputFiles([
    { name: "warranty.pdf", mimeType: "application/pdf", buffer: minimalPdf([["Every widget carries a five year warranty."]]) },
    { name: "hours.txt", mimeType: "text/plain", buffer: Buffer.from("Our phone line is open from nine to five on weekdays.") },
  ]);
  const docs = page.getByRole("list", { name: "Trained documents" });
  await expect(docs.getByText("warranty.pdf")).toBeVisible();
  await expect(docs.getByText("hours.txt")).toBeVisible();
  await input.setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: Buffer.from("not really a png") });
  await expect(page.getByRole("alert").filter({ hasText: "PDF, DOCX or TXT" })).toBeVisible();

  // Website: the crawl runs in the background job; the progress bar and the page list follow it.
  await page.getByLabel("Start URL").fill(`${origin}/`);
  await page.getByLabel("Max pages").fill("10");
  await page.getByRole("button", { name: "Scan website" }).click();
  await expect(page.getByTestId("scan-status")).toContainText("COMPLETED", { timeout: 30_000 });
  await expect(page.getByRole("progressbar", { name: "pages fetched" })).toHaveAttribute("aria-valuenow", "3");
  const pages = page.getByRole("list", { name: "Found pages" });
  await expect(pages.getByText("Shipping", { exact: true })).toBeVisible();
  await expect(pages.getByText("Returns", { exact: true })).toBeVisible();
  await expect(pages.getByText("Admin", { exact: true })).toHaveCount(0);
  expect(requested).not.toContain("/private/admin");
  await page.getByRole("checkbox", { name: `Select ${origin}/returns` }).check();
  await page.getByRole("button", { name: "Index selected (1)" }).click();
  await expect(page.getByText("Indexed 1 page")).toBeVisible();

  // A question: the passage that answers it comes first, with its source.
  const ask = async (q: string) => {
    await page.getByLabel("Question", { exact: true }).fill(q);
    await page.getByRole("button", { name: "Search" }).click();
  };
  await ask("Can I return a widget for a refund?");
  const first = page.getByRole("list", { name: "Search results" }).getByRole("listitem").first();
  await expect(first).toContainText(`${origin}/returns`);
  await expect(first).toContainText("sixty days");
  await ask("How long is the warranty?");
  await expect(page.getByRole("list", { name: "Search results" }).getByRole("listitem").first()).toContainText("warranty.pdf");

  // Through the running server (its proxy buffers request bodies): 10 MB is taken whole, a byte more is 413.
  // A raw request on purpose: the transport limit is what is tested (with its own timeout), not the contract.
  const agentId = new URL(page.url()).pathname.split("/").pop();
  const tenMb = Buffer.alloc(10 * 1024 * 1024, "Opening hours are nine to five on weekdays.\n");
  const post = (buf: Buffer) =>
    page.request.post(`/api/v1/reply-agents/${agentId}/documents`, {
      data: { filename: "big.txt", mimeType: "text/plain", contentBase64: buf.toString("base64") },
      // What the browser would send: a session's write needs the dashboard's Origin.
      headers: { origin: new URL(page.url()).origin },
      timeout: 60_000,
    });
  const big = await post(tenMb);
  expect(big.status(), await big.text()).toBe(201);
  expect((await big.json()).size).toBe(10 * 1024 * 1024);
  const over = await post(Buffer.concat([tenMb, Buffer.from("x")]));
  expect(over.status()).toBe(413);
  expect((await over.json()).code).toBe("PAYLOAD_TOO_LARGE");

  // The list shows the agent with its counts.
  await page.getByRole("link", { name: "← Reply agents" }).click();
  const row = page.getByRole("row", { name: new RegExp(`Helper ${suffix}`) });
  await expect(row).toContainText("3");
});
