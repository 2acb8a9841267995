import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as CLICK } from "@/app/t/c/[token]/route";
import { GET as OPEN } from "@/app/t/o/[token]/route";
import { GET as GET_SETTING, PUT as PUT_SETTING } from "@/app/api/v1/settings/engagement/route";
import { getDb } from "@/db/client";
import { emailEvents, emails } from "@/db/schema";
import { ManualClock, systemClock, useClock } from "@/lib/clock";
import { clickToken, openToken } from "@/lib/sending/tracking";
import { workspaceEvents } from "@/test/campaign-setup";
import { insertEmail, insertMailbox } from "@/test/factories";
import { call, makeWorkspace } from "@/test/helpers";
import { machineCounts } from "./machine-counts";
import { campaignStats } from "./series";
import { flushTracking, requestFacts } from "./tracking-answer";
import { SETTLE_AFTER_MS, settleHits } from "./tracking-settle";
import { recordHits } from "./tracking-writer";

const clock = new ManualClock(new Date("2026-11-03T10:00:00Z"));
beforeAll(() => useClock(clock));
afterAll(() => useClock(systemClock));

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const OUTLOOK = "Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.17928; Pro)";
const LINKS = ["https://client.example/pricing", "https://client.example/case-study"];

async function sentEmail() {
  const ws = await makeWorkspace();
  const mbx = await insertMailbox(ws.workspaceId, `m@${ws.workspaceId}.test`);
  const campaignId = `cmp_${ws.workspaceId}`;
  const id = await insertEmail(ws.workspaceId, mbx.id, { campaignId, sentAt: clock.now(), createdAt: clock.now() });
  return { ws, id, campaignId };
}

const headers = (ua: string, ip: string) => ({ "user-agent": ua, "x-forwarded-for": ip });
async function pixel(id: string, ua: string, ip: string, method = "GET") {
  const token = openToken(id);
  await OPEN(new Request(`http://t.test/t/o/${token}`, { method, headers: headers(ua, ip) }), { params: Promise.resolve({ token }) });
}
async function click(id: string, url: string, ua: string, ip: string, method = "GET") {
  const token = clickToken(id, url);
  const r = await CLICK(new Request(`http://t.test/t/c/${token}?url=${encodeURIComponent(url)}`, { method, headers: headers(ua, ip) }), {
    params: Promise.resolve({ token }),
  });
  expect(r.status).toBe(302);
}
const row = async (id: string) => (await getDb().select().from(emails).where(eq(emails.id, id)))[0];
const classes = async (id: string) =>
  (await getDb().select().from(emailEvents).where(eq(emailEvents.emailId, id)))
    .map((h) => `${h.kind} ${h.method} ${h.class} ${h.reason}`)
    .sort();

describe("machine opens and scanner clicks are told from people", () => {
  it("a lead reached only by a gateway and Apple's proxy counts as not opened and not clicked, and fires no event", async () => {
    const { ws, id, campaignId } = await sentEmail();
    clock.advance(2_000); // a gateway on arrival: HEAD then GET of every link, then the pixel
    for (const url of LINKS) {
      await click(id, url, CHROME, "40.93.12.7", "HEAD");
      await click(id, url, CHROME, "40.93.12.7");
    }
    await pixel(id, CHROME, "40.93.12.7");
    clock.advance(3_000); // Apple's prefetch on delivery
    await pixel(id, "Mozilla/5.0", "17.58.100.4");
    await flushTracking();

    const e = await row(id);
    expect([e.openedAt, e.clickedAt]).toEqual([null, null]);
    expect([e.machineOpenedAt?.getTime(), e.machineClickedAt?.getTime()]).toEqual([
      clock.now().getTime() - 3_000,
      clock.now().getTime() - 3_000,
    ]);
    expect(await workspaceEvents(ws.workspaceId, "email.opened")).toHaveLength(0);
    expect(await workspaceEvents(ws.workspaceId, "email.clicked")).toHaveLength(0);
    expect(await classes(id)).toEqual([
      "CLICK GET scanner scanner-network",
      "CLICK GET scanner scanner-network",
      "CLICK HEAD scanner head-request",
      "CLICK HEAD scanner head-request",
      "OPEN GET proxy apple-prefetch",
      "OPEN GET scanner scanner-network",
    ]);
    const stats = (
      await campaignStats(getDb(), [{ id: campaignId, workspaceId: ws.workspaceId, trackOpens: true, trackClicks: true }])
    ).get(campaignId);
    expect(stats).toMatchObject({ openedCount: 0, clickedCount: 0, machineOpenedCount: 1, machineClickedCount: 1 });

    // The person reads it an hour later and clicks: counted once, the events carry the class.
    clock.advance(3_600_000);
    await pixel(id, OUTLOOK, "203.0.113.50");
    clock.advance(40_000);
    await click(id, LINKS[0], CHROME, "203.0.113.50");
    await flushTracking();
    const opened = await workspaceEvents(ws.workspaceId, "email.opened");
    const clicked = await workspaceEvents(ws.workspaceId, "email.clicked");
    expect([opened.length, clicked.length]).toEqual([1, 1]);
    expect(opened[0].data).toMatchObject({ class: "human", openedAt: new Date(clock.now().getTime() - 40_000).toISOString() });
    expect(clicked[0].data).toMatchObject({ class: "human", url: LINKS[0] });
    const after = (
      await campaignStats(getDb(), [{ id: campaignId, workspaceId: ws.workspaceId, trackOpens: true, trackClicks: true }])
    ).get(campaignId);
    expect(after).toMatchObject({ openedCount: 1, clickedCount: 1, machineOpenedCount: 0, machineClickedCount: 0 });
  });

  it("waits for the burst: two links of one email seconds apart are both the scanner's, the first one too", async () => {
    const { ws, id } = await sentEmail();
    clock.advance(3 * 3_600_000);
    await pixel(id, OUTLOOK, "198.51.100.9"); // the person opened earlier; a gateway re-scans later with a browser's agent
    clock.advance(600_000);
    await click(id, LINKS[0], CHROME, "192.0.2.80");
    clock.advance(1_200);
    await click(id, LINKS[1], CHROME, "192.0.2.80");
    await flushTracking();
    expect((await classes(id)).filter((c) => c.startsWith("CLICK"))).toEqual([
      "CLICK GET scanner every-link-at-once",
      "CLICK GET scanner every-link-at-once",
    ]);
    expect((await row(id)).clickedAt).toBeNull();
    expect(await workspaceEvents(ws.workspaceId, "email.clicked")).toHaveLength(0);
  });

  it("one network over six leads within a minute is a scanner; over two, people", async () => {
    const six = await Promise.all(Array.from({ length: 6 }, () => sentEmail()));
    const two = await Promise.all(Array.from({ length: 2 }, () => sentEmail()));
    clock.advance(2 * 3_600_000);
    for (const [i, e] of six.entries()) await pixel(e.id, CHROME, `45.33.77.${10 + i}`);
    for (const [i, e] of two.entries()) await pixel(e.id, CHROME, `45.33.78.${10 + i}`);
    await flushTracking();
    for (const e of six) expect(await classes(e.id)).toEqual(["OPEN GET scanner network-over-many-leads"]);
    for (const e of two) expect(await classes(e.id)).toEqual(["OPEN GET human mail-client-or-browser"]);
  });

  it("a hit stays unsettled until the hits that could follow it are in", async () => {
    const { id } = await sentEmail();
    clock.advance(3_600_000);
    const at = clock.now();
    expect(await recordHits(getDb(), [{ emailId: id, kind: "OPEN", url: null, at, userAgent: OUTLOOK, ip: "203.0.113.8" }])).toBe(1);
    expect((await settleHits(getDb(), new Date(at.getTime() + SETTLE_AFTER_MS - 1))).settled).toBe(0);
    expect((await row(id)).openedAt).toBeNull();
    const r = await settleHits(getDb(), new Date(at.getTime() + SETTLE_AFTER_MS));
    expect([r.settled, r.opened, r.byClass.human]).toEqual([1, 1, 1]);
    expect((await row(id)).openedAt?.getTime()).toBe(at.getTime());
  });

  it("a workspace that counts every hit counts the machines' (the setting is the admin's)", async () => {
    const { ws, id, campaignId } = await sentEmail();
    expect((await call(GET_SETTING, "GET", "/settings/engagement", { key: ws.readKey })).body).toEqual({ countMachineEngagement: false });
    const put = await call(PUT_SETTING, "PUT", "/settings/engagement", { key: ws.fullKey, body: { countMachineEngagement: true } });
    expect([put.status, put.body]).toEqual([200, { countMachineEngagement: true }]);
    expect(
      (await call(PUT_SETTING, "PUT", "/settings/engagement", { key: ws.fullKey, body: { countMachineEngagement: "yes" } })).status,
    ).toBe(400);
    clock.advance(1_000);
    await pixel(id, "Mozilla/5.0", "17.58.100.4", "HEAD");
    await flushTracking();
    const opened = await workspaceEvents(ws.workspaceId, "email.opened");
    expect(opened.map((e) => e.data.class)).toEqual(["scanner"]);
    const e = await row(id);
    expect([e.openedAt, e.machineOpenedAt]).toEqual([e.machineOpenedAt, expect.any(Date)]); // the machine's open is the counted one
    expect((await machineCounts(getDb(), { workspaceId: ws.workspaceId }, "campaign")).get(campaignId)).toBeUndefined(); // no lead machine-only
  });

  it("reads the client's address and agent from the request (the first forwarded address behind a proxy)", () => {
    const req = new Request("http://t.test/t/o/x", {
      method: "HEAD",
      headers: { "user-agent": "UA", "x-forwarded-for": "203.0.113.1, 10.0.0.2" },
    });
    expect(requestFacts(req)).toEqual({ method: "HEAD", userAgent: "UA", ip: "203.0.113.1" });
    expect(requestFacts(new Request("http://t.test/"))).toEqual({ method: "GET", userAgent: null, ip: null });
  });
});
