import { createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import { outreachSecret } from "../env";
import type { OAuthProviderId } from "./providers";

/** PKCE (RFC 7636): a 43-character verifier from 32 random bytes, and its S256 challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** What the state names: the pending flow and whose it is. */
export interface StatePayload {
  flowId: string;
  workspaceId: string;
  userId: string;
  provider: OAuthProviderId;
  /** Unix seconds after which the state is refused. */
  exp: number;
}

let cachedKey: { secret: string; key: Buffer } | undefined;

/** A key of its own for states, derived from the installation secret (never the one that seals passwords). */
function stateKey(): Buffer {
  const secret = outreachSecret();
  if (cachedKey?.secret !== secret) cachedKey = { secret, key: Buffer.from(hkdfSync("sha256", secret, "outreach", "oauth-state-v1", 32)) };
  return cachedKey.key;
}

const mac = (body: string) => createHmac("sha256", stateKey()).update(body).digest("base64url");

/** `<base64url JSON>.<HMAC-SHA256>`: tamper-evident, bound to the workspace, the user and the provider. */
export function signState(p: StatePayload): string {
  const body = Buffer.from(JSON.stringify([p.flowId, p.workspaceId, p.userId, p.provider, p.exp])).toString("base64url");
  return `${body}.${mac(body)}`;
}

export type StateCheck = { ok: true; payload: StatePayload } | { ok: false; reason: string };

/** Verifies the signature and the expiry (against the injected clock's `now`). */
export function verifyState(state: string, now: Date): StateCheck {
  const [body, sig, extra] = state.split(".");
  if (!body || !sig || extra !== undefined) return { ok: false, reason: "The sign-in link is malformed" };
  const want = Buffer.from(mac(body));
  const got = Buffer.from(sig);
  if (want.length !== got.length || !timingSafeEqual(want, got))
    return { ok: false, reason: "The sign-in link's signature does not match" };
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    return { ok: false, reason: "The sign-in link is malformed" };
  }
  if (!Array.isArray(parts) || parts.length !== 5) return { ok: false, reason: "The sign-in link is malformed" };
  const [flowId, workspaceId, userId, provider, exp] = parts as [string, string, string, OAuthProviderId, number];
  if (exp * 1000 < now.getTime()) return { ok: false, reason: "The sign-in link has expired; start connecting the mailbox again" };
  return { ok: true, payload: { flowId, workspaceId, userId, provider, exp } };
}
