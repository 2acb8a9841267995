#!/usr/bin/env node
// A minimal Outreach webhook receiver: verifies the signature (spec 6.4) and skips duplicate event ids.
// Run: WEBHOOK_SECRET=whsec_… PORT=8787 node examples/webhook-receiver.mjs
import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";

const secret = process.env.WEBHOOK_SECRET;
if (!secret) throw new Error("Set WEBHOOK_SECRET to the secret shown when the webhook was created");
const seen = new Set(); // use a database table in production: ids must survive restarts

function verify(rawBody, timestamp, header) {
  const ts = Number(timestamp);
  // 1. Reject a request more than 5 minutes from our clock (replays).
  if (!Number.isInteger(ts) || Math.abs(Date.now() / 1000 - ts) > 300) return false;
  // 2. HMAC-SHA256 of "<timestamp>.<raw body>", compared in constant time with each v1= value.
  const expected = createHmac("sha256", secret).update(`${ts}.${rawBody}`).digest();
  return String(header ?? "")
    .split(",")
    .map((part) => /^\s*v1=([0-9a-f]{64})\s*$/.exec(part)?.[1])
    .some((hex) => hex && timingSafeEqual(Buffer.from(hex, "hex"), expected));
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const raw = Buffer.concat(chunks).toString("utf8"); // the raw body, before any JSON parsing
    if (!verify(raw, req.headers["x-service-timestamp"], req.headers["x-service-signature"])) {
      res.writeHead(401).end("bad signature");
      return;
    }
    const event = JSON.parse(raw);
    if (seen.has(event.id)) {
      res.writeHead(200).end("duplicate ignored"); // retries and resends carry the same id
      return;
    }
    seen.add(event.id);
    console.log(`${event.createdAt} ${event.event} ${JSON.stringify(event.data)}`);
    res.writeHead(200).end("ok");
  });
});

server.listen(Number(process.env.PORT ?? 8787), process.env.HOST ?? "127.0.0.1", () => {
  console.log(`listening on ${JSON.stringify(server.address())}`);
});
