import { createServer } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { auditLog, workspaces } from "@/db/schema";
import { decryptSecret } from "@/lib/crypto/secretbox";
import { addMember, call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { clearAiEnv, startOpenAiPeer } from "@/test/peers/openai-peer";
import { PATCH as AI_PATCH } from "../../ai-settings/route";
import { DELETE, GET, PUT } from "./route";
import { POST as TEST } from "./test/route";

type Peer = Awaited<ReturnType<typeof startOpenAiPeer>>;
let peer: Peer;
let ws: TestWorkspace;
let admin: string;
let member: string;
let client: string;

const SECRET = "sk-test-very-secret-0042";
const get = (key: string) => call(GET, "GET", "/settings/ai-provider", { key });
const put = (key: string, body: unknown) => call(PUT, "PUT", "/settings/ai-provider", { key, body });
const del = (key: string) => call(DELETE, "DELETE", "/settings/ai-provider", { key });
const test = (key: string) => call(TEST, "POST", "/settings/ai-provider/test", { key });

async function storedRow(workspaceId: string) {
  const [w] = await getDb().select({ settings: workspaces.settings }).from(workspaces).where(eq(workspaces.id, workspaceId));
  return w.settings;
}

/** A local port nothing listens on: bound once, then closed. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", () => r()));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

beforeAll(async () => {
  peer = await startOpenAiPeer();
  process.env.OUTBOUND_ALLOW_HOSTS = "127.0.0.1";
  ws = await makeWorkspace();
  admin = (await addMember(ws.workspaceId, "admin")).key;
  member = (await addMember(ws.workspaceId, "member")).key;
  client = (await addMember(ws.workspaceId, "client")).key;
});
beforeEach(() => {
  peer.reset();
  clearAiEnv();
});
afterAll(async () => {
  clearAiEnv();
  delete process.env.OUTBOUND_ALLOW_HOSTS;
  await peer.close();
});

describe("who may read and change the AI provider", () => {
  it("lets a member read it and refuses a client; only an owner or admin may save, remove or test it", async () => {
    expect((await get(member)).status).toBe(200);
    expect((await get(client)).status).toBe(403);
    const body = { baseUrl: peer.baseUrl, model: "m" };
    for (const r of [await put(member, body), await del(member), await test(member), await put(client, body)]) {
      expect(r.status).toBe(403);
      expect(r.body.code).toBe("FORBIDDEN");
    }
    expect((await put(ws.readKey, body)).status).toBe(403); // a read-only key of the owner
    expect(await storedRow(ws.workspaceId)).not.toHaveProperty("aiProvider");
    expect((await put(admin, body)).status).toBe(200);
    expect((await del(admin)).status).toBe(200);
  });

  it("lets only an owner or admin change the AI settings too (a member gets 403, nothing changes)", async () => {
    const r = await call(AI_PATCH, "PATCH", "/ai-settings", { key: member, body: { monthlyCredits: 5 } });
    expect(r.status).toBe(403);
    const ok = await call(AI_PATCH, "PATCH", "/ai-settings", { key: admin, body: { aiDraftEnabled: true } });
    expect(ok.body.monthlyCredits).toBe(1000);
  });
});

describe("PUT /settings/ai-provider", () => {
  it("refuses a URL the outbound guard refuses with a 400 on baseUrl saying why, naming OUTBOUND_ALLOW_HOSTS for a private host", async () => {
    for (const url of ["http://10.1.2.3/v1", "http://127.0.0.2:8080/v1", "http://localhost:11434/v1"]) {
      const r = await put(ws.fullKey, { baseUrl: url, model: "m" });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe("VALIDATION_ERROR");
      const [msg] = r.body.details.fieldErrors.baseUrl;
      expect(msg).toMatch(/private|internal/);
      expect(msg).toContain("OUTBOUND_ALLOW_HOSTS");
    }
    const ftp = await put(ws.fullKey, { baseUrl: "ftp://example.com/v1", model: "m" });
    expect(ftp.body.details.fieldErrors.baseUrl[0]).toMatch(/http or https/);
    expect(ftp.body.details.fieldErrors.baseUrl[0]).not.toContain("OUTBOUND_ALLOW_HOSTS");
    const noModel = await put(ws.fullKey, { baseUrl: peer.baseUrl, model: " " });
    expect(noModel.body.details.fieldErrors.model).toBeDefined();
    expect(await storedRow(ws.workspaceId)).not.toHaveProperty("aiProvider");
  });

  it("stores the key encrypted, never returns it, and keeps it out of the audit log", async () => {
    const r = await put(ws.fullKey, { baseUrl: peer.baseUrl, model: "ws-chat", embeddingModel: "ws-embed", apiKey: SECRET });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      configured: true,
      source: "workspace",
      baseUrl: peer.baseUrl,
      model: "ws-chat",
      embeddingModel: "ws-embed",
      keySet: true,
    });
    expect(JSON.stringify((await get(member)).body)).not.toContain(SECRET);
    const stored = (await storedRow(ws.workspaceId)).aiProvider as { apiKeyEnc: string };
    expect(JSON.stringify(await storedRow(ws.workspaceId))).not.toContain(SECRET);
    expect(stored.apiKeyEnc).toMatch(/^v1:/);
    expect(decryptSecret(stored.apiKeyEnc)).toBe(SECRET);
    const entries = await getDb()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.workspaceId, ws.workspaceId), eq(auditLog.action, "settings.changed")));
    const entry = entries.find((e) => e.detail.model === "ws-chat");
    if (!entry) throw new Error("no audit entry for the saved provider");
    expect(entry.targetLabel).toBe("AI provider");
    expect(entry.detail).toMatchObject({ settings: "ai-provider", model: "ws-chat" });
    expect((entry.detail as { fields: string[] }).fields).toContain("apiKey");
    expect(JSON.stringify(entry)).not.toContain(SECRET);
  });

  it("keeps the stored key when apiKey is left out, removes it with null, and asks for it again when the host changes", async () => {
    await put(ws.fullKey, { baseUrl: peer.baseUrl, model: "ws-chat", apiKey: SECRET });
    const kept = await put(ws.fullKey, { baseUrl: `${peer.baseUrl}/`, model: "other-chat" });
    expect(kept.body).toMatchObject({ keySet: true, model: "other-chat", embeddingModel: null });
    expect((await test(ws.fullKey)).body.ok).toBe(true);
    expect(peer.chats()[0].headers.authorization).toBe(`Bearer ${SECRET}`);
    const moved = await put(ws.fullKey, { baseUrl: `http://127.0.0.1:${peer.port + 1}/v1`, model: "m" });
    expect(moved.status).toBe(400);
    expect(moved.body.details.fieldErrors.apiKey[0]).toMatch(/Enter the API key again/);
    const cleared = await put(ws.fullKey, { baseUrl: peer.baseUrl, model: "m", apiKey: null });
    expect(cleared.body.keySet).toBe(false);
    expect(((await storedRow(ws.workspaceId)).aiProvider as { apiKeyEnc: unknown }).apiKeyEnc).toBeNull();
  });
});

describe("where the provider comes from", () => {
  it("is none without either, the environment with AI_*, and the workspace's own once set; DELETE goes back", async () => {
    const own = await makeWorkspace();
    expect((await get(own.fullKey)).body).toEqual({
      configured: false,
      source: "none",
      baseUrl: null,
      model: null,
      embeddingModel: null,
      keySet: false,
    });
    peer.useAsProvider({ embeddings: false });
    expect((await get(own.fullKey)).body).toEqual({
      configured: true,
      source: "environment",
      baseUrl: peer.baseUrl,
      model: "test-chat",
      embeddingModel: null,
      keySet: true,
    });
    await put(own.fullKey, { baseUrl: peer.baseUrl, model: "ws-chat" });
    expect((await get(own.fullKey)).body).toMatchObject({ source: "workspace", model: "ws-chat", keySet: false });
    const removed = await del(own.fullKey);
    expect(removed.body).toMatchObject({ source: "environment", model: "test-chat" });
    expect(await storedRow(own.workspaceId)).not.toHaveProperty("aiProvider");
    expect((await del(own.fullKey)).status).toBe(200); // removing nothing is not an error
    clearAiEnv();
    expect((await get(own.fullKey)).body.source).toBe("none");
  });
});

describe("POST /settings/ai-provider/test", () => {
  it("makes a one-token chat call to the workspace's endpoint and answers ok with the model and latency", async () => {
    await put(ws.fullKey, { baseUrl: peer.baseUrl, model: "ws-chat", apiKey: SECRET });
    const r = await test(admin);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ok: true, model: "ws-chat" });
    expect(r.body.latencyMs).toBeGreaterThanOrEqual(0);
    expect(r.body).not.toHaveProperty("error");
    expect(peer.chats()).toHaveLength(1);
    expect(peer.chats()[0].body).toMatchObject({ model: "ws-chat", max_tokens: 1 });
  });

  it("answers ok: false with a readable reason for a closed port, an HTTP error, a refused address and no provider", async () => {
    const port = await closedPort();
    await put(ws.fullKey, { baseUrl: `http://127.0.0.1:${port}/v1`, model: "m", apiKey: null });
    const closed = await test(ws.fullKey);
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ ok: false, model: "m" });
    expect(closed.body.error).toMatch(new RegExp(`Could not reach http://127.0.0.1:${port}.*ECONNREFUSED`));

    await put(ws.fullKey, { baseUrl: peer.baseUrl, model: "m" });
    peer.onChat(() => ({ status: 401, error: "Incorrect API key provided" }));
    const refused = await test(ws.fullKey);
    expect(refused.body).toMatchObject({ ok: false });
    expect(refused.body.error).toMatch(/HTTP 401.*API key.*Incorrect API key provided/);

    // Saved while allowed; the guard is asked again at connect time.
    process.env.OUTBOUND_ALLOW_HOSTS = "";
    try {
      const blocked = await test(ws.fullKey);
      expect(blocked.body.ok).toBe(false);
      expect(blocked.body.error).toMatch(/Refused to connect to 127\.0\.0\.1/);
    } finally {
      process.env.OUTBOUND_ALLOW_HOSTS = "127.0.0.1";
    }

    const none = await makeWorkspace();
    const nothing = await test(none.fullKey);
    expect(nothing.body).toMatchObject({ ok: false, model: null, latencyMs: 0 });
    expect(nothing.body.error).toMatch(/No AI provider is configured/);
  });

  it("tests the installation's endpoint when the workspace has none", async () => {
    const own = await makeWorkspace();
    peer.useAsProvider({ embeddings: false });
    expect((await test(own.fullKey)).body).toMatchObject({ ok: true, model: "test-chat" });
    expect(peer.chats()[0].headers.authorization).toBe("Bearer test-key");
  });
});
