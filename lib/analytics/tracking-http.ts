import type { IncomingMessage, ServerResponse } from "node:http";
import { trackingHostAllowed } from "../domains/tracking-hosts";
import { clickAnswer, openAnswer, type TrackingAnswer, type TrackingRequest } from "./tracking-answer";

/** What the route handlers answer on a host that is not the installation's or a verified tracking domain. */
const UNKNOWN_HOST: TrackingAnswer = {
  status: 404,
  headers: { "Content-Type": "text/plain; charset=utf-8" },
  body: Buffer.from("Not found"),
};

/** `/t/o/<token>` or `/t/c/<token>`, with an optional query; a token is one path segment. */
const TRACKING_PATH = /^\/t\/([oc])\/([^/?#]+)(?:\?(.*))?$/s;

/** The classifier's request facts: method, user agent and the client's address (the first forwarded one behind a proxy). */
function requestFacts(req: IncomingMessage): TrackingRequest {
  const fwd = req.headers["x-forwarded-for"];
  const first = (Array.isArray(fwd) ? fwd[0] : fwd)?.split(",")[0].trim();
  const real = req.headers["x-real-ip"];
  const ip = first || (typeof real === "string" && real) || req.socket.remoteAddress || null;
  return { method: req.method === "HEAD" ? "HEAD" : "GET", userAgent: req.headers["user-agent"] ?? null, ip };
}

function write(res: ServerResponse, a: TrackingAnswer): void {
  res.writeHead(a.status, { ...a.headers, "Content-Length": String(a.body?.length ?? 0) });
  res.end(a.body ?? undefined);
}

/**
 * The production server's fast path for the open pixel and the click redirect (lib/cli/web-server.ts
 * calls it before handing a request to Next): the same answers as app/t/o and app/t/c
 * (lib/analytics/tracking-answer.ts builds both), without Next's routing and web Request/Response per
 * hit. Takes GETs and HEADs (a scanner's) of the two paths whose token decodes; anything else (other methods, a trailing slash,
 * a malformed escape) returns false and goes to Next, which answers it as before.
 */
export function serveTracking(req: IncomingMessage, res: ServerResponse): boolean {
  if ((req.method !== "GET" && req.method !== "HEAD") || !req.url?.startsWith("/t/")) return false;
  const m = TRACKING_PATH.exec(req.url);
  if (!m) return false;
  let token: string;
  try {
    token = decodeURIComponent(m[2]);
  } catch {
    return false;
  }
  const facts = requestFacts(req);
  const search = m[3] ?? "";
  // A host that is neither APP_URL's nor a verified tracking domain serves no workspace's links.
  const answer = trackingHostAllowed(req.headers.host).then((ok) =>
    !ok ? UNKNOWN_HOST : m[1] === "o" ? openAnswer(token, facts) : clickAnswer(token, search, facts),
  );
  answer.then(
    (a) => write(res, a),
    () => {
      res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" });
      res.end("Internal Server Error");
    },
  );
  return true;
}
