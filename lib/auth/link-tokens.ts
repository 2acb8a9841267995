import { createHash, randomBytes } from "node:crypto";
import type { Ctx } from "../ctx";

/**
 * The secrets of emailed single-use links (invitations, password resets, email confirmations): 32
 * random bytes in base64url. Only their SHA-256 is stored, so a copy of the database opens no link;
 * the plain token exists in the link alone.
 */
export function newLinkToken(): string {
  return randomBytes(32).toString("base64url");
}

export function hashLinkToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** What a public route's domain verb receives: no workspace and no actor until the link names them. */
export type PublicCtx = Omit<Ctx, "workspaceId" | "actor">;
