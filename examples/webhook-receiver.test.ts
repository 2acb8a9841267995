import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signatureHeader } from "@/lib/webhooks/signing";
import { freePort } from "../test/peers/ports";

let child: ChildProcess;
let port: number;
const secret = "whsec_example";

beforeAll(async () => {
  port = await freePort();
  child = spawn(process.execPath, [path.resolve(import.meta.dirname, "webhook-receiver.mjs")], {
    env: { ...process.env, WEBHOOK_SECRET: secret, PORT: String(port) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve) => child.stdout!.once("data", () => resolve()));
});
afterAll(() => child.kill());

async function post(body: string, ts = Math.floor(Date.now() / 1000), secrets = [secret]) {
  const res = await fetch(`http://127.0.0.1:${port}/`, {
    method: "POST",
    headers: { "X-Service-Timestamp": String(ts), "X-Service-Signature": signatureHeader(secrets, ts, body) },
    body,
  });
  return { status: res.status, text: await res.text() };
}

describe("the example receiver in docs", () => {
  it("accepts a signed event once, ignores its duplicate, and refuses bad signatures and stale timestamps", async () => {
    const body = JSON.stringify({ id: "evt_abc", event: "email.sent", createdAt: new Date().toISOString(), data: {} });
    expect(await post(body)).toEqual({ status: 200, text: "ok" });
    expect(await post(body)).toEqual({ status: 200, text: "duplicate ignored" });
    expect((await post(body, undefined, ["whsec_wrong"])).status).toBe(401);
    expect((await post(body, Math.floor(Date.now() / 1000) - 600)).status).toBe(401);
    expect((await post(JSON.stringify({ id: "evt_new", event: "x", data: {} }), undefined, ["whsec_old", secret])).status).toBe(200);
  });
});
