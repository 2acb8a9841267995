import { expect, test } from "@playwright/test";
import { useSpecMailPeers } from "./support/mail-peers";
import { signInAsOwner } from "./support/session";

test.use({ baseURL: process.env.E2E_BASE_URL });

/**
 * Received HTML with script and mXSS payloads, shown in the dashboard in Chromium.
 * Every payload tries to reach a counting server — scripts with `/script?…`, passive loads (styles,
 * frames, forms, media, refreshes, srcsets, base tricks) with `/load?…`. Before "Show images": not one
 * request leaves the page, to that server or anywhere else. After: the remote image loads, and still
 * no script has run.
 */
const stamp = Date.now().toString(36);
const MAILBOX = { email: `hx-${stamp}@hostile-e2e.test`, password: "hostilepassword1234", senderName: "Hal Hostile" };
const mail = useSpecMailPeers(MAILBOX, { rejectRecipients: [] });

function payloads(base: string): string {
  const run = (k: string) => `fetch('${base}/script?${k}');new Image().src='${base}/script?${k}-img'`;
  const load = (k: string) => `${base}/load?${k}`;
  // The page's own content and its remote image first: an unclosed trap may swallow what follows it.
  return [
    `<p>Hello, a <b>normal</b> paragraph between the traps.</p>`,
    `<img src="${base}/pixel.gif" alt="tracker" width="1" height="1">`,
    `<script>${run("inline")}</script>`,
    `<script src="${base}/script?src"></script>`,
    `<img src="x" onerror="${run("onerror")}">`,
    `<svg><script>${run("svg-script")}</script></svg>`,
    `<svg onload="${run("svg-onload")}"></svg>`,
    `<math><mtext><table><mglyph><style><img src=x onerror="${run("mxss-math")}"></style></mglyph></table></mtext></math>`,
    `<noscript><p title="</noscript><img src=x onerror=&quot;${run("mxss-noscript")}&quot;>"></p></noscript>`,
    `<details open ontoggle="${run("ontoggle")}">x</details>`,
    `<input autofocus onfocus="${run("onfocus")}">`,
    `<a href="javascript:${run("href")}" id="js-link">a link</a>`,
    `<iframe src="${load("iframe")}"></iframe><iframe srcdoc="<script>${run("srcdoc")}</script>"></iframe>`,
    `<object data="${load("object")}"></object><embed src="${load("embed")}">`,
    `<link rel="stylesheet" href="${load("link-css")}"><link rel="prefetch" href="${load("prefetch")}">`,
    `<style>@import url("${load("import")}"); body { background: url("${load("css-bg")}") }</style>`,
    `<div style="background-image: url('${load("inline-style")}')">styled</div>`,
    `<meta http-equiv="refresh" content="0;url=${load("refresh")}">`,
    `<base href="${base}/"><img src="load?base-relative">`,
    `<img srcset="${load("srcset")} 1x"><picture><source srcset="${load("picture")}"><img alt="p"></picture>`,
    `<video poster="${load("poster")}" src="${load("video")}"></video><audio src="${load("audio")}"></audio>`,
    `<table background="${load("table-bg")}"><tr><td>t</td></tr></table>`,
    `<form action="${load("form")}"><input type="image" src="${load("input-image")}"><button>go</button></form>`,
    `<template><img src="${load("template")}" onerror="${run("template")}"></template>`,
    `<form><math><mtext></form><form><mglyph><svg><mtext><style><path id="</style><img onerror=${run("mxss-form")} src>">`,
  ].join("\n");
}

function hostileMessage(subject: string, base: string): string {
  return [
    `From: Trap Sender <trap-${stamp}@traps-e2e.example>`,
    `To: ${MAILBOX.email}`,
    `Subject: ${subject}`,
    `Message-ID: <trap-${stamp}@traps-e2e.example>`,
    `Date: ${new Date().toUTCString()}`,
    "MIME-Version: 1.0",
    "Content-Type: text/html; charset=utf-8",
    "",
    `<html><head><script>${"fetch('" + base + "/script?head')"}</script></head><body>${payloads(base)}</body></html>`,
    "",
  ].join("\r\n");
}

test("received HTML runs no script and loads nothing before Show images", async ({ page }) => {
  test.setTimeout(180_000);
  const app = new URL(process.env.E2E_BASE_URL ?? "http://127.0.0.1").origin;
  const outside: string[] = [];
  page.on("request", (r) => {
    if (!r.url().startsWith(app) && !r.url().startsWith("data:") && !r.url().startsWith("about:")) outside.push(r.url());
  });
  let dialogs = 0;
  page.on("dialog", (d) => {
    dialogs++;
    void d.dismiss();
  });
  await signInAsOwner(page, "/inbox");
  await mail.importMailbox(page);
  const subject = `Traps ${stamp}`;
  await mail.deliver(hostileMessage(subject, mail.serverUrl));

  await page.getByRole("tab", { name: /^Unmatched/ }).click();
  const row = page.getByRole("list", { name: "Unmatched messages" }).getByTestId("unmatched-row").filter({ hasText: subject });
  await expect(async () => {
    await page.reload();
    await expect(row).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 90_000, intervals: [1_000, 2_000] });
  await row.getByRole("button").click();
  const pane = page.getByRole("region", { name: "Unmatched message" });
  const frame = pane.frameLocator('iframe[title^="Message from"]');
  await expect(frame.locator("body")).toContainText("a normal paragraph between the traps");
  await expect(pane.locator('iframe[title^="Message from"]')).toHaveAttribute("sandbox", "");
  // Give anything that would fire (autofocus, toggles, refreshes, lazy loads) time to do so.
  await frame.locator("body").click({ position: { x: 5, y: 5 } });
  await page.waitForTimeout(1_500);
  expect(outside, "requests that left the page before Show images").toEqual([]);
  expect(mail.otherRequests, "payload requests before Show images").toEqual([]);
  expect(mail.pixelHits).toBe(0);
  expect(await frame.locator("script, iframe, object, embed, link, base[href], svg, math, template").count()).toBe(0);
  // The frame's own head stays (charset, the Content-Security-Policy, no referrer, and a base that only sets target); forms stay inert, without an action.
  expect(
    await frame.locator("meta").evaluateAll((ms) => ms.map((m) => m.getAttribute("http-equiv") ?? m.getAttribute("name") ?? "charset")),
  ).toEqual(["charset", "Content-Security-Policy", "referrer"]);
  expect(await frame.locator("form[action], [formaction], [onerror], [onload], [onfocus], [ontoggle]").count()).toBe(0);

  await pane.getByRole("button", { name: "Show images" }).click();
  await expect.poll(() => mail.pixelHits, { timeout: 15_000 }).toBeGreaterThan(0);
  await page.waitForTimeout(1_000);
  expect(
    mail.otherRequests.filter((u) => u.startsWith("/script")),
    "scripts that ran",
  ).toEqual([]);
  expect(dialogs).toBe(0);
  await expect(page).toHaveURL(/\/inbox/);
});
