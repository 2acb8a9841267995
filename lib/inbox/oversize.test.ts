import { systemCtx } from "@/lib/ctx";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { imapState, replies } from "@/db/schema";
import { encryptSecret } from "@/lib/crypto/secretbox";
import { imapClient } from "@/lib/mail/imap";
import { systemClock } from "@/lib/clock";
import { makeWorkspace } from "@/test/helpers";
import { insertMailbox } from "@/test/factories";
import { startImapPeer } from "@/test/peers/imap";
import { MAX_MESSAGE_BYTES, syncMailbox } from "./sync";

let imap: Awaited<ReturnType<typeof startImapPeer>>;
beforeAll(async () => {
  imap = await startImapPeer({ users: { "big@over.test": "pw" } });
});
afterAll(() => imap.close());

describe("oversized messages", () => {
  it("skips a message over 25 MB without downloading it, and still reads the next one", async () => {
    const ws = await makeWorkspace();
    const m = await insertMailbox(ws.workspaceId, "big@over.test", {
      imapHost: imap.host,
      imapPort: imap.port,
      imapSecurity: "NONE",
      imapUsername: "big@over.test",
      imapPasswordEnc: encryptSecret("pw"),
    });
    const client = imapClient({ host: imap.host, port: imap.port, security: "NONE", username: "big@over.test", password: "pw" });
    await client.connect();
    const huge = `From: a@x.test\r\nSubject: huge\r\nMessage-ID: <huge@x.test>\r\n\r\n${"x".repeat(MAX_MESSAGE_BYTES + 1024)}\r\n`;
    await client.append("INBOX", huge);
    await client.append("INBOX", "From: a@x.test\r\nSubject: small\r\nMessage-ID: <small@x.test>\r\n\r\nhello\r\n");
    await client.logout();
    const r = await syncMailbox(systemCtx(undefined, { db: getDb(), clock: systemClock }), m);
    expect(r).toMatchObject({ fetched: 1, stored: 1 });
    const rows = await getDb().select().from(replies).where(eq(replies.mailboxId, m.id));
    expect(rows.map((x) => x.subject)).toEqual(["small"]);
    const [state] = await getDb()
      .select()
      .from(imapState)
      .where(and(eq(imapState.mailboxId, m.id), eq(imapState.folder, "INBOX")));
    expect(state.lastUid).toBe(2); // the big one is passed over, not retried forever
  }, 60_000);
});
