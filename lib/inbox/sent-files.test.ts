import { systemCtx } from "@/lib/ctx";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { simpleParser } from "mailparser";
import { getDb } from "@/db/client";
import { ManualClock } from "@/lib/clock";
import { encryptSecret } from "@/lib/crypto/secretbox";
import { imapClient } from "@/lib/mail/imap";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { insertMailbox } from "@/test/factories";
import { startImapPeer, type ImapPeer } from "@/test/peers/imap";
import { POST as CREATE_LEADS } from "@/app/api/v1/leads/route";
import { GET as THREAD } from "@/app/api/v1/replies/thread/[leadId]/route";
import { GET as DOWNLOAD } from "@/app/api/v1/replies/attachments/[id]/route";
import { ingestOwnMessage } from "./ingest";
import { syncMailbox } from "./sync";

let peer: ImapPeer;
let ws: TestWorkspace;
const clock = new ManualClock(new Date("2026-11-03T10:00:00Z"));
const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");

beforeAll(async () => {
  peer = await startImapPeer({ users: { "sue@sent.test": "pw" } });
  ws = await makeWorkspace();
}, 60_000);
afterAll(async () => peer.close());

/** An answer written in a mail client: html with an inline logo, and a PDF. */
function answer(id: string, to: string, file: { name: string; text: string }) {
  return [
    "From: Sue <sue@sent.test>",
    `To: ${to}`,
    "Subject: Re: Idea",
    `Message-ID: <${id}@sent.test>`,
    "Date: Tue, 03 Nov 2026 12:00:00 +0000",
    "MIME-Version: 1.0",
    'Content-Type: multipart/mixed; boundary="m"',
    "",
    "--m",
    'Content-Type: multipart/related; boundary="r"',
    "",
    "--r",
    "Content-Type: text/html",
    "",
    '<p>The offer, as promised.</p><img src="cid:logo@sent">',
    "--r",
    "Content-Type: image/png",
    "Content-ID: <logo@sent>",
    "Content-Disposition: inline",
    "Content-Transfer-Encoding: base64",
    "",
    PNG.toString("base64"),
    "--r--",
    "--m",
    `Content-Type: application/pdf; name="${file.name}"`,
    `Content-Disposition: attachment; filename="${file.name}"`,
    "Content-Transfer-Encoding: base64",
    "",
    Buffer.from(file.text).toString("base64"),
    "--m--",
    "",
  ].join("\r\n");
}

async function download(id: string): Promise<string> {
  const res = await DOWNLOAD(new Request("http://localhost/x", { headers: { authorization: `Bearer ${ws.readKey}` } }), {
    params: Promise.resolve({ id }),
  });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer()).toString();
}

describe("answers from the Sent folder", () => {
  it("keep their files, like received ones (inline images skipped), through the sync and direct ingestion", async () => {
    const mbx = await insertMailbox(ws.workspaceId, "sue@sent.test", {
      imapHost: peer.host,
      imapPort: peer.port,
      imapPasswordEnc: encryptSecret("pw"),
    });
    const [leadId] = (await call(CREATE_LEADS, "POST", "/leads", { key: ws.fullKey, body: { leads: [{ email: "lou@lead.test" }] } })).body
      .leadIds;
    const c = imapClient({ host: peer.host, port: peer.port, security: "NONE", username: "sue@sent.test", password: "pw" });
    await c.connect();
    await c.append("Sent", answer("s1", "Lou <lou@lead.test>", { name: "offer.pdf", text: "%PDF-1.4 offer" }));
    await c.logout();

    expect((await syncMailbox(systemCtx(undefined, { db: getDb(), clock }), mbx)).sent).toBe(1);
    let thread = (await call(THREAD, "GET", "", { key: ws.readKey, params: { leadId } })).body;
    const own = thread.messages.filter((m: { kind?: string }) => m.kind === "reply");
    expect(own).toHaveLength(1);
    expect(own[0]).toMatchObject({ sentBy: "HUMAN", direction: "outbound" });
    expect(own[0].attachments).toEqual([
      { id: expect.stringMatching(/^mfl_/), filename: "offer.pdf", contentType: "application/pdf", size: 14 },
    ]);
    expect(await download(own[0].attachments[0].id)).toBe("%PDF-1.4 offer");

    // One message ingested on its own (no transaction around it): the same.
    const id = await ingestOwnMessage(
      getDb(),
      clock,
      { id: mbx.id, workspaceId: ws.workspaceId, email: mbx.email },
      await simpleParser(answer("s2", "lou@lead.test", { name: "terms.pdf", text: "%PDF-1.4 terms" })),
    );
    expect(id).toMatch(/^srp_/);
    thread = (await call(THREAD, "GET", "", { key: ws.readKey, params: { leadId } })).body;
    const second = thread.messages.find((m: { id?: string }) => m.id === id);
    expect(second.attachments.map((a: { filename: string }) => a.filename)).toEqual(["terms.pdf"]);
    expect(await download(second.attachments[0].id)).toBe("%PDF-1.4 terms");
  });
});
