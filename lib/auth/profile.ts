import { randomBytes } from "node:crypto";
import { and, eq, gt, isNull, ne, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { memberships, users, userTokens, workspaces } from "../../db/schema";
import { audit, auditAccount } from "../audit/record";
import { withTransaction, type Ctx } from "../ctx";
import { appUrl } from "../env";
import { ConflictError, GoneError, NotFoundError, ValidationError } from "../errors";
import { newId } from "../ids";
import { sendSystemMail, systemMailerConfigured } from "../mail/system-mailer";
import { hashLinkToken, newLinkToken, type PublicCtx } from "./link-tokens";
import { sessionUser } from "./members";
import { hashPassword, verifyPassword } from "./passwords";
import { revokeUserSessions } from "./sessions";
import { emailChangeMail, passwordResetMail } from "./system-emails";
import { findUserByEmail, MIN_PASSWORD } from "./users";

/**
 * A user's own account and workspaces: their name, email address (changed through a link sent to
 * the new address), password (changing it signs out their other sessions; a reset signs out all),
 * and new workspaces of their own.
 */

const HOUR_MS = 3_600_000;
export const EMAIL_CHANGE_HOURS = 24;
export const PASSWORD_RESET_HOURS = 1;

// ————— workspaces —————

/** Any signed-in user may create a workspace; they are its owner. */
export async function createWorkspace(ctx: Ctx, name: string): Promise<{ id: string; name: string; role: "owner" }> {
  const { userId } = sessionUser(ctx);
  const id = newId("ws");
  const now = ctx.clock.now();
  await withTransaction(ctx, async (tx, t) => {
    await tx.insert(workspaces).values({ id, name, createdAt: now });
    await tx.insert(memberships).values({ workspaceId: id, userId, role: "owner", createdAt: now });
    await audit({ ...t, workspaceId: id }, "workspace.created", { type: "workspace", id, label: name });
  });
  return { id, name, role: "owner" };
}

/** Renames the current workspace (admin). */
export async function renameWorkspace(ctx: Ctx, name: string): Promise<{ id: string; name: string }> {
  return withTransaction(ctx, async (tx, t) => {
    const [before] = await tx.select({ name: workspaces.name }).from(workspaces).where(eq(workspaces.id, t.workspaceId)).for("update");
    if (!before) throw new NotFoundError("Workspace");
    if (before.name !== name) {
      await tx.update(workspaces).set({ name }).where(eq(workspaces.id, t.workspaceId));
      await audit(t, "settings.changed", { type: "workspace", id: t.workspaceId, label: name }, { name: { from: before.name, to: name } });
    }
    return { id: t.workspaceId, name };
  });
}

// ————— profile —————

export interface ProfileView {
  userId: string;
  email: string;
  name: string | null;
}

export async function updateProfile(ctx: Ctx, input: { name: string | null }): Promise<ProfileView> {
  const { userId } = sessionUser(ctx);
  const name = input.name?.trim() || null;
  const [u] = await ctx.db.update(users).set({ name }).where(eq(users.id, userId)).returning();
  if (!u) throw new NotFoundError("User");
  return { userId: u.id, email: u.email, name: u.name };
}

async function checkCurrentPassword(db: DbOrTx, userId: string, password: string) {
  const [u] = await db.select().from(users).where(eq(users.id, userId));
  if (!u) throw new NotFoundError("User");
  if (!(await verifyPassword(password, u.passwordHash))) throw ValidationError.field("currentPassword", "is not your current password");
  return u;
}

async function emailTaken(db: DbOrTx, email: string, exceptUserId: string): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.email}) = lower(${email})`, ne(users.id, exceptUserId)));
  return rows.length > 0;
}

/**
 * Starts an email change: a link to the new address (valid 24 hours) switches it. Sent by the system
 * mailer when there is one; otherwise (or when sending failed) the link is answered here, once.
 */
export async function requestEmailChange(ctx: Ctx, input: { email: string; currentPassword: string }) {
  const { userId } = sessionUser(ctx);
  const user = await checkCurrentPassword(ctx.db, userId, input.currentPassword);
  const email = input.email.trim();
  if (email.toLowerCase() === user.email.toLowerCase()) throw ValidationError.field("email", "is already your email address");
  if (await emailTaken(ctx.db, email, userId)) throw new ConflictError(`Another account uses ${email}`);
  const token = newLinkToken();
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + EMAIL_CHANGE_HOURS * HOUR_MS);
  await ctx.db
    .update(userTokens)
    .set({ usedAt: now })
    .where(and(eq(userTokens.userId, userId), eq(userTokens.kind, "email_change"), isNull(userTokens.usedAt)));
  await ctx.db.insert(userTokens).values({
    id: newId("utk"),
    userId,
    kind: "email_change",
    tokenHash: hashLinkToken(token),
    newEmail: email,
    expiresAt,
    createdAt: now,
  });
  const url = `${appUrl()}/confirm-email/${token}`;
  const sent = await trySend(ctx, () => sendSystemMail(emailChangeMail({ to: email, url, expiresAt })), "email confirmation");
  return { newEmail: email, expiresAt: expiresAt.toISOString(), sent, url: sent ? null : url };
}

async function trySend(ctx: Pick<Ctx, "log">, send: () => Promise<unknown>, what: string): Promise<boolean> {
  if (!systemMailerConfigured()) return false;
  try {
    await send();
    return true;
  } catch (err) {
    ctx.log.warn(`${what} email failed`, { error: err as Error });
    return false;
  }
}

type TokenRow = typeof userTokens.$inferSelect;

/** Spends a link of `kind`: marks it used in the caller's transaction, or throws GONE. */
async function spendToken(tx: DbOrTx, kind: TokenRow["kind"], token: string, now: Date): Promise<TokenRow> {
  const [row] = await tx
    .update(userTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(userTokens.tokenHash, hashLinkToken(token)),
        eq(userTokens.kind, kind),
        isNull(userTokens.usedAt),
        gt(userTokens.expiresAt, now),
      ),
    )
    .returning();
  if (!row) throw new GoneError("This link is expired, already used or not valid: ask for a new one");
  return row;
}

/** Runs fn in one transaction of `db` (a savepoint inside one already open). */
function transaction<T>(db: DbOrTx, fn: (tx: DbOrTx) => Promise<T>): Promise<T> {
  const withTx = db as DbOrTx & { transaction: (f: (tx: DbOrTx) => Promise<T>) => Promise<T> };
  return withTx.transaction(fn);
}

/** What a page shows for an emailed link before it is used: whose account, and for an email change the new address. */
export async function linkDetails(
  db: DbOrTx,
  kind: TokenRow["kind"],
  token: string,
  now: Date,
): Promise<{ state: "pending"; email: string; newEmail: string | null } | { state: "gone" }> {
  const [row] = await db
    .select({ email: users.email, newEmail: userTokens.newEmail })
    .from(userTokens)
    .innerJoin(users, eq(users.id, userTokens.userId))
    .where(
      and(
        eq(userTokens.tokenHash, hashLinkToken(token)),
        eq(userTokens.kind, kind),
        isNull(userTokens.usedAt),
        gt(userTokens.expiresAt, now),
      ),
    );
  return row ? { state: "pending", email: row.email, newEmail: row.newEmail } : { state: "gone" };
}

/** Confirms an email change from its link (public: the link is the credential). */
export async function confirmEmailChange(pctx: PublicCtx, token: string): Promise<{ userId: string; email: string }> {
  const now = pctx.clock.now();
  return transaction(pctx.db, async (tx) => {
    const row = await spendToken(tx, "email_change", token, now);
    const email = row.newEmail ?? "";
    if (await emailTaken(tx, email, row.userId)) throw new ConflictError(`Another account started using ${email} meanwhile`);
    const [before] = await tx.select({ email: users.email }).from(users).where(eq(users.id, row.userId));
    await tx.update(users).set({ email }).where(eq(users.id, row.userId));
    // Reset links already sent to the old address stop working with it.
    await tx
      .update(userTokens)
      .set({ usedAt: now })
      .where(and(eq(userTokens.userId, row.userId), eq(userTokens.kind, "password_reset"), isNull(userTokens.usedAt)));
    await auditAccount(tx, {
      userId: row.userId,
      action: "auth.email_changed",
      at: now,
      ip: pctx.ip,
      detail: { from: before?.email, to: email },
    });
    return { userId: row.userId, email };
  });
}

// ————— passwords —————

function checkNewPassword(field: string, password: string) {
  if (password.length < MIN_PASSWORD) throw ValidationError.field(field, `must be at least ${MIN_PASSWORD} characters`);
}

/** Sets a user's password and ends their sessions (all, or all but `keep`). Unused reset links are spent too. */
async function setPassword(tx: DbOrTx, userId: string, password: string, now: Date, keep?: string): Promise<number> {
  await tx
    .update(users)
    .set({ passwordHash: await hashPassword(password) })
    .where(eq(users.id, userId));
  await tx
    .update(userTokens)
    .set({ usedAt: now })
    .where(and(eq(userTokens.userId, userId), eq(userTokens.kind, "password_reset"), isNull(userTokens.usedAt)));
  return revokeUserSessions(tx, userId, "password_changed", now, keep);
}

/** Changes the signed-in user's password; their other sessions end at once, this one stays. */
export async function changePassword(ctx: Ctx, input: { currentPassword: string; newPassword: string }) {
  const { userId, sessionId } = sessionUser(ctx);
  await checkCurrentPassword(ctx.db, userId, input.currentPassword);
  checkNewPassword("newPassword", input.newPassword);
  const now = ctx.clock.now();
  return withTransaction(ctx, async (tx) => {
    const ended = await setPassword(tx, userId, input.newPassword, now, sessionId);
    await auditAccount(tx, { userId, action: "auth.password_changed", at: now, ip: ctx.ip, detail: { otherSessionsEnded: ended } });
    return { changed: true as const, otherSessionsEnded: ended };
  });
}

/**
 * Asks for a reset link. Says nothing about whether the account exists: with a system mailer a
 * known address gets a link (valid 1 hour) and an unknown one nothing; without one, nothing is sent
 * and the operator resets the password with `npx outreach reset-password`.
 */
export async function requestPasswordReset(pctx: PublicCtx, email: string): Promise<{ sent: boolean }> {
  if (!systemMailerConfigured()) return { sent: false };
  const user = await findUserByEmail(pctx.db, email);
  if (!user) return { sent: true };
  const token = newLinkToken();
  const now = pctx.clock.now();
  const expiresAt = new Date(now.getTime() + PASSWORD_RESET_HOURS * HOUR_MS);
  await pctx.db
    .insert(userTokens)
    .values({ id: newId("utk"), userId: user.id, kind: "password_reset", tokenHash: hashLinkToken(token), expiresAt, createdAt: now });
  const url = `${appUrl()}/reset-password/${token}`;
  // In the background: answering only once the mail server has would tell known addresses from unknown ones by the time taken.
  void trySend(pctx, () => sendSystemMail(passwordResetMail({ to: user.email, url, expiresAt })), "password reset");
  return { sent: true };
}

/** Sets a new password from a reset link; every session of the account ends. */
export async function resetPassword(pctx: PublicCtx, token: string, password: string): Promise<{ reset: true }> {
  checkNewPassword("password", password);
  const now = pctx.clock.now();
  return transaction(pctx.db, async (tx) => {
    const row = await spendToken(tx, "password_reset", token, now);
    const ended = await setPassword(tx, row.userId, password, now);
    await auditAccount(tx, {
      userId: row.userId,
      action: "auth.password_reset",
      at: now,
      ip: pctx.ip,
      detail: { via: "link", sessionsEnded: ended },
    });
    return { reset: true as const };
  });
}

/** A strong password for the CLI to print once: 18 random bytes, base64url (24 characters). */
export function generatePassword(): string {
  return randomBytes(18).toString("base64url");
}

/**
 * The operator's reset (`npx outreach reset-password`): no mailer and no link needed. Sets the given
 * password or a generated one, and ends every session of the account.
 */
export async function resetPasswordByOperator(
  db: DbOrTx,
  input: { email: string; password?: string },
  now: Date,
): Promise<{ userId: string; email: string; password: string; generated: boolean; sessionsEnded: number }> {
  const user = await findUserByEmail(db, input.email);
  if (!user) throw new NotFoundError(`Account with email ${input.email.trim()}`);
  const generated = input.password === undefined;
  const password = input.password ?? generatePassword();
  checkNewPassword("password", password);
  const sessionsEnded = await transaction(db, async (tx) => {
    const ended = await setPassword(tx, user.id, password, now);
    await auditAccount(tx, { userId: user.id, action: "auth.password_reset", at: now, detail: { via: "cli", sessionsEnded: ended } });
    return ended;
  });
  return { userId: user.id, email: user.email, password, generated, sessionsEnded };
}
