import { beforeAll, describe, expect, it } from "vitest";
import { simpleParser } from "mailparser";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { files, messageFiles, stepAttachments } from "@/db/schema";
import { systemClock } from "@/lib/clock";
import { newId } from "@/lib/ids";
import { ingestMessage } from "@/lib/inbox/ingest";
import { cleanupUploads } from "@/lib/inbox/files";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { insertMailbox } from "@/test/factories";
import { POST as CREATE_LEADS } from "@/app/api/v1/leads/route";
import { POST as UPLOAD } from "@/app/api/v1/replies/uploads/route";
import { POST as SEND } from "@/app/api/v1/replies/[id]/send/route";
import { POST as CREATE_CAMPAIGN } from "@/app/api/v1/campaigns/route";
import { POST as CREATE_STEP } from "@/app/api/v1/campaigns/[id]/steps/route";
import { GET as LIST_ATT, POST as ADD_ATT } from "@/app/api/v1/campaigns/[id]/steps/[stepId]/attachments/route";

let ws: TestWorkspace;
let replyId: string;

beforeAll(async () => {
  ws = await makeWorkspace();
  const mbx = await insertMailbox(ws.workspaceId, "una@up.test");
  await call(CREATE_LEADS, "POST", "/leads", { key: ws.fullKey, body: { leads: [{ email: "lou@lead.test" }] } });
  const raw = "From: lou@lead.test\r\nTo: una@up.test\r\nSubject: Re: Hi\r\nMessage-ID: <up@lead.test>\r\n\r\nThe price list?\r\n";
  replyId = (await ingestMessage(
    getDb(),
    systemClock,
    { id: mbx.id, workspaceId: ws.workspaceId, email: mbx.email },
    await simpleParser(raw),
    { folder: "INBOX" },
  ))!.replyId;
});

async function upload(name: string, body: string): Promise<{ id: string }> {
  const res = await UPLOAD(
    new Request("http://localhost/api/v1/replies/uploads", {
      method: "POST",
      headers: { authorization: `Bearer ${ws.fullKey}`, "x-filename": name, "x-content-type": "text/csv" },
      body,
    }),
  );
  expect(res.status).toBe(201);
  return res.json();
}

describe("a step attachment from fromAttachmentId: a conversation's file or another step's", () => {
  it("refuses an upload not yet sent (404: not a conversation's file), takes it once sent, keeps it past the clean-up", async () => {
    const c = (await call(CREATE_CAMPAIGN, "POST", "/campaigns", { key: ws.fullKey, body: { name: "Uploads" } })).body;
    const s = (await call(CREATE_STEP, "POST", "", { key: ws.fullKey, params: { id: c.id }, body: { subject: "S", bodyTemplate: "B" } }))
      .body;
    const add = (fromAttachmentId: string) =>
      call(ADD_ATT, "POST", "", { key: ws.fullKey, params: { id: c.id, stepId: s.id }, body: { fromAttachmentId } });

    const pending = await upload("prices.csv", "a,b\n1,2\n");
    const refused = await add(pending.id);
    expect(refused.status).toBe(404);
    expect(refused.body.code).toBe("NOT_FOUND");

    // Sent with a reply, it is a file of the conversation.
    const sent = await call(SEND, "POST", "", {
      key: ws.fullKey,
      params: { id: replyId },
      body: { body: "Here", uploadIds: [pending.id], background: true },
    });
    expect(sent.status).toBe(202);
    const copy = await add(pending.id);
    expect(copy.status).toBe(201);
    expect(copy.body).toMatchObject({ filename: "prices.csv", contentType: "text/csv", size: 8 });

    // A day later the cleanup removes unsent uploads; the step's file stays.
    const left = await upload("left.csv", "x");
    expect(await cleanupUploads(getDb(), new Date(Date.now() + 25 * 3600_000))).toBe(1);
    expect(await getDb().select().from(messageFiles).where(eq(messageFiles.id, left.id))).toEqual([]);
    const list = (await call(LIST_ATT, "GET", "", { key: ws.readKey, params: { id: c.id, stepId: s.id } })).body.attachments;
    expect(list).toEqual([expect.objectContaining({ id: copy.body.id, filename: "prices.csv", size: 8 })]);
  });

  it("does not delete the bytes of an expired upload that a step already holds (made before such copies were refused)", async () => {
    const c = (await call(CREATE_CAMPAIGN, "POST", "/campaigns", { key: ws.fullKey, body: { name: "Legacy" } })).body;
    const s = (await call(CREATE_STEP, "POST", "", { key: ws.fullKey, params: { id: c.id }, body: { subject: "S", bodyTemplate: "B" } }))
      .body;
    const up = await upload("old.csv", "old");
    const [m] = await getDb().select().from(messageFiles).where(eq(messageFiles.id, up.id));
    await getDb()
      .insert(stepAttachments)
      .values({
        id: newId("att"),
        workspaceId: ws.workspaceId,
        stepId: s.id,
        fileId: m.fileId,
        filename: "old.csv",
        contentType: "text/csv",
        size: 3,
      });
    expect(await cleanupUploads(getDb(), new Date(Date.now() + 25 * 3600_000))).toBe(1);
    expect(await getDb().select({ id: files.id }).from(files).where(eq(files.id, m.fileId))).toHaveLength(1);
    expect((await call(LIST_ATT, "GET", "", { key: ws.readKey, params: { id: c.id, stepId: s.id } })).body.attachments).toEqual([
      expect.objectContaining({ filename: "old.csv", size: 3 }),
    ]);
  });
});
