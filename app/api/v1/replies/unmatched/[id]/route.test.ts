import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { files, messageFiles, replies } from "@/db/schema";
import { newId } from "@/lib/ids";
import { insertMailbox } from "@/test/factories";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { POST as CREATE_LEADS } from "@/app/api/v1/leads/route";
import { GET as LIST } from "../route";
import { GET } from "./route";

let ws: TestWorkspace;
let other: TestWorkspace;
const ids = { stranger: newId("rep"), lead: newId("rep"), fileId: newId("fil"), mfl: newId("mfl") };

beforeAll(async () => {
  ws = await makeWorkspace();
  other = await makeWorkspace();
  const mbx = await insertMailbox(ws.workspaceId, "una@unmatched.test");
  const created = await call(CREATE_LEADS, "POST", "/leads", { key: ws.fullKey, body: { leads: [{ email: "lee@lead.test" }] } });
  const [leadId] = created.body.leadIds as string[];
  const base = { workspaceId: ws.workspaceId, mailboxId: mbx.id, receivedAt: new Date("2026-11-05T10:00:00Z") };
  await getDb()
    .insert(replies)
    .values([
      {
        ...base,
        id: ids.stranger,
        leadId: null,
        messageId: "<hello@nowhere.test>",
        from: { name: "Stan Ger", address: "stan@nowhere.test" },
        to: [{ name: null, address: "una@unmatched.test" }],
        subject: "Partnership?",
        textBody: "Hi, are you open to a partnership?",
        htmlBody: '<p>Hi, are you open to a <b>partnership</b>?</p><img src="https://tracker.test/p.gif">',
        folder: "Junk",
      },
      { ...base, id: ids.lead, leadId, messageId: "<lee@lead.test>", subject: "Re: hi", textBody: "Sure" },
    ]);
  await getDb()
    .insert(files)
    .values({
      id: ids.fileId,
      workspaceId: ws.workspaceId,
      filename: "deck.pdf",
      contentType: "application/pdf",
      size: 4,
      data: Buffer.from("%PDF"),
    });
  await getDb().insert(messageFiles).values({
    id: ids.mfl,
    workspaceId: ws.workspaceId,
    replyId: ids.stranger,
    fileId: ids.fileId,
    filename: "deck.pdf",
    contentType: "application/pdf",
    size: 4,
  });
});

describe("GET /api/v1/replies/unmatched/<id>", () => {
  it("answers one unmatched message: the list row plus its HTML as received and its files", async () => {
    const list = (await call(LIST, "GET", "/replies/unmatched", { key: ws.readKey })).body;
    expect(list.replies.map((r: { id: string }) => r.id)).toEqual([ids.stranger]);
    const r = await call(GET, "GET", `/replies/unmatched/${ids.stranger}`, { key: ws.readKey, params: { id: ids.stranger } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      ...list.replies[0],
      html: '<p>Hi, are you open to a <b>partnership</b>?</p><img src="https://tracker.test/p.gif">',
      attachments: [{ id: ids.mfl, filename: "deck.pdf", contentType: "application/pdf", size: 4 }],
    });
    expect(r.body).toMatchObject({
      leadId: null,
      mailboxEmail: "una@unmatched.test",
      folder: "Junk",
      from: { name: "Stan Ger", address: "stan@nowhere.test" },
      subject: "Partnership?",
    });
  });

  it("is 404 for a message that belongs to a lead, another workspace's message, or an unknown id", async () => {
    for (const [key, id] of [
      [ws.readKey, ids.lead],
      [other.readKey, ids.stranger],
      [ws.readKey, "rep_nope"],
    ]) {
      const r = await call(GET, "GET", `/replies/unmatched/${id}`, { key, params: { id } });
      expect(r.status, id).toBe(404);
      expect(r.body.code).toBe("NOT_FOUND");
    }
    expect((await call(GET, "GET", `/replies/unmatched/${ids.stranger}`, { params: { id: ids.stranger } })).status).toBe(401);
  });
});
