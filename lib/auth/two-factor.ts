import { eq, sql } from "drizzle-orm";
import { selectRows } from "../../db/bulk";
import { recoveryCodes, users } from "../../db/schema";
import { auditAccount } from "../audit/record";
import { encryptSecret } from "../crypto/secretbox";
import { type Ctx, withTransaction } from "../ctx";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "../errors";
import { acceptTotp, checkSecondFactor, newTotpSecret, replaceRecoveryCodes, totpUri, unusedRecoveryCodes } from "./totp";

/** The user a personal account route acts for: only a dashboard session has one. */
export function sessionUserId(ctx: Ctx): string {
  if (ctx.actor.type !== "session") throw new ForbiddenError("Only a dashboard session can change its own sign-in");
  return ctx.actor.userId;
}

async function userRow(ctx: Ctx, userId: string, forUpdate = false) {
  const q = ctx.db
    .select({ id: users.id, email: users.email, secret: users.twoFactorSecret, enabledAt: users.twoFactorEnabledAt })
    .from(users)
    .where(eq(users.id, userId));
  const [u] = forUpdate ? await q.for("update") : await q;
  if (!u) throw new NotFoundError("User");
  return u;
}

/** Whether two-factor sign-in is on for the signed-in user, since when, and how many recovery codes are left. */
export async function twoFactorStatus(ctx: Ctx) {
  const u = await userRow(ctx, sessionUserId(ctx));
  return {
    enabled: u.enabledAt !== null,
    enabledAt: u.enabledAt?.toISOString() ?? null,
    recoveryCodesLeft: u.enabledAt ? await unusedRecoveryCodes(ctx.db, u.id) : 0,
  };
}

/**
 * Starts enrolment: a new secret (sealed in the user's row, not in force until a code from it turns
 * two-factor on). Calling it again before enabling replaces the secret; once on, it is a conflict
 * (turn it off first).
 */
export async function setupTwoFactor(ctx: Ctx): Promise<{ secret: string; otpauthUrl: string }> {
  const userId = sessionUserId(ctx);
  const secret = newTotpSecret();
  const [u] = await ctx.db
    .update(users)
    .set({ twoFactorSecret: encryptSecret(secret) })
    .where(sql`${users.id} = ${userId} and ${users.twoFactorEnabledAt} is null`)
    .returning({ email: users.email });
  if (!u) {
    await userRow(ctx, userId);
    throw new ConflictError("Two-factor sign-in is already on; turn it off first to enrol a new authenticator");
  }
  return { secret, otpauthUrl: totpUri(secret, u.email) };
}

const BAD_CODE = "is not valid; enter the 6-digit code your authenticator app shows now";

/** Turns two-factor sign-in on with a code from the pending secret; returns the 10 recovery codes, shown this once. */
export async function enableTwoFactor(ctx: Ctx, code: string): Promise<{ recoveryCodes: string[] }> {
  const userId = sessionUserId(ctx);
  const now = ctx.clock.now();
  return withTransaction(ctx, async (tx, c) => {
    const u = await userRow(c, userId, true);
    if (u.enabledAt) throw new ConflictError("Two-factor sign-in is already on");
    if (!u.secret) throw new ConflictError("Start with POST /account/two-factor/setup: there is no secret to confirm yet");
    if (!(await acceptTotp(tx, { id: u.id, sealedSecret: u.secret }, code.trim(), now))) throw ValidationError.field("code", BAD_CODE);
    const codes = await replaceRecoveryCodes(tx, u.id, now);
    await tx.update(users).set({ twoFactorEnabledAt: now }).where(eq(users.id, u.id));
    await auditAccount(tx, { userId: u.id, action: "auth.2fa_enabled", at: now, ip: ctx.ip, detail: { recoveryCount: codes.length } });
    return { recoveryCodes: codes };
  });
}

/** Names of the user's workspaces that require every member to sign in with a second factor. */
export async function workspacesRequiringTwoFactor(ctx: Ctx, userId: string): Promise<string[]> {
  const rows = await selectRows<{ name: string }>(
    ctx.db,
    sql`select w.name from memberships m join workspaces w on w.id = m.workspace_id
      where m.user_id = ${userId} and coalesce((w.settings->>'requireTwoFactor')::boolean, false)
      order by w.name`,
  );
  return rows.map((r) => r.name);
}

/**
 * Turns two-factor sign-in off with a current code or an unused recovery code: the secret and the
 * recovery codes go. Refused while a workspace of the user requires it.
 */
export async function disableTwoFactor(ctx: Ctx, code: string) {
  const userId = sessionUserId(ctx);
  const now = ctx.clock.now();
  const u = await userRow(ctx, userId);
  if (!u.enabledAt || !u.secret) throw new ConflictError("Two-factor sign-in is not on");
  const requiring = await workspacesRequiringTwoFactor(ctx, userId);
  if (requiring.length > 0) {
    throw new ConflictError(
      `${requiring.map((n) => `“${n}”`).join(", ")} ${requiring.length === 1 ? "requires" : "require"} two-factor sign-in for every member; ` +
        "it cannot be turned off while you are a member (an owner can lift the requirement under Settings → Security)",
      { workspaces: requiring },
    );
  }
  const factor = await checkSecondFactor(ctx.db, { id: u.id, sealedSecret: u.secret }, code, now);
  if (!factor.ok)
    throw ValidationError.field("code", "is not valid; enter a current code from your authenticator app or an unused recovery code");
  await withTransaction(ctx, async (tx) => {
    await tx.update(users).set({ twoFactorSecret: null, twoFactorEnabledAt: null }).where(eq(users.id, u.id));
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, u.id));
    await auditAccount(tx, { userId: u.id, action: "auth.2fa_disabled", at: now, ip: ctx.ip, detail: { via: factor.via } });
  });
  return { enabled: false, enabledAt: null, recoveryCodesLeft: 0 };
}
