import type { IncomingMessage, ServerResponse } from "node:http";
import { clickAnswer, openAnswer, type TrackingAnswer } from "./tracking-answer";

/** `/t/o/<token>` or `/t/c/<token>`, with an optional query; a token is one path segment. */
const TRACKING_PATH = /^\/t\/([oc])\/([^/?#]+)(?:\?(.*))?$/s;

function write(res: ServerResponse, a: TrackingAnswer): void {
  res.writeHead(a.status, { ...a.headers, "Content-Length": String(a.body?.length ?? 0) });
  res.end(a.body ?? undefined);
}

/**
 * The production server's fast path for the open pixel and the click redirect (lib/cli/web-server.ts
 * calls it before handing a request to Next): the same answers as app/t/o and app/t/c
 * (lib/analytics/tracking-answer.ts builds both), without Next's routing and web Request/Response per
 * hit. Takes GETs of the two paths whose token decodes; anything else (other methods, a trailing slash,
 * a malformed escape) returns false and goes to Next, which answers it as before.
 */
export function serveTracking(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== "GET" || !req.url?.startsWith("/t/")) return false;
  const m = TRACKING_PATH.exec(req.url);
  if (!m) return false;
  let token: string;
  try {
    token = decodeURIComponent(m[2]);
  } catch {
    return false;
  }
  const answer = m[1] === "o" ? openAnswer(token) : clickAnswer(token, m[3] ?? "");
  answer.then(
    (a) => write(res, a),
    () => {
      res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" });
      res.end("Internal Server Error");
    },
  );
  return true;
}
