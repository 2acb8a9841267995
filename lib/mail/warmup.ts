import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { outreachSecret } from "../env";

/**
 * The marker our warmup puts on every message it sends (issue 6: "Warmup traffic never appears in the
 * inbox"): `X-Outreach-Warmup: <nonce>.<mac>`, the MAC an HMAC of the nonce under this installation's
 * secret. Reply ingestion skips a message only when the token verifies, in every folder it reads — a
 * stranger who copies the header name (or an old token's shape) cannot hide mail from the inbox.
 */
export const WARMUP_HEADER = "X-Outreach-Warmup";

function mac(nonce: string): string {
  return createHmac("sha256", outreachSecret()).update(`warmup|${nonce}`).digest("base64url").slice(0, 22);
}

/** A fresh token for one warmup message. */
export function warmupToken(): string {
  const nonce = randomBytes(9).toString("base64url");
  return `${nonce}.${mac(nonce)}`;
}

/** Whether a header value is a token this installation made. */
export function isWarmupToken(value: string): boolean {
  const m = /^\s*([A-Za-z0-9_-]{8,64})\.([A-Za-z0-9_-]{22})\s*$/.exec(value);
  if (!m) return false;
  const want = Buffer.from(mac(m[1]));
  const got = Buffer.from(m[2]);
  return want.length === got.length && timingSafeEqual(want, got);
}

/** Whether parsed headers (mailparser's Map, lower-cased keys) or a raw header block carry a valid warmup token. */
export function hasWarmupHeader(headers: Map<string, unknown> | Buffer | string | undefined | null): boolean {
  if (!headers) return false;
  if (headers instanceof Map) {
    const v = headers.get(WARMUP_HEADER.toLowerCase());
    return v !== undefined && v !== null && isWarmupToken(String(v));
  }
  const raw = typeof headers === "string" ? headers : headers.toString("latin1");
  const m = new RegExp(`^${WARMUP_HEADER}:((?:[^\\r\\n]*)(?:\\r?\\n[ \\t]+[^\\r\\n]*)*)`, "im").exec(raw);
  return !!m && isWarmupToken(m[1].replace(/\r?\n[ \t]+/g, " "));
}
