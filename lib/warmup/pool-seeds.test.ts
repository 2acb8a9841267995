import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { warmupMessages } from "@/db/schema";
import { ManualClock, systemClock, useClock } from "@/lib/clock";
import { systemCtx } from "@/lib/ctx";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { type MailNetwork, startMailNetwork } from "@/test/peers/mail-network";
import { POST as IMPORT } from "@/app/api/v1/mailboxes/bulk-import/route";
import { POST as START } from "@/app/api/v1/mailboxes/[id]/start-warmup/route";
import { runWarmup } from "./job";

let net: MailNetwork;
let ws: TestWorkspace;
const clock = new ManualClock(new Date("2026-11-03T08:00:00Z"));

beforeAll(async () => {
  process.env.WARMUP_SPREAD_S = "300";
  net = await startMailNetwork({
    accounts: { "solo@pool.test": "pw-solo", "seed1@seedpool.test": "pw-s1", "seed2@seedpool.test": "pw-s2" },
    junk: (to) => to === "seed1@seedpool.test",
  });
  const file = path.join(mkdtempSync(path.join(tmpdir(), "seeds-")), "seeds.json");
  writeFileSync(
    file,
    JSON.stringify(
      ["seed1@seedpool.test", "seed2@seedpool.test"].map((e) => {
        const a = net.account(e);
        return { email: e, imapHost: a.imap.host, imapPort: a.imap.port, imapSecurity: "NONE", imapPassword: a.password };
      }),
    ),
  );
  process.env.SEED_POOL_FILE = file;
  ws = await makeWorkspace();
  const r = await call(IMPORT, "POST", "/mailboxes/bulk-import", {
    key: ws.fullKey,
    body: { mailboxes: [net.importItem("solo@pool.test")] },
  });
  useClock(clock);
  const id = r.body.mailboxes[0].id;
  expect(
    (await call(START, "POST", `/mailboxes/${id}/start-warmup`, { key: ws.fullKey, params: { id }, body: { startingVolume: 6 } })).status,
  ).toBe(200);
}, 60_000);
afterAll(async () => {
  useClock(systemClock);
  delete process.env.WARMUP_SPREAD_S;
  delete process.env.SEED_POOL_FILE;
  await net?.close();
});

describe("the installation's seed pool in the warmup network", () => {
  it("a mailbox with no partner in its workspace warms with the SEED_POOL_FILE seeds, which are read over IMAP: seen, flagged, out of spam", async () => {
    const ctx = systemCtx(undefined, { db: getDb(), clock });
    for (let s = 0; s <= 330; s += 30) {
      await runWarmup(ctx);
      clock.advance(30_000);
    }
    const rows = await getDb().select().from(warmupMessages).where(eq(warmupMessages.workspaceId, ws.workspaceId));
    expect(rows).toHaveLength(6);
    expect(new Set(rows.map((r) => r.toEmail))).toEqual(new Set(["seed1@seedpool.test", "seed2@seedpool.test"]));
    expect(rows.every((r) => r.toMailboxId === null && r.status === "SENT")).toBe(true);
    // The seeds are read a minute after their last read at the latest.
    clock.advance(61_000);
    await runWarmup(ctx);
    const after = await getDb().select().from(warmupMessages).where(eq(warmupMessages.workspaceId, ws.workspaceId));
    expect(after.every((r) => r.receivedAt !== null)).toBe(true);
    for (const r of after)
      expect([r.toEmail, r.receivedFolder, r.rescuedFromSpam]).toEqual(
        r.toEmail === "seed1@seedpool.test" ? [r.toEmail, "Junk", true] : [r.toEmail, "INBOX", false],
      );
    expect(net.account("seed1@seedpool.test").folder("Junk")).toHaveLength(0);
    for (const m of [...net.account("seed1@seedpool.test").folder("INBOX"), ...net.account("seed2@seedpool.test").folder("INBOX")])
      expect(m.flags).toEqual(expect.arrayContaining(["\\Seen", "\\Flagged"]));
  }, 60_000);
});
