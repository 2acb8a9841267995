import { eq } from "drizzle-orm";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { leads, placementResults, placementTests, replies } from "@/db/schema";
import { ManualClock } from "@/lib/clock";
import { encryptSecret } from "@/lib/crypto/secretbox";
import { systemCtx } from "@/lib/ctx";
import { newId } from "@/lib/ids";
import { ingestMessage } from "@/lib/inbox/ingest";
import { syncMailbox } from "@/lib/inbox/sync";
import { insertMailbox } from "@/test/factories";
import { makeWorkspace } from "@/test/helpers";
import { appendMessages } from "@/test/mail-messages";
import { type ImapPeer, startImapPeer } from "@/test/peers/imap";
import { placementProbeIds } from "./probes";

const clock = new ManualClock(new Date("2026-11-10T10:00:00Z"));
const seed = { user: "seed@probe.test", password: "pw" };
let peer: ImapPeer;
beforeAll(async () => {
  peer = await startImapPeer({ users: { [seed.user]: seed.password } });
});
afterAll(() => peer.close());

const mail = (id: string, from: string, body: string) =>
  [
    `From: ${from}`,
    `To: ${seed.user}`,
    "Subject: Quick question",
    `Message-ID: ${id}`,
    "Date: Tue, 10 Nov 2026 09:00:00 +0000",
    "",
    body,
    "",
  ].join("\n");

/** A workspace whose sender ran a placement test with one result per Message-ID given. */
async function probesRecorded(messageIds: string[]) {
  const ws = await makeWorkspace();
  const sender = await insertMailbox(ws.workspaceId, "sender@probe-from.test");
  const testId = newId("plt");
  await getDb()
    .insert(placementTests)
    .values({
      id: testId,
      workspaceId: ws.workspaceId,
      batchId: newId("plb"),
      mailboxId: sender.id,
      status: "RUNNING",
      subject: "Quick question",
      bodyText: "hi",
      deadlineAt: clock.now(),
    });
  await getDb()
    .insert(placementResults)
    .values(messageIds.map((messageId) => ({ id: newId("plr"), testId, seedEmail: seed.user, provider: "OTHER", messageId })));
  return { ws, sender };
}

describe("placement probes in a seed's inbox sync", () => {
  it("finds the probes among a batch's Message-IDs in one read, and none for an empty batch", async () => {
    await probesRecorded(["<p1@probe-from.test>", "<p2@probe-from.test>"]);
    expect(await placementProbeIds(getDb(), [])).toEqual(new Set());
    const found = await placementProbeIds(getDb(), [
      "<p1@probe-from.test>",
      "<other@x.test>",
      "<p2@probe-from.test>",
      "<p1@probe-from.test>",
    ]);
    expect(found).toEqual(new Set(["<p1@probe-from.test>", "<p2@probe-from.test>"]));
  });

  it("keeps probes out of the seed workspace's inbox (INBOX and Junk, even from a lead's address) while real mail is stored", async () => {
    const { ws, sender } = await probesRecorded(["<in@probe-from.test>", "<junk@probe-from.test>", "<direct@probe-from.test>"]);
    // The sender's address is a lead of the seed's workspace: without the check the probe would be a reply.
    await getDb()
      .insert(leads)
      .values({ id: newId("lead"), workspaceId: ws.workspaceId, email: sender.email });
    const mbx = await insertMailbox(ws.workspaceId, seed.user, {
      isSeed: true,
      imapHost: peer.host,
      imapPort: peer.port,
      imapSecurity: "NONE",
      imapUsername: seed.user,
      imapPasswordEnc: encryptSecret(seed.password),
    });
    const login = { username: seed.user, password: seed.password };
    await appendMessages(peer, login, [
      mail("<in@probe-from.test>", sender.email, "probe"),
      mail("<real@else.test>", "someone@else.test", "hello"),
    ]);
    await appendMessages(peer, login, [mail("<junk@probe-from.test>", sender.email, "probe")], "Junk");
    const totals = await syncMailbox(systemCtx(undefined, { db: getDb(), clock }), mbx);
    expect(totals.stored).toBe(1);
    const rows = await getDb().select().from(replies).where(eq(replies.mailboxId, mbx.id));
    expect(rows.map((r) => r.messageId)).toEqual(["<real@else.test>"]);

    const mb = { id: mbx.id, workspaceId: mbx.workspaceId, email: mbx.email };
    const parsed = await simpleParser(mail("<direct@probe-from.test>", sender.email, "probe"));
    expect(await ingestMessage(getDb(), clock, mb, parsed, { folder: "INBOX" })).toBeUndefined();
  }, 60_000);
});
