import { createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import { lt } from "drizzle-orm";
import { oauthFlows } from "../../db/schema";
import type { Ctx } from "../ctx";
import { outreachSecret } from "../env";
import { ForbiddenError } from "../errors";
import { newId } from "../ids";
import type { OAuthProviderId } from "./providers";

/** How long a consent may take, from the start route to the callback. */
export const FLOW_TTL_MS = 15 * 60_000;

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

/**
 * Records a consent in progress (an oauth_flows row, used once by the callback) and signs the state that
 * names it, bound to the workspace, the user and the provider. An API key's flow belongs to the member
 * who created the key. `what` names the flow in the refusal of a system actor.
 */
export async function openFlow(
  ctx: Ctx,
  provider: OAuthProviderId,
  what: string,
  fields: { codeVerifierEnc: string; options: Record<string, unknown> },
): Promise<{ state: string; expiresAt: Date }> {
  if (ctx.actor.type === "system") throw new ForbiddenError(`${what} is started by a user or an API key`);
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + FLOW_TTL_MS);
  const flowId = newId("oaf");
  // Flows never finished (the user closed the tab) are cleared here rather than by a job of their own.
  await ctx.db.delete(oauthFlows).where(lt(oauthFlows.expiresAt, now));
  await ctx.db.insert(oauthFlows).values({
    id: flowId,
    workspaceId: ctx.workspaceId,
    userId: ctx.actor.userId,
    actorType: ctx.actor.type,
    provider,
    ...fields,
    expiresAt,
    createdAt: now,
  });
  const state = signState({
    flowId,
    workspaceId: ctx.workspaceId,
    userId: ctx.actor.userId,
    provider,
    exp: Math.floor(expiresAt.getTime() / 1000),
  });
  return { state, expiresAt };
}
