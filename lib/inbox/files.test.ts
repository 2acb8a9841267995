import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { simpleParser } from "mailparser";
import { getDb } from "@/db/client";
import { ManualClock, systemClock } from "@/lib/clock";
import { closeAllTransports } from "@/lib/sending/transports";
import { call, makeWorkspace, sessionCookie, type TestWorkspace } from "@/test/helpers";
import { startMailWorld } from "@/test/mail-setup";
import { POST as CREATE_LEADS } from "@/app/api/v1/leads/route";
import { PUT as CONNECT } from "@/app/api/v1/mailboxes/by-email/[email]/route";
import { GET as THREAD } from "@/app/api/v1/replies/thread/[leadId]/route";
import { GET as DOWNLOAD } from "@/app/api/v1/replies/attachments/[id]/route";
import { POST as UPLOAD } from "@/app/api/v1/replies/uploads/route";
import { POST as SEND } from "@/app/api/v1/replies/[id]/send/route";
import { POST as FORWARD } from "@/app/api/v1/replies/[id]/forward/route";
import { POST as CREATE_CAMPAIGN } from "@/app/api/v1/campaigns/route";
import { POST as CREATE_STEP } from "@/app/api/v1/campaigns/[id]/steps/route";
import { POST as ADD_ATT } from "@/app/api/v1/campaigns/[id]/steps/[stepId]/attachments/route";
import { cleanupUploads, RECEIVED_FILE_LIMIT, storeReceivedFiles } from "./files";
import { messageFiles, replies } from "@/db/schema";
import { eq } from "drizzle-orm";
import type { Attachment } from "mailparser";
import { ingestMessage } from "./ingest";

let world: Awaited<ReturnType<typeof startMailWorld>>;
let ws: TestWorkspace;
beforeAll(async () => {
  world = await startMailWorld({ domain: "files.test", users: { "fay@files.test": "pw" } });
  ws = await makeWorkspace();
}, 60_000);
afterAll(async () => {
  closeAllTransports();
  await world.close();
});

const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");

async function receive(mbx: { id: string; workspaceId: string; email: string }) {
  const raw = [
    "From: Lou <lou@lead.test>",
    "To: fay@files.test",
    "Subject: Re: Proposal",
    "Message-ID: <withfiles@lead.test>",
    "MIME-Version: 1.0",
    'Content-Type: multipart/mixed; boundary="m"',
    "",
    "--m",
    'Content-Type: multipart/related; boundary="r"',
    "",
    "--r",
    "Content-Type: text/html",
    "",
    '<p>See attached.</p><img src="cid:logo@lead">',
    "--r",
    "Content-Type: image/png",
    "Content-ID: <logo@lead>",
    "Content-Disposition: inline",
    "Content-Transfer-Encoding: base64",
    "",
    PNG.toString("base64"),
    "--r--",
    "--m",
    'Content-Type: application/pdf; name="terms.pdf"',
    'Content-Disposition: attachment; filename="terms.pdf"',
    "Content-Transfer-Encoding: base64",
    "",
    Buffer.from("%PDF-1.4 terms").toString("base64"),
    "--m--",
    "",
  ].join("\r\n");
  return ingestMessage(getDb(), systemClock, mbx, await simpleParser(raw), { folder: "INBOX" });
}

describe("files in the inbox", () => {
  it("keeps received files (not inline logos), downloads them, sends uploads and attachments with replies, forwards, and reuses them in steps", async () => {
    const mbx = (await call(CONNECT, "PUT", "", { key: ws.fullKey, params: { email: "fay@files.test" }, body: { appPassword: "pw" } }))
      .body;
    const [leadId] = (await call(CREATE_LEADS, "POST", "/leads", { key: ws.fullKey, body: { leads: [{ email: "lou@lead.test" }] } })).body
      .leadIds;
    const r = await receive({ id: mbx.id, workspaceId: ws.workspaceId, email: "fay@files.test" });
    expect(r?.leadId).toBe(leadId);
    const thread = (await call(THREAD, "GET", "", { key: ws.readKey, params: { leadId } })).body;
    const inbound = thread.messages.find((m: any) => m.direction === "inbound");
    expect(inbound.attachments).toEqual([
      { id: expect.stringMatching(/^mfl_/), filename: "terms.pdf", contentType: "application/pdf", size: 14 },
    ]);
    const dl = await DOWNLOAD(new Request("http://localhost/x", { headers: { authorization: `Bearer ${ws.readKey}` } }), {
      params: Promise.resolve({ id: inbound.attachments[0].id }),
    });
    expect(dl.headers.get("content-disposition")).toBe("attachment; filename*=UTF-8''terms.pdf");
    expect(Buffer.from(await dl.arrayBuffer()).toString()).toBe("%PDF-1.4 terms");
    const other = await makeWorkspace();
    expect(
      (
        await DOWNLOAD(new Request("http://localhost/x", { headers: { authorization: `Bearer ${other.readKey}` } }), {
          params: Promise.resolve({ id: inbound.attachments[0].id }),
        })
      ).status,
    ).toBe(404);

    // Upload, then send it with a base64 attachment.
    const up = await UPLOAD(
      new Request("http://localhost/api/v1/replies/uploads", {
        method: "POST",
        headers: {
          authorization: `Bearer ${ws.fullKey}`,
          "content-type": "application/octet-stream",
          "x-filename": encodeURIComponent("pricé list.csv"),
          "x-content-type": "text/csv",
        },
        body: "a,b\n1,2\n",
      }),
    );
    expect(up.status).toBe(201);
    const upload = await up.json();
    expect(upload).toMatchObject({ filename: "pricé list.csv", size: 8 });
    const before = world.smtp.received.length;
    const sent = await call(SEND, "POST", "", {
      key: ws.fullKey,
      params: { id: r!.replyId },
      body: {
        body: "Here you go",
        uploadIds: [upload.id],
        attachments: [{ filename: "note.txt", contentType: "text/plain", contentBase64: Buffer.from("hello").toString("base64") }],
      },
    });
    expect(sent.status).toBe(200);
    const wire = world.smtp.received[before];
    expect(wire.parsed.attachments.map((a) => [a.filename, a.content.toString()]).sort()).toEqual([
      ["note.txt", "hello"],
      ["pricé list.csv", "a,b\n1,2\n"],
    ]);
    // An upload is sent once: using it again is a 404.
    expect(
      (await call(SEND, "POST", "", { key: ws.fullKey, params: { id: r!.replyId }, body: { body: "again", uploadIds: [upload.id] } }))
        .status,
    ).toBe(404);
    const eleven = Array.from({ length: 11 }, (_, i) => ({ filename: `f${i}.txt`, contentType: "text/plain", contentBase64: "aGk=" }));
    expect(
      (await call(SEND, "POST", "", { key: ws.fullKey, params: { id: r!.replyId }, body: { body: "x", attachments: eleven } })).status,
    ).toBe(400);
    const big = Buffer.alloc(11 * 1024 * 1024, 7).toString("base64");
    const tooBig = await call(SEND, "POST", "", {
      key: ws.fullKey,
      params: { id: r!.replyId },
      body: {
        body: "x",
        attachments: [
          { filename: "a", contentType: "x/y", contentBase64: big },
          { filename: "b", contentType: "x/y", contentBase64: big },
        ],
      },
    });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.code).toBe("PAYLOAD_TOO_LARGE");

    // Forward the original with its file.
    const fwd = await call(FORWARD, "POST", "", {
      cookie: await sessionCookie(ws.userId),
      params: { id: r!.replyId },
      body: { to: "boss@mine.test", body: "FYI" },
    });
    expect(fwd.body).toMatchObject({ forwarded: true, to: "boss@mine.test" });
    const f = world.smtp.received.at(-1)!;
    expect(f.to).toEqual(["boss@mine.test"]);
    expect(f.parsed.subject).toBe("Fwd: Re: Proposal");
    expect(f.parsed.text).toContain("FYI");
    expect(f.parsed.text).toContain("Forwarded message");
    expect(f.parsed.attachments.map((a) => a.filename)).toContain("terms.pdf");

    // A conversation's file can become a step attachment.
    const c = (await call(CREATE_CAMPAIGN, "POST", "/campaigns", { key: ws.fullKey, body: { name: "Files" } })).body;
    const s = (await call(CREATE_STEP, "POST", "", { key: ws.fullKey, params: { id: c.id }, body: { subject: "S", bodyTemplate: "B" } }))
      .body;
    const copy = await call(ADD_ATT, "POST", "", {
      key: ws.fullKey,
      params: { id: c.id, stepId: s.id },
      body: { fromAttachmentId: inbound.attachments[0].id, filename: "our-terms.pdf" },
    });
    expect(copy.body).toMatchObject({ filename: "our-terms.pdf", contentType: "application/pdf", size: 14 });
  });

  it("removes uploads that were never sent after a day", async () => {
    const up = await UPLOAD(
      new Request("http://localhost/api/v1/replies/uploads", {
        method: "POST",
        headers: { authorization: `Bearer ${ws.fullKey}`, "x-filename": "left.txt" },
        body: "bye",
      }),
    );
    expect(up.status).toBe(201);
    const missingName = await UPLOAD(
      new Request("http://localhost/api/v1/replies/uploads", {
        method: "POST",
        headers: { authorization: `Bearer ${ws.fullKey}` },
        body: "x",
      }),
    );
    expect(missingName.status).toBe(400);
    const later = new ManualClock(new Date(Date.now() + 25 * 3600_000));
    expect(await cleanupUploads(getDb(), later.now())).toBe(1);
  });

  it("keeps received files up to 15 MB each and 25 MB per message, and skips inline images", async () => {
    const [reply] = await getDb().select().from(replies).limit(1);
    const file = (name: string, bytes: number, extra: Partial<Attachment> = {}) =>
      ({
        filename: name,
        contentType: "application/octet-stream",
        size: bytes,
        content: Buffer.alloc(bytes, 1),
        contentDisposition: "attachment",
        related: false,
        ...extra,
      }) as unknown as Attachment;
    const kept = await storeReceivedFiles(getDb(), ws.workspaceId, reply.id, [
      file("too-big.bin", RECEIVED_FILE_LIMIT + 1),
      file("a.bin", 10 * 1024 * 1024),
      file("b.bin", 10 * 1024 * 1024),
      file("c.bin", 6 * 1024 * 1024), // would pass 25 MB for the message
      file("logo.png", 100, { contentType: "image/png", contentDisposition: "inline", related: true }),
      file("small.txt", 5),
    ]);
    expect(kept).toBe(3);
    const names = (await getDb().select().from(messageFiles).where(eq(messageFiles.replyId, reply.id))).map((f) => f.filename);
    expect(names).toEqual(expect.arrayContaining(["a.bin", "b.bin", "small.txt"]));
    expect(names).not.toEqual(expect.arrayContaining(["too-big.bin"]));
    expect(names).not.toContain("c.bin");
    expect(names).not.toContain("logo.png");
  });
});
