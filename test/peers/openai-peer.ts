import http from "node:http";

/** One request the peer received, its JSON body parsed. */
export interface AiRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: { model?: string; messages?: { role: string; content: string }[]; input?: string | string[] } & Record<string, unknown>;
}

/** What a scripted handler answers: a text (chat) or vectors (embeddings), an HTTP error, or nothing at all (hang). */
export type AiAnswer = string | number[][] | { status: number; error: string } | { hang: true };

/** 64 buckets of hashed, lower-cased words: texts sharing words point the same way (deterministic "embeddings"). */
export function bagOfWordsVector(text: string, dims = 64): number[] {
  const v = new Array<number>(dims).fill(0);
  for (const w of text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []) {
    let h = 2166136261;
    for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 16777619);
    v[(h >>> 0) % dims] += 1;
  }
  return v;
}

/**
 * A local OpenAI-compatible HTTP server (POST /v1/chat/completions and /v1/embeddings) so tests run the
 * real `openai` client path. `onChat` / `onEmbed` script the answers (default: "OK" and bag-of-words
 * vectors); an answer can be an HTTP error or `{ hang: true }` (never answers, for timeout tests).
 */
export async function startOpenAiPeer() {
  const received: AiRequest[] = [];
  let onChat: (r: AiRequest) => AiAnswer = () => "OK";
  let onEmbed: (r: AiRequest) => AiAnswer = (r) => inputs(r).map((t) => bagOfWordsVector(t));
  const hanging = new Set<http.ServerResponse>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      let body: AiRequest["body"] = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
      } catch {
        /* answered below as the handler sees fit */
      }
      const r: AiRequest = { path: req.url ?? "", headers: req.headers, body };
      received.push(r);
      const path = r.path.replace(/\?.*$/, "");
      if (path.endsWith("/chat/completions")) return reply(res, onChat(r), r, "chat");
      if (path.endsWith("/embeddings")) return reply(res, onEmbed(r), r, "embed");
      json(res, 404, { error: { message: `no route ${path}`, type: "invalid_request_error" } });
    });
  });

  function reply(res: http.ServerResponse, a: AiAnswer, r: AiRequest, kind: "chat" | "embed") {
    if (typeof a === "object" && "hang" in a) {
      hanging.add(res);
      return;
    }
    if (typeof a === "object" && "status" in a) return json(res, a.status, { error: { message: a.error, type: "server_error" } });
    if (kind === "chat") {
      const content = typeof a === "string" ? a : JSON.stringify(a);
      return json(res, 200, {
        id: `chatcmpl-${received.length}`,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model: r.body.model ?? "test",
        choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content } }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      });
    }
    const vectors = typeof a === "string" ? inputs(r).map((t) => bagOfWordsVector(t)) : a;
    json(res, 200, {
      object: "list",
      model: r.body.model ?? "test",
      data: vectors.map((embedding, index) => ({ object: "embedding", index, embedding })),
      usage: { prompt_tokens: 1, total_tokens: 1 },
    });
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as { port: number }).port;
  return {
    /** The base URL for AI_BASE_URL (with /v1, as OpenAI's). */
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    received,
    chats: () => received.filter((r) => r.path.endsWith("/chat/completions")),
    embeddings: () => received.filter((r) => r.path.endsWith("/embeddings")),
    onChat(fn: (r: AiRequest) => AiAnswer) {
      onChat = fn;
    },
    onEmbed(fn: (r: AiRequest) => AiAnswer) {
      onEmbed = fn;
    },
    /** Back to the defaults ("OK", bag-of-words vectors) and an empty log. */
    reset() {
      onChat = () => "OK";
      onEmbed = (r) => inputs(r).map((t) => bagOfWordsVector(t));
      received.length = 0;
    },
    /** Points AI_BASE_URL (+ AI_MODEL, AI_EMBEDDING_MODEL unless `embeddings` is false, AI_TIMEOUT_MS) at this peer. */
    useAsProvider(opts: { embeddings?: boolean; timeoutMs?: number } = {}) {
      process.env.AI_BASE_URL = `http://127.0.0.1:${port}/v1`;
      process.env.AI_API_KEY = "test-key";
      process.env.AI_MODEL = "test-chat";
      if (opts.embeddings === false) delete process.env.AI_EMBEDDING_MODEL;
      else process.env.AI_EMBEDDING_MODEL = "test-embed";
      if (opts.timeoutMs) process.env.AI_TIMEOUT_MS = String(opts.timeoutMs);
      else delete process.env.AI_TIMEOUT_MS;
    },
    close: () =>
      new Promise<void>((r) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Clears the AI_* variables useAsProvider set (the built-in provider again). */
export function clearAiEnv(): void {
  for (const k of ["AI_BASE_URL", "AI_API_KEY", "AI_MODEL", "AI_EMBEDDING_MODEL", "AI_TIMEOUT_MS"]) delete process.env[k];
}

function inputs(r: AiRequest): string[] {
  const i = r.body.input;
  return Array.isArray(i) ? i.map(String) : [String(i ?? "")];
}

function json(res: http.ServerResponse, status: number, body: unknown) {
  if (res.destroyed) return;
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}
