import { safeRequest } from "../net/http";

/** The largest answer read from an AI endpoint (a batch of 64 embeddings of 3,072 floats is about 4 MB). */
const MAX_BODY = 16 * 1024 * 1024;

/**
 * A fetch for the `openai` client that goes through the product's outbound HTTP client: the SSRF guard
 * at connect time (a host that resolved to a public address when saved and to a private one now is
 * refused; OUTBOUND_ALLOW_HOSTS lets a self-hosted endpoint through), no redirects, a hard timeout and
 * a bounded answer. Used for the endpoints workspaces set; the operator's own AI_* endpoint is trusted.
 */
export function guardedFetch(timeoutMs: number): typeof fetch {
  const impl = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((v, k) => {
      headers[k] = v;
    });
    const raw = init?.body;
    const body = raw == null ? undefined : typeof raw === "string" ? raw : Buffer.from(await new Response(raw).arrayBuffer());
    const request = safeRequest(url, { method: init?.method ?? "GET", headers, body, timeoutMs, maxBody: MAX_BODY });
    const signal = init?.signal;
    const res = await (signal
      ? Promise.race([
          request,
          new Promise<never>((_, reject) => {
            if (signal.aborted) reject(signal.reason);
            signal.addEventListener("abort", () => reject(signal.reason), { once: true });
          }),
        ])
      : request);
    const out = new Headers();
    for (const [k, v] of Object.entries(res.headers)) {
      // The body is already read as text: its length and encoding headers no longer describe it.
      if (v === undefined || k === "content-length" || k === "content-encoding" || k === "transfer-encoding") continue;
      for (const one of Array.isArray(v) ? v : [v]) out.append(k, one);
    }
    const empty = res.status === 204 || res.status === 304;
    return new Response(empty ? null : res.body, { status: res.status, headers: out });
  };
  return impl as typeof fetch;
}
