import { beforeAll, describe, expect, it } from "vitest";
import { call, makeWorkspace, type TestWorkspace } from "../helpers";
import { FAST, figure } from "./figures";
import { buildFixture, type Fixture, paramValue } from "./fixture";
import { concrete, type Operation, operations } from "./routes";

/**
 * A 200 MB body to every route that reads one (the upload routes among them) is
 * refused with 413 PAYLOAD_TOO_LARGE while reading it, and the process grows by less than 50 MB —
 * once with the size declared in Content-Length, once streamed without it (chunked), generated
 * lazily in 64 KB chunks so the test itself holds none of it. Routes without a body never read it.
 */
process.env.RATE_LIMIT_DISABLED = "1";

const BODY_BYTES = 200 * 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;
const GROWTH_LIMIT = 50 * 1024 * 1024;

let ws: TestWorkspace;
let fx: Fixture;
let ops: Operation[];
beforeAll(async () => {
  ws = await makeWorkspace("memory");
  fx = await buildFixture(ws, "m");
  // Routes that read a body: a JSON body in their contract, or a raw upload (a file's bytes).
  const takesBody = (o: Operation) => o.def.body !== undefined || /uploads|attachments$/.test(o.rel);
  ops = (await operations()).filter((o) => ["POST", "PUT", "PATCH"].includes(o.method) && o.def.credential !== "session" && takesBody(o));
});

/** A 200 MB body made on demand, counting what the server pulled. */
function hugeBody() {
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= BODY_BYTES) return controller.close();
      sent += CHUNK_BYTES;
      // A new buffer each time, as a socket gives: whatever the route keeps shows in the RSS.
      controller.enqueue(new Uint8Array(CHUNK_BYTES).fill(0x61));
    },
  });
  return { stream, pulled: () => sent };
}

async function post(op: Operation, declared: boolean) {
  const params = Object.fromEntries(op.params.map((n) => [n, paramValue(fx, op.rel, n) ?? "x_0000000000"]));
  const body = hugeBody();
  const headers: Record<string, string> = {
    authorization: `Bearer ${ws.fullKey}`,
    "content-type": "application/json",
    "x-filename": "big.pdf",
  };
  if (declared) headers["content-length"] = String(BODY_BYTES);
  const url = `http://localhost/api/v1${concrete(op.rel, params)}`;
  const req = new Request(url, { method: op.method, headers, body: body.stream, duplex: "half" } as RequestInit);
  const res = await op.handler(req, { params: Promise.resolve(params) });
  const json = await res.json().catch(() => null);
  return { status: res.status, body: json, pulled: body.pulled() };
}

describe("a 200 MB body to every route that takes a body", () => {
  it("is refused with 413 while reading, and the process grows < 50 MB", async () => {
    // Warm up the route modules and the connection pool, so their one-time cost is not counted.
    await call(ops[0].handler, ops[0].method, "/warm", { key: ws.fullKey, body: {}, params: {} }).catch(() => {});
    const gc = (globalThis as { gc?: () => void }).gc;
    const bad: string[] = [];
    let maxPulled = 0;
    let growth = 0;
    const picked = FAST ? ops.filter((_, i) => i % 2 === 0) : ops;
    for (const op of picked) {
      for (const declared of [true, false]) {
        // Each request from a collected heap: the growth is what one 200 MB body costs, not earlier garbage.
        gc?.();
        const start = process.memoryUsage().rss;
        let peak = start;
        const sample = setInterval(() => {
          peak = Math.max(peak, process.memoryUsage().rss);
        }, 5);
        const r = await post(op, declared);
        clearInterval(sample);
        peak = Math.max(peak, process.memoryUsage().rss);
        growth = Math.max(growth, peak - start);
        maxPulled = Math.max(maxPulled, r.pulled);
        const at = `${op.method} /${op.rel} (${declared ? "Content-Length" : "chunked"})`;
        if (r.status !== 413 || r.body?.code !== "PAYLOAD_TOO_LARGE")
          bad.push(`${at}: ${r.status} ${JSON.stringify(r.body).slice(0, 160)}`);
      }
    }
    const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
    figure({
      suite: "memory",
      name: `routes sent 200 MB, twice each (${picked.length} routes)`,
      value: picked.length * 2,
      goal: "all 413",
      pass: !bad.length,
    });
    figure({
      suite: "memory",
      name: "largest part of a 200 MB body read before the 413",
      value: mb(maxPulled),
      goal: "≪ 200 MB",
      pass: maxPulled < 40 * 1024 * 1024,
    });
    figure({
      suite: "memory",
      name: `peak RSS growth of one request${gc ? "" : " (no --expose-gc: cumulative)"}`,
      value: mb(growth),
      goal: "< 50 MB",
      pass: growth < GROWTH_LIMIT,
    });
    expect(bad).toEqual([]);
    expect(growth).toBeLessThan(GROWTH_LIMIT);
    // Each route stopped reading near its limit (the largest is 25 MB of reply attachments), far short of 200 MB.
    expect(maxPulled).toBeLessThan(40 * 1024 * 1024);
  });
});
