import { systemCtx } from "../ctx";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, inArray } from "drizzle-orm";
import { getDb } from "@/db/client";
import { imapState, mailboxes, replies } from "@/db/schema";
import { ManualClock, systemClock, useClock } from "@/lib/clock";
import { encryptSecret } from "@/lib/crypto/secretbox";
import { imapClient } from "@/lib/mail/imap";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { insertMailbox } from "@/test/factories";
import { startImapPeer, type ImapPeer } from "@/test/peers/imap";
import { GET as ISSUES } from "@/app/api/v1/mailboxes/issues/route";
import { sidecarConnections } from "./connections";
import { inboxSyncJob } from "@/inngest/functions/inbox-sync";
import { MAX_RETRY_MS, syncMailbox } from "./sync";

let peer: ImapPeer;
let ws: TestWorkspace;
const clock = new ManualClock(new Date("2026-11-03T10:00:00Z"));
const MIN = 60_000;

beforeAll(async () => {
  peer = await startImapPeer({ users: { "hal@fair.test": "pw" } });
  ws = await makeWorkspace();
  useClock(clock); // the routes' clock
}, 60_000);
afterAll(async () => {
  useClock(systemClock);
  await sidecarConnections.closeAll();
  await peer.close();
});

async function append(id: string) {
  const c = imapClient({ host: peer.host, port: peer.port, security: "NONE", username: "hal@fair.test", password: "pw" });
  await c.connect();
  await c.append(
    "INBOX",
    [`From: lee@lead.test`, "To: hal@fair.test", "Subject: Re: Idea", `Message-ID: <${id}@lead.test>`, "", "Sounds good", ""].join("\r\n"),
  );
  await c.logout();
}

const run = () =>
  inboxSyncJob.run(systemCtx(undefined, { db: getDb(), clock })) as Promise<{ mailboxes: number; stored: number; failed: number }>;
const inbox = async (id: string) =>
  (
    await getDb()
      .select()
      .from(imapState)
      .where(and(eq(imapState.mailboxId, id), eq(imapState.folder, "INBOX")))
  )[0];
const row = async (id: string) => (await getDb().select().from(mailboxes).where(eq(mailboxes.id, id)))[0];

describe("the reply sync job with failing mailboxes", () => {
  it("does not let more failing mailboxes than a cycle claims starve a healthy one, and reports them READ_FAILING after 30 minutes", async () => {
    // 25 mailboxes whose IMAP server refuses connections (port 1), never synced: they sort first.
    const failing = await Promise.all(Array.from({ length: 25 }, (_, i) => insertMailbox(ws.workspaceId, `down${i}@fair.test`)));
    const healthy = await insertMailbox(ws.workspaceId, "hal@fair.test", {
      imapHost: peer.host,
      imapPort: peer.port,
      imapPasswordEnc: encryptSecret("pw"),
    });
    await syncMailbox(systemCtx(undefined, { db: getDb(), clock }), healthy); // synced before: its INBOX state has a time, the failing ones none
    clock.advance(2 * MIN);
    await append("r1");

    // Cycle 1 takes 20 failing mailboxes (the batch); cycle 2 the other 5 and the healthy one.
    const c1At = clock.now().getTime();
    const c1 = await run();
    expect(c1).toMatchObject({ mailboxes: 20, failed: 20, stored: 0 });
    clock.advance(5_000);
    const c2 = await run();
    expect(c2).toMatchObject({ mailboxes: 6, failed: 5, stored: 1 });
    expect(await getDb().select({ id: replies.id }).from(replies).where(eq(replies.mailboxId, healthy.id))).toHaveLength(1);

    // Each failure is recorded: READ_FAILING's clock runs, with the server's error, and the retry time is a poll interval away.
    const ids = failing.map((f) => f.id);
    const rows = await getDb()
      .select({ m: mailboxes, s: imapState })
      .from(mailboxes)
      .innerJoin(imapState, and(eq(imapState.mailboxId, mailboxes.id), eq(imapState.folder, "INBOX")))
      .where(inArray(mailboxes.id, ids));
    expect(rows).toHaveLength(25);
    for (const { m, s } of rows) {
      expect([c1At, c1At + 5_000]).toContain(m.readFailingSince!.getTime());
      expect(m.readError).toMatch(/ECONNREFUSED/);
      expect(s.leasedUntil!.getTime() - m.readFailingSince!.getTime()).toBe(MIN);
      expect(s.lastSyncAt).toBeNull();
    }
    clock.advance(5_000);
    expect(await run()).toMatchObject({ mailboxes: 0 }); // nothing due: the failing ones wait for their retry time

    // Later: a new reply; the healthy mailbox is due again and comes before the failing ones whose retry time came.
    clock.advance(MIN);
    await append("r2");
    const c4 = await run();
    expect(c4).toMatchObject({ mailboxes: 20, stored: 1, failed: 19 });
    // A failure while the connection backs off is recorded with the error that started the backoff.
    for (const m of await getDb().select().from(mailboxes).where(inArray(mailboxes.id, ids)))
      expect(m.readError).toMatch(/^connect ECONNREFUSED/);

    // Still failing after 30 minutes: READ_FAILING. Their retry times grow (at most MAX_RETRY_MS apart), so they are tried far less than every minute.
    let attempts = 0;
    for (let t = 0; t < 30; t++) {
      clock.advance(MIN);
      attempts += (await run()).failed;
    }
    expect(attempts).toBeGreaterThanOrEqual(25 * 6);
    expect(attempts).toBeLessThan(25 * 12);
    for (const s of await getDb().select().from(imapState).where(inArray(imapState.mailboxId, ids)))
      expect(s.leasedUntil!.getTime() - clock.now().getTime()).toBeLessThanOrEqual(MAX_RETRY_MS);
    const issues = (await call(ISSUES, "GET", "", { key: ws.readKey })).body;
    expect(issues.mailboxes).toBe(25);
    expect(issues.issues.filter((x: { kind: string }) => x.kind === "READ_FAILING")).toHaveLength(25);
    expect(issues.issues[0].detail).toMatch(/ECONNREFUSED/);
    expect(await getDb().select({ id: replies.id }).from(replies).where(eq(replies.mailboxId, healthy.id))).toHaveLength(2);
  });

  it("keeps READ_FAILING's clock for a failure the login check does not see, and clears it when a sync works again", async () => {
    const other = await makeWorkspace();
    const m = await insertMailbox(other.workspaceId, "hal@fair.test", {
      imapHost: peer.host,
      imapPort: peer.port,
      imapPasswordEnc: encryptSecret("pw"),
    });
    await getDb()
      .update(mailboxes)
      .set({ readFailingSince: new Date("2026-01-01T00:00:00Z") })
      .where(
        inArray(
          mailboxes.id,
          (await getDb().select({ id: mailboxes.id }).from(mailboxes).where(eq(mailboxes.workspaceId, ws.workspaceId))).map((x) => x.id),
        ),
      );
    await getDb()
      .update(imapState)
      .set({ leasedUntil: new Date("2099-01-01T00:00:00Z") })
      .where(
        inArray(
          imapState.mailboxId,
          (await getDb().select({ id: mailboxes.id }).from(mailboxes).where(eq(mailboxes.workspaceId, ws.workspaceId))).map((x) => x.id),
        ),
      ); // the first test's mailboxes out of the way
    const t0 = clock.now();
    expect(await run()).toMatchObject({ mailboxes: 1, failed: 0 });
    expect((await inbox(m.id)).lastSyncAt).toEqual(t0);

    // Reading breaks (the server is unreachable for the sync; the login check is not run here).
    await getDb().update(mailboxes).set({ imapPort: 1 }).where(eq(mailboxes.id, m.id));
    clock.advance(2 * MIN);
    expect(await run()).toMatchObject({ mailboxes: 1, failed: 1 });
    expect((await row(m.id)).readFailingSince).toEqual(clock.now());
    // The login check finds the login fine and clears it; the next failure puts the clock back to the last good sync.
    await getDb().update(mailboxes).set({ readFailingSince: null, readError: null }).where(eq(mailboxes.id, m.id));
    clock.advance(10_000);
    expect(await run()).toMatchObject({ mailboxes: 1, failed: 1 }); // cleared: tried at once, not at its retry time
    expect((await row(m.id)).readFailingSince).toEqual(t0);
    clock.advance(29 * MIN);
    const issues = (await call(ISSUES, "GET", "", { key: other.readKey })).body;
    expect(issues.issues).toEqual([expect.objectContaining({ mailboxId: m.id, kind: "READ_FAILING", since: t0.toISOString() })]);

    // Readable again: the next sync clears the failure and the retry time.
    await getDb().update(mailboxes).set({ imapPort: peer.port }).where(eq(mailboxes.id, m.id));
    expect(await run()).toMatchObject({ mailboxes: 1, failed: 0 });
    expect(await row(m.id)).toMatchObject({ readFailingSince: null, readError: null });
    expect((await inbox(m.id)).leasedUntil).toBeNull();
    expect((await call(ISSUES, "GET", "", { key: other.readKey })).body.issues).toEqual([]);
  });
});
