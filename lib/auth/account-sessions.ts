import { auditAccount } from "../audit/record";
import type { Ctx } from "../ctx";
import { ForbiddenError, NotFoundError } from "../errors";
import { listSessions, revokeSession, revokeUserSessions } from "./sessions";

function sessionActor(ctx: Ctx): { userId: string; sessionId?: string } {
  if (ctx.actor.type !== "session") throw new ForbiddenError("Only a dashboard session can see its own sessions");
  return { userId: ctx.actor.userId, sessionId: ctx.actor.sessionId };
}

/** The signed-in user's open sessions, the most recently seen first; `current` marks the one asking. */
export async function mySessions(ctx: Ctx) {
  const a = sessionActor(ctx);
  return { sessions: await listSessions(ctx.db, a.userId, a.sessionId) };
}

/** Ends one of the user's sessions (the current one too: that is signing out here); 404 when it is not theirs or already ended. */
export async function endMySession(ctx: Ctx, sessionId: string) {
  const a = sessionActor(ctx);
  const now = ctx.clock.now();
  if (!(await revokeSession(ctx.db, a.userId, sessionId, "revoked_by_user", now))) throw new NotFoundError("Session");
  await auditAccount(ctx.db, {
    userId: a.userId,
    action: "auth.sessions_revoked",
    at: now,
    ip: ctx.ip,
    detail: { revoked: 1, sessionId, current: sessionId === a.sessionId },
  });
  return { revoked: 1 };
}

/** Ends every session of the user but the one making the request. */
export async function endMyOtherSessions(ctx: Ctx) {
  const a = sessionActor(ctx);
  const now = ctx.clock.now();
  const revoked = await revokeUserSessions(ctx.db, a.userId, "revoked_by_user", now, a.sessionId);
  if (revoked > 0) {
    await auditAccount(ctx.db, {
      userId: a.userId,
      action: "auth.sessions_revoked",
      at: now,
      ip: ctx.ip,
      detail: { revoked, others: true },
    });
  }
  return { revoked };
}
