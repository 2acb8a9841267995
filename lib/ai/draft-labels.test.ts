import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { simpleParser } from "mailparser";
import { getDb } from "@/db/client";
import { systemClock } from "@/lib/clock";
import { ingestMessage } from "@/lib/inbox/ingest";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { insertMailbox } from "@/test/factories";
import { clearAiEnv, startOpenAiPeer } from "@/test/peers/openai-peer";
import { POST as CREATE_LEADS } from "@/app/api/v1/leads/route";
import { GET as AI_GET, PATCH as AI_PATCH } from "@/app/api/v1/ai-settings/route";
import { POST as DRAFT } from "@/app/api/v1/replies/[id]/draft/route";
import { DELETE as PROVIDER_DELETE, PUT as PROVIDER_PUT } from "@/app/api/v1/settings/ai-provider/route";

/** Drafts say how they were made (generatedBy), and the workspace's own endpoint wins over AI_*. */
type Peer = Awaited<ReturnType<typeof startOpenAiPeer>>;
let wsPeer: Peer;
let envPeer: Peer;
let n = 0;

const LEAD_MESSAGE = "Tuesday at 3pm works for me. Do you integrate with HubSpot?";

beforeAll(async () => {
  [wsPeer, envPeer] = [await startOpenAiPeer(), await startOpenAiPeer()];
  process.env.OUTBOUND_ALLOW_HOSTS = "127.0.0.1";
});
beforeEach(() => {
  wsPeer.reset();
  envPeer.reset();
  clearAiEnv();
});
afterAll(async () => {
  clearAiEnv();
  delete process.env.OUTBOUND_ALLOW_HOSTS;
  await Promise.all([wsPeer.close(), envPeer.close()]);
});

/** A workspace with one reply from Ann saying `text` (classified by the rules: AI classification off). */
async function replyFrom(text: string): Promise<{ ws: TestWorkspace; replyId: string }> {
  const ws = await makeWorkspace();
  await call(AI_PATCH, "PATCH", "", { key: ws.fullKey, body: { aiClassificationEnabled: false } });
  const mbx = await insertMailbox(ws.workspaceId, `labels-${++n}@mbx.test`);
  const email = `ann-${n}@lead.test`;
  await call(CREATE_LEADS, "POST", "/leads", { key: ws.fullKey, body: { leads: [{ email, firstName: "Ann" }] } });
  const parsed = await simpleParser(
    `From: Ann <${email}>\r\nTo: ${mbx.email}\r\nSubject: Re: Hello\r\nMessage-ID: <labels-${n}@x.test>\r\n\r\n${text}\r\n`,
  );
  const r = await ingestMessage(getDb(), systemClock, mbx, parsed, { folder: "INBOX" });
  return { ws, replyId: r!.replyId };
}

const draft = (ws: TestWorkspace, id: string) => call(DRAFT, "POST", "", { key: ws.fullKey, params: { id } });

describe("POST /replies/<id>/draft says how the draft was made", () => {
  it("is a template draft without a provider, answering the time and the question the lead wrote", async () => {
    const { ws, replyId } = await replyFrom(LEAD_MESSAGE);
    const d = await draft(ws, replyId);
    expect(d.status).toBe(200);
    expect(d.body).toMatchObject({ generatedBy: "template", provider: "built-in", agent: null, creditsRemaining: 999 });
    expect(d.body.draft.body).toContain("Tuesday at 3pm works for me — I'll send a calendar invite");
    expect(d.body.draft.body).toContain("> Do you integrate with HubSpot?");
    expect(wsPeer.chats().length + envPeer.chats().length).toBe(0);
  });

  it("is an AI draft with the workspace's provider, whose prompt carries the lead's message; credits count in the workspace", async () => {
    const { ws, replyId } = await replyFrom(LEAD_MESSAGE);
    wsPeer.onChat(() => "Hi Ann,\n\nTuesday at 3pm is booked. Yes, we integrate with HubSpot.\n\nSam");
    const saved = await call(PROVIDER_PUT, "PUT", "", {
      key: ws.fullKey,
      body: { baseUrl: wsPeer.baseUrl, model: "ws-chat", apiKey: "k1" },
    });
    expect(saved.status).toBe(200);
    const d = await draft(ws, replyId);
    expect(d.body).toMatchObject({ generatedBy: "ai", provider: "openai-compatible", creditsRemaining: 999 });
    expect(d.body.draft.body).toContain("we integrate with HubSpot");
    const [asked] = wsPeer.chats();
    expect(asked.body.model).toBe("ws-chat");
    expect(asked.headers.authorization).toBe("Bearer k1");
    expect(asked.body.messages?.find((m) => m.role === "user")?.content).toContain(LEAD_MESSAGE);
    expect((await call(AI_GET, "GET", "", { key: ws.readKey })).body).toMatchObject({
      provider: "openai-compatible",
      model: "ws-chat",
      credits: { used: 1 },
    });
  });

  it("goes to the workspace's endpoint over AI_*, and back to AI_* once the workspace's is removed", async () => {
    const { ws, replyId } = await replyFrom("Sounds good, tell me more.");
    envPeer.useAsProvider({ embeddings: false });
    envPeer.onChat(() => "from the environment");
    wsPeer.onChat(() => "from the workspace");
    expect((await draft(ws, replyId)).body.draft.body).toBe("from the environment");
    await call(PROVIDER_PUT, "PUT", "", { key: ws.fullKey, body: { baseUrl: wsPeer.baseUrl, model: "ws-chat" } });
    // Saving forgets what this process had read: the very next draft uses the workspace's endpoint.
    expect((await draft(ws, replyId)).body).toMatchObject({ generatedBy: "ai", draft: { body: "from the workspace" } });
    expect(envPeer.chats()).toHaveLength(1);
    await call(PROVIDER_DELETE, "DELETE", "", { key: ws.fullKey });
    expect((await draft(ws, replyId)).body.draft.body).toBe("from the environment");
    expect(wsPeer.chats()).toHaveLength(1);
    // Another workspace never sees this one's endpoint.
    const other = await replyFrom("Sounds good.");
    await call(PROVIDER_PUT, "PUT", "", { key: ws.fullKey, body: { baseUrl: wsPeer.baseUrl, model: "ws-chat" } });
    expect((await draft(other.ws, other.replyId)).body.draft.body).toBe("from the environment");
  });
});
