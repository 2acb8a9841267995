import http from "node:http";

export interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A real HTTP receiver for webhook tests. `respond` decides each answer (status, headers, delay);
 * `connections` counts TCP connections, so a test can prove that nothing reached it.
 */
export async function startHttpPeer(host = "127.0.0.1") {
  const received: Received[] = [];
  let connections = 0;
  let respond: (r: Received) => { status?: number; headers?: Record<string, string>; body?: string; delayMs?: number } = () => ({
    status: 200,
    body: "ok",
  });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const r = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      received.push(r);
      const a = respond(r);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(a.status ?? 200, a.headers);
        res.end(a.body ?? "");
      };
      if (a.delayMs) setTimeout(send, a.delayMs);
      else send();
    });
  });
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, host, () => resolve()));
  const port = (server.address() as { port: number }).port;
  return {
    url: (path = "/hook") => `http://${host}:${port}${path}`,
    port,
    received,
    get connections() {
      return connections;
    },
    setResponder(fn: typeof respond) {
      respond = fn;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
