import { getDb, type DbOrTx, type Tx } from "../db/client";
import { currentClock, type Clock } from "./clock";
import { ForbiddenError } from "./errors";
import { type Logger, stderrLogger } from "./log";
import { hasRole, type Role } from "./roles";

export type Scope = "read" | "full";

export type Actor =
  | { type: "apiKey"; keyId: string; userId: string; role: Role; scope: Scope }
  | {
      type: "session";
      userId: string;
      role: Role;
      /** The session row of the request's cookie (absent where a session's action resumes later, as an OAuth callback). */
      sessionId?: string;
      /** The workspace requires two-factor sign-in and this user has not enrolled: only their own account routes answer. */
      mustEnrolTwoFactor?: boolean;
    }
  | { type: "system" };

/** What every domain verb receives: whose workspace, who acts, which db handle, which clock, where to log. */
export interface Ctx {
  workspaceId: string;
  actor: Actor;
  db: DbOrTx;
  clock: Clock;
  log: Logger;
  /** The caller's IP, for the audit log (absent for system work). */
  ip?: string;
}

/** A job's context: no workspace yet (jobs work across workspaces), the system actor. */
export type JobCtx = Omit<Ctx, "workspaceId">;

/**
 * The context every background job and system action builds — the one way to make a system actor.
 * Without `workspaceId` it is a job context; db, clock and logger default to the process's.
 */
export function systemCtx(workspaceId: string, parts?: Partial<Omit<Ctx, "workspaceId" | "actor">>): Ctx;
export function systemCtx(workspaceId?: undefined, parts?: Partial<Omit<Ctx, "workspaceId" | "actor">>): JobCtx;
export function systemCtx(workspaceId?: string, parts: Partial<Omit<Ctx, "workspaceId" | "actor">> = {}): Ctx | JobCtx {
  const base: JobCtx = {
    actor: { type: "system" },
    db: parts.db ?? getDb(),
    clock: parts.clock ?? currentClock(),
    log: parts.log ?? stderrLogger,
  };
  return workspaceId === undefined ? base : { ...base, workspaceId };
}

/** Write access: a full-scope key, a session, or the system. */
export function requireAccess(ctx: Ctx, access: "read" | "write"): void {
  if (access === "write" && ctx.actor.type === "apiKey" && ctx.actor.scope !== "full") {
    throw new ForbiddenError("This API key is read-only; a full-access key is needed for this route");
  }
}

const NEEDS: Record<Role, string> = {
  owner: "a workspace owner",
  admin: "a workspace owner or admin",
  member: "a workspace member (a client seat is read-only)",
  client: "a workspace member",
};

/** Role-gated operations (the rights table in lib/roles.ts): 403 below the role. */
export function requireRole(ctx: Ctx, role: Role): void {
  if (ctx.actor.type === "system") return;
  if (!hasRole(ctx.actor.role, role)) throw new ForbiddenError(`Only ${NEEDS[role]} may do this; you are ${ctx.actor.role}`);
}

/** Runs fn in one transaction (or inside the one ctx already holds), so a failure writes nothing. */
export async function withTransaction<T>(ctx: Ctx, fn: (tx: Tx, ctx: Ctx) => Promise<T>): Promise<T> {
  const db = ctx.db as DbOrTx & { transaction: (f: (tx: Tx) => Promise<T>) => Promise<T> };
  return db.transaction((tx) => fn(tx, { ...ctx, db: tx }));
}
