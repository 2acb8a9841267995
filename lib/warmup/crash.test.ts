import { killWorker, startWorker as spawnWorker } from "@/test/worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { warmupMessages } from "@/db/schema";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { type MailNetwork, startMailNetwork } from "@/test/peers/mail-network";
import { POST as IMPORT } from "@/app/api/v1/mailboxes/bulk-import/route";
import { POST as START } from "@/app/api/v1/mailboxes/[id]/start-warmup/route";

const ACCOUNTS = ["wa@crashnet.test", "wb@crashnet.test", "wc@crashnet.test"];
const TARGET = 12;
let net: MailNetwork;
let ws: TestWorkspace;

beforeAll(async () => {
  net = await startMailNetwork({ accounts: Object.fromEntries(ACCOUNTS.map((a) => [a, "pw"])), dataDelayMs: 120 });
  ws = await makeWorkspace();
  const r = await call(IMPORT, "POST", "/mailboxes/bulk-import", {
    key: ws.fullKey,
    body: { mailboxes: ACCOUNTS.map((a) => net.importItem(a)) },
  });
  for (const m of r.body.mailboxes) {
    const s = await call(START, "POST", `/mailboxes/${m.id}/start-warmup`, {
      key: ws.fullKey,
      params: { id: m.id },
      body: { startingVolume: TARGET, replyRateMinPct: 0, replyRateMaxPct: 0 },
    });
    expect(s.status).toBe(200);
  }
}, 60_000);
afterAll(() => net?.close());

/** The real sidecar with the day's volume spread over 4 seconds. */
const startWorker = () => spawnWorker({ WARMUP_SPREAD_S: "4" });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rows = () => getDb().select().from(warmupMessages).where(eq(warmupMessages.workspaceId, ws.workspaceId));

describe("warmup, at most once across crashes", () => {
  it("kills the sidecar mid-warmup again and again: no warmup email is sent twice and each mailbox's day count stays right", async () => {
    for (let round = 0; round < 5; round++) {
      const w = startWorker();
      const before = net.delivered.length;
      const deadline = Date.now() + 20_000;
      while (net.delivered.length === before && Date.now() < deadline) await sleep(20);
      await sleep(30 + Math.floor(Math.random() * 250));
      await killWorker(w);
      // The dead worker's leases run out in minutes; move them back instead of waiting.
      await getDb().execute(sql`update mailbox_warmups set lease_until = null`);
    }
    const w = startWorker();
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const r = await rows();
      if (r.filter((x) => x.depth === 0).length >= TARGET * ACCOUNTS.length) break;
      await sleep(100);
    }
    await sleep(300);
    await killWorker(w);

    const all = (await rows()).filter((r) => r.depth === 0);
    // The SMTP peer got no Message-ID twice.
    const ids = net.delivered.map((d) => d.messageId);
    expect(new Set(ids).size).toBe(ids.length);
    // Each mailbox started exactly its day's target: rows cut off mid-send (SENDING) count and are never resent.
    const perSender = new Map<string, number>();
    for (const r of all) perSender.set(r.fromMailboxId, (perSender.get(r.fromMailboxId) ?? 0) + 1);
    expect([...perSender.values()]).toEqual([TARGET, TARGET, TARGET]);
    expect(all.every((r) => r.status === "SENT" || r.status === "SENDING")).toBe(true);
    const delivered = new Set(ids);
    // Every SENT row was delivered; a SENDING row was delivered at most once (or not at all).
    expect(all.filter((r) => r.status === "SENT").every((r) => delivered.has(r.messageId))).toBe(true);
    expect(net.delivered.length).toBeLessThanOrEqual(all.length);
    console.log(
      `warmup crash test: ${all.filter((r) => r.status === "SENDING").length} warmup emails cut off mid-send; the peer got ${net.delivered.length} of ${all.length}`,
    );
  }, 300_000);
});
