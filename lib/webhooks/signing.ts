import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from "node:crypto";

/** A signing secret, or its key object (made once with signingKey when many requests use it). */
export type SigningKey = string | KeyObject;

/** The secret as an HMAC key object: a string key is turned into one by every createHmac. */
export function signingKey(secret: string): KeyObject {
  return createSecretKey(Buffer.from(secret, "utf8"));
}

/** `v1=` value: hex HMAC-SHA256 of `<timestamp>.<raw body>`. */
export function signature(secret: SigningKey, timestamp: number, body: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
}

/** The X-Service-Signature header: one `v1=` per signing secret (two during a rotation). */
export function signatureHeader(secrets: SigningKey[], timestamp: number, body: string): string {
  return secrets.map((s) => `v1=${signature(s, timestamp, body)}`).join(",");
}

/**
 * What a receiver does (see docs/webhooks.md): timestamp within 5 minutes of its clock, then a constant-time
 * compare against each `v1=` value. Exported for the docs' example receiver and the tests.
 */
export function verifySignature(opts: {
  secret: string;
  header: string | null;
  timestamp: string | null;
  body: string;
  nowSeconds: number;
  toleranceSeconds?: number;
}): boolean {
  const ts = Number(opts.timestamp);
  if (!opts.header || !Number.isInteger(ts)) return false;
  if (Math.abs(opts.nowSeconds - ts) > (opts.toleranceSeconds ?? 300)) return false;
  const expected = Buffer.from(signature(opts.secret, ts, opts.body), "hex");
  return opts.header.split(",").some((part) => {
    const m = /^\s*v1=([0-9a-f]{64})\s*$/.exec(part);
    return !!m && timingSafeEqual(Buffer.from(m[1], "hex"), expected);
  });
}
