import http from "node:http";
import { type Operation, operations } from "./routes";

/**
 * A web process for the reliability suites: a node:http server that hands each request to the same
 * route handlers Next.js calls (app/api/v1/**\/route.ts), on the database in DATABASE_URL. Several of
 * them share one Postgres the way several `outreach start` web processes do, without a Next build.
 * Prints `listening <port>` on stdout.
 */
const ops = await operations();
const routes = ops.map((op) => ({
  op,
  re: new RegExp(`^/api/v1/${op.rel.replace(/\[([^\]]+)\]/g, "(?<$1>[^/]+)")}$`),
  fixed: op.params.length,
}));

function route(method: string, path: string): { op: Operation; params: Record<string, string> } | undefined {
  const hits = routes
    .filter((r) => r.op.method === method)
    .map((r) => ({ r, m: r.re.exec(path) }))
    .filter((x) => x.m)
    .sort((a, b) => a.r.fixed - b.r.fixed);
  const hit = hits[0];
  if (!hit?.m) return undefined;
  const params = Object.fromEntries(Object.entries(hit.m.groups ?? {}).map(([k, v]) => [k, decodeURIComponent(v)]));
  return { op: hit.r.op, params };
}

const server = http.createServer(async (req, res) => {
  try {
    const url = new URL(req.url ?? "/", "http://localhost");
    const found = route(req.method ?? "GET", url.pathname);
    if (!found) {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: "No such route", code: "NOT_FOUND" }));
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const body = chunks.length ? Buffer.concat(chunks) : undefined;
    const request = new Request(url, { method: req.method, headers, body });
    const answer = await found.op.handler(request, { params: Promise.resolve(found.params) });
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(Buffer.from(await answer.arrayBuffer()));
  } catch (error) {
    res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: String(error), code: "INTERNAL_ERROR" }));
  }
});
server.keepAliveTimeout = 30_000;
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === "object" && address ? address.port : 0}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
