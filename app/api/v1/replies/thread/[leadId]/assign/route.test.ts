import { beforeAll, describe, expect, it } from "vitest";
import { simpleParser } from "mailparser";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { users } from "@/db/schema";
import { systemClock } from "@/lib/clock";
import { ingestMessage } from "@/lib/inbox/ingest";
import { addMember, call, makeWorkspace, sessionCookie, type TestWorkspace } from "@/test/helpers";
import { insertMailbox } from "@/test/factories";
import { POST as CREATE_LEADS } from "@/app/api/v1/leads/route";
import { GET as THREADS } from "@/app/api/v1/replies/threads/route";
import { GET as INTENT_COUNTS } from "@/app/api/v1/replies/intent-counts/route";
import { POST as SEND } from "@/app/api/v1/replies/[id]/send/route";
import { GET as THREAD } from "../route";
import { PATCH as ASSIGN } from "./route";

let ws: TestWorkspace;
let other: TestWorkspace;
let member: { userId: string; key: string };
let admin: { userId: string; key: string };
let client: { userId: string; key: string };
let outsider: TestWorkspace;
let memberCookie: string;
/** The lead and latest reply of each of three conversations, by the lead's address. */
const convo: Record<string, { leadId: string; replyId: string }> = {};
let foreignLeadId: string;

async function conversation(w: TestWorkspace, mailbox: { id: string; email: string }, from: string) {
  const made = await call(CREATE_LEADS, "POST", "/leads", { key: w.fullKey, body: { leads: [{ email: from }] } });
  const raw = `From: ${from}\r\nTo: ${mailbox.email}\r\nSubject: Re: Hello\r\nMessage-ID: <${from}.1@lead.test>\r\n\r\nTell me more\r\n`;
  const got = await ingestMessage(getDb(), systemClock, { ...mailbox, workspaceId: w.workspaceId }, await simpleParser(raw), {
    folder: "INBOX",
  });
  return { leadId: made.body.leads[0].id as string, replyId: got!.replyId };
}

beforeAll(async () => {
  ws = await makeWorkspace();
  other = await makeWorkspace();
  outsider = await makeWorkspace();
  member = await addMember(ws.workspaceId, "member");
  admin = await addMember(ws.workspaceId, "admin");
  client = await addMember(ws.workspaceId, "client");
  memberCookie = await sessionCookie(member.userId);
  await getDb().update(users).set({ name: "Mia Member" }).where(eq(users.id, member.userId));
  const mbx = await insertMailbox(ws.workspaceId, "team@inbox.test");
  for (const who of ["ann@lead.test", "bob@lead.test", "cy@lead.test"]) convo[who] = await conversation(ws, mbx, who);
  const theirs = await insertMailbox(other.workspaceId, "them@inbox.test");
  foreignLeadId = (await conversation(other, theirs, "zed@lead.test")).leadId;
});

const assign = (leadId: string, userId: string | null, key = ws.fullKey) =>
  call(ASSIGN, "PATCH", `/replies/thread/${leadId}/assign`, { key, params: { leadId }, body: { userId } });
const threads = async (qs: string, opts: Parameters<typeof call>[3] = { key: ws.readKey }) => {
  const r = await call(THREADS, "GET", `/replies/threads${qs}`, opts);
  expect(r.status).toBe(200);
  return r.body.threads as { leadId: string; assignee: { userId: string; name: string } | null }[];
};

describe("PATCH /replies/thread/<leadId>/assign", () => {
  it("assigns, reassigns and unassigns; the name falls back to the email", async () => {
    const ann = convo["ann@lead.test"].leadId;
    const a = await assign(ann, member.userId);
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ leadId: ann, assignee: { userId: member.userId, name: "Mia Member" } });
    const b = await assign(ann, admin.userId, member.key);
    expect(b.body.assignee).toEqual({ userId: admin.userId, name: expect.stringMatching(/^admin-\w+@example\.com$/) });
    expect((await assign(ann, null)).body).toEqual({ leadId: ann, assignee: null });
    expect((await assign(ann, null)).status).toBe(200); // unassigning an unassigned thread is fine
  });

  it("refuses a non-member or a client (400 on userId), another workspace's lead (404), and a client seat (403)", async () => {
    const bob = convo["bob@lead.test"].leadId;
    for (const userId of [outsider.userId, "usr_nobody", client.userId]) {
      const r = await assign(bob, userId);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe("VALIDATION_ERROR");
      expect(r.body.details.fieldErrors.userId).toHaveLength(1);
    }
    expect((await assign(foreignLeadId, member.userId)).status).toBe(404);
    expect((await assign("lead_missing", member.userId)).status).toBe(404);
    expect((await assign(bob, member.userId, client.key)).status).toBe(403);
    expect((await call(ASSIGN, "PATCH", "", { key: ws.fullKey, params: { leadId: bob }, body: {} })).status).toBe(400);
  });

  it("thread rows and the thread carry the assignee; assignee=me|none|<userId> filters, intent counts too", async () => {
    const [ann, bob, cy] = ["ann@lead.test", "bob@lead.test", "cy@lead.test"].map((e) => convo[e].leadId);
    await assign(ann, member.userId);
    await assign(bob, admin.userId);
    await assign(cy, null);
    const all = await threads("");
    expect(Object.fromEntries(all.map((t) => [t.leadId, t.assignee?.userId ?? null]))).toEqual({
      [ann]: member.userId,
      [bob]: admin.userId,
      [cy]: null,
    });
    expect((await threads("?assignee=none")).map((t) => t.leadId)).toEqual([cy]);
    expect((await threads(`?assignee=${admin.userId}`)).map((t) => t.leadId)).toEqual([bob]);
    // me: the API key's creator, or the session's user.
    expect((await threads("?assignee=me", { key: member.key })).map((t) => t.leadId)).toEqual([ann]);
    const here = { "x-workspace-id": ws.workspaceId };
    expect((await threads("?assignee=me", { cookie: memberCookie, headers: here })).map((t) => t.leadId)).toEqual([ann]);
    expect((await threads("?assignee=me", { key: ws.fullKey })).map((t) => t.leadId)).toEqual([]);
    const counts = await call(INTENT_COUNTS, "GET", "/replies/intent-counts?assignee=none", { key: ws.readKey });
    expect(counts.body.all).toBe(1);

    const t = await call(THREAD, "GET", "", { key: client.key, params: { leadId: ann } });
    expect(t.status).toBe(200);
    expect(t.body.assignee).toEqual({ userId: member.userId, name: "Mia Member" });
    expect((await call(THREAD, "GET", "", { key: ws.readKey, params: { leadId: cy } })).body.assignee).toBeNull();
  });
});

describe("who sent our replies", () => {
  it("a reply sent from a session names its user (sentByUser); one sent with an API key has none", async () => {
    const { leadId, replyId } = convo["cy@lead.test"];
    const bySession = await call(SEND, "POST", "", {
      cookie: memberCookie,
      headers: { "x-workspace-id": ws.workspaceId },
      params: { id: replyId },
      body: { body: "Happy to explain", background: true },
    });
    expect(bySession.status).toBe(202);
    const byKey = await call(SEND, "POST", "", { key: member.key, params: { id: replyId }, body: { body: "And more", background: true } });
    expect(byKey.status).toBe(202);
    const t = await call(THREAD, "GET", "", { key: ws.readKey, params: { leadId } });
    const own = t.body.messages.filter((m: { kind?: string }) => m.kind === "reply");
    const by = Object.fromEntries(own.map((m: { id: string; sentByUser: unknown; sentBy: string }) => [m.id, [m.sentBy, m.sentByUser]]));
    expect(by[bySession.body.sentReplyId]).toEqual(["HUMAN", { userId: member.userId, name: "Mia Member" }]);
    expect(by[byKey.body.sentReplyId]).toEqual(["API", null]);
  });
});
