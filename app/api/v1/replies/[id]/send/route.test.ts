import { beforeAll, describe, expect, it } from "vitest";
import { simpleParser } from "mailparser";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { messageFiles } from "@/db/schema";
import { systemClock } from "@/lib/clock";
import { ingestMessage } from "@/lib/inbox/ingest";
import { SEND_REPLY_BODY_LIMIT } from "@/lib/api/contracts/inbox";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { insertMailbox } from "@/test/factories";
import { POST as CREATE_LEADS } from "@/app/api/v1/leads/route";
import { POST as SEND } from "./route";

let ws: TestWorkspace;
let replyId: string;
const MB = 1024 * 1024;

beforeAll(async () => {
  ws = await makeWorkspace();
  const mbx = await insertMailbox(ws.workspaceId, "sam@send.test");
  await call(CREATE_LEADS, "POST", "/leads", { key: ws.fullKey, body: { leads: [{ email: "lou@lead.test" }] } });
  const raw =
    "From: lou@lead.test\r\nTo: sam@send.test\r\nSubject: Re: Hi\r\nMessage-ID: <big@lead.test>\r\n\r\nSend the files please?\r\n";
  replyId = (await ingestMessage(
    getDb(),
    systemClock,
    { id: mbx.id, workspaceId: ws.workspaceId, email: mbx.email },
    await simpleParser(raw),
    { folder: "INBOX" },
  ))!.replyId;
});

const file = (name: string, bytes: number) => ({
  filename: name,
  contentType: "application/octet-stream",
  contentBase64: Buffer.alloc(bytes, name.charCodeAt(0)).toString("base64"),
});

describe("POST /replies/<id>/send: 20 MB of files in all", () => {
  it("takes up to 20 MB of files although their base64 is larger, and refuses more with 413 by their decoded size", async () => {
    // 19.5 MB in two files: ~26 MB of base64 — more than the decoded limit, still a valid request.
    const ok = await call(SEND, "POST", "", {
      key: ws.fullKey,
      params: { id: replyId },
      body: { body: "Here", background: true, attachments: [file("a.bin", 10 * MB), file("b.bin", 9.5 * MB)] },
    });
    expect(ok.status).toBe(202);
    expect(
      (await getDb().select({ size: messageFiles.size }).from(messageFiles).where(eq(messageFiles.sentReplyId, ok.body.sentReplyId)))
        .map((f) => f.size)
        .sort((a, b) => a - b),
    ).toEqual([9.5 * MB, 10 * MB]);

    // Exactly 20 MB with a long html part still fits.
    const full = await call(SEND, "POST", "", {
      key: ws.fullKey,
      params: { id: replyId },
      body: { body: "Here", html: `<p>${"x".repeat(900_000)}</p>`, background: true, attachments: [file("c.bin", 20 * MB)] },
    });
    expect(full.status).toBe(202);

    // 20.5 MB: refused by the files' size, not the body's.
    const over = await call(SEND, "POST", "", {
      key: ws.fullKey,
      params: { id: replyId },
      body: { body: "Here", background: true, attachments: [file("d.bin", 10 * MB), file("e.bin", 10.5 * MB)] },
    });
    expect(over.status).toBe(413);
    expect(over.body).toMatchObject({
      code: "PAYLOAD_TOO_LARGE",
      error: expect.stringMatching(/files may total at most 20 MB; these are 20\.5 MB/),
    });

    // A body past the raw limit is refused before it is read whole.
    const huge = await call(SEND, "POST", "", {
      key: ws.fullKey,
      params: { id: replyId },
      rawBody: JSON.stringify({ body: "x".repeat(SEND_REPLY_BODY_LIMIT) }),
    });
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe("PAYLOAD_TOO_LARGE");
  });
});
