import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeWorkspace, type TestWorkspace } from "../helpers";
import { figure } from "./figures";
import { type Child, startChild } from "./processes";

/**
 * One key, 1,000 requests from 20 concurrent clients spread over two web
 * processes on one Postgres: exactly 300 succeed (300 per minute per key), every other one is
 * 429 RATE_LIMITED with Retry-After; a second key is unaffected.
 */
const TOTAL = 1000;
const CLIENTS = 20;
const LIMIT = 300;

let ws: TestWorkspace;
let webs: Child[] = [];
beforeAll(async () => {
  ws = await makeWorkspace("limits");
  const env = { RATE_LIMIT_DISABLED: "0" };
  webs = await Promise.all([startChild("test/reliability/web-process.ts", env), startChild("test/reliability/web-process.ts", env)]);
}, 120_000);
afterAll(async () => {
  await Promise.all(webs.map((w) => w.stop()));
});

async function get(port: number, key: string) {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/leads?limit=1`, { headers: { authorization: `Bearer ${key}` } });
  const body = (await res.json()) as { code?: string };
  return { status: res.status, code: body.code, retryAfter: res.headers.get("retry-after") };
}

describe("the per-key rate limit under load, across two web processes", () => {
  it("lets exactly 300 of 1,000 concurrent requests through, and leaves a second key alone", async () => {
    let next = 0;
    const statuses = new Map<number, number>();
    let badRefusals = 0;
    const perProcess = [0, 0];
    const started = Date.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (next < TOTAL) {
          const i = next++;
          const r = await get(webs[i % 2].port, ws.fullKey);
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
          if (r.status === 200) perProcess[i % 2]++;
          if (r.status === 429 && (r.code !== "RATE_LIMITED" || !/^\d+$/.test(r.retryAfter ?? ""))) badRefusals++;
        }
      }),
    );
    const seconds = (Date.now() - started) / 1000;
    const other = await Promise.all(Array.from({ length: 20 }, (_, i) => get(webs[i % 2].port, ws.readKey)));
    const ok = statuses.get(200) ?? 0;
    figure({
      suite: "rate-limit",
      name: `1,000 requests, 20 clients, 2 processes (${seconds.toFixed(1)} s): 200s`,
      value: ok,
      goal: "exactly 300",
      pass: ok === LIMIT,
    });
    figure({
      suite: "rate-limit",
      name: "429 RATE_LIMITED with Retry-After",
      value: statuses.get(429) ?? 0,
      goal: "700",
      pass: statuses.get(429) === TOTAL - LIMIT,
    });
    figure({
      suite: "rate-limit",
      name: "successes served by process 1 / process 2",
      value: perProcess.join(" / "),
      goal: "both serve",
      pass: perProcess.every((n) => n > 0),
    });
    figure({
      suite: "rate-limit",
      name: "second key: 20 requests, 200s",
      value: other.filter((r) => r.status === 200).length,
      goal: "20",
      pass: other.every((r) => r.status === 200),
    });
    expect(Object.fromEntries(statuses)).toEqual({ 200: LIMIT, 429: TOTAL - LIMIT });
    expect(badRefusals).toBe(0);
    expect(perProcess.every((n) => n > 0)).toBe(true);
    expect(other.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(seconds).toBeLessThan(60);
  });
});
