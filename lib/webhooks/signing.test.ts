import { describe, expect, it } from "vitest";
import { signature, signatureHeader, verifySignature } from "./signing";

describe("webhook signatures, made and verified", () => {
  const body = '{"id":"evt_1","event":"email.sent","createdAt":"2026-11-02T09:00:00.000Z","data":{}}';
  const ts = 1_793_610_000;
  it("is the hex HMAC-SHA256 of `<timestamp>.<raw body>`", () => {
    // Vector computed independently (Python hmac/hashlib over "1793610000." + body).
    expect(signature("whsec_test", ts, body)).toBe("b30c6d02188b35f2344f1d2591df219e964bb16b7c46df9667ba3cbb52a05325");
    expect(signatureHeader(["a", "b"], ts, body)).toBe(`v1=${signature("a", ts, body)},v1=${signature("b", ts, body)}`);
  });
  it("verifies a valid request and refuses a tampered body, a wrong secret and a stale timestamp", () => {
    const header = signatureHeader(["whsec_test"], ts, body);
    const ok = { secret: "whsec_test", header, timestamp: String(ts), body, nowSeconds: ts + 10 };
    expect(verifySignature(ok)).toBe(true);
    expect(verifySignature({ ...ok, body: body.replace("sent", "opened") })).toBe(false);
    expect(verifySignature({ ...ok, secret: "whsec_other" })).toBe(false);
    expect(verifySignature({ ...ok, nowSeconds: ts + 301 })).toBe(false);
    expect(verifySignature({ ...ok, nowSeconds: ts - 301 })).toBe(false);
    expect(verifySignature({ ...ok, header: null })).toBe(false);
  });
  it("accepts either secret during a rotation", () => {
    const header = signatureHeader(["new", "old"], ts, body);
    expect(verifySignature({ secret: "new", header, timestamp: String(ts), body, nowSeconds: ts })).toBe(true);
    expect(verifySignature({ secret: "old", header, timestamp: String(ts), body, nowSeconds: ts })).toBe(true);
    expect(verifySignature({ secret: "other", header, timestamp: String(ts), body, nowSeconds: ts })).toBe(false);
  });
});
