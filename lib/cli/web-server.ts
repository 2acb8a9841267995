import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";
import { flushTracking } from "../analytics/tracking-answer";
import { serveTracking } from "../analytics/tracking-http";
import { configuredAppUrl } from "../env";
import { securityHeaders } from "../security/headers";
import { checkSettings } from "../env";

/**
 * The production web server's request dispatch: the open pixel and the click redirect are answered
 * here (lib/analytics/tracking-http.ts), every other request goes to Next. Same URLs and answers as
 * `next dev` serves through app/t/** — only the work per hit differs.
 */
export function webListener(next: (req: IncomingMessage, res: ServerResponse) => unknown): RequestListener {
  return (req, res) => {
    if (req.url?.startsWith("/t/")) {
      // The fast path's answers carry the security headers proxy.ts gives every answer of Next's.
      const headers = securityHeaders({ kind: "api", appUrl: configuredAppUrl() });
      for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
      if (serveTracking(req, res)) return;
      for (const k of Object.keys(headers)) res.removeHeader(k);
    }
    Promise.resolve(next(req, res)).catch((err) => {
      process.stderr.write(`[web] failed to handle ${req.method} ${req.url}: ${String(err)}\n`);
      if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" });
      res.end("Internal Server Error");
    });
  };
}

/**
 * What `npm start` runs for the web (instead of `next start`): Next's documented custom server on the
 * production build (`next({ dev: false })`), behind webListener, listening on every address like
 * `next start`. SIGTERM/SIGINT stop it as `next start` does (no new connections, Next closed), after
 * writing the tracking hits still queued.
 */
export async function startWebServer(root: string, port: number): Promise<Server> {
  checkSettings();
  const { default: next } = await import("next");
  const app = next({ dev: false, dir: root, port });
  const handle = app.getRequestHandler();
  await app.prepare();
  const server = createServer(webListener(handle));
  const upgrade = app.getUpgradeHandler();
  server.on("upgrade", (req, socket, head) => void upgrade(req, socket, head).catch(() => socket.destroy()));
  let stopping = false;
  const stop = (code: number) => {
    if (stopping) return;
    stopping = true;
    server.close(() => {
      void Promise.allSettled([app.close(), flushTracking()]).then(() => process.exit(code));
    });
    server.closeIdleConnections();
  };
  process.on("SIGTERM", () => stop(143));
  process.on("SIGINT", () => stop(130));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, () => resolve());
  });
  process.stderr.write(`[web] ready on http://localhost:${port}\n`);
  return server;
}
