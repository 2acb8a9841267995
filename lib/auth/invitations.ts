import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { selectRows } from "../../db/bulk";
import { invitations, memberships, users } from "../../db/schema";
import { audit } from "../audit/record";
import { withTransaction, type Ctx } from "../ctx";
import { appUrl } from "../env";
import { ConflictError, ForbiddenError, GoneError, NotFoundError, ValidationError } from "../errors";
import { newId } from "../ids";
import { sendSystemMail, systemMailerConfigured } from "../mail/system-mailer";
import { hashLinkToken, newLinkToken, type PublicCtx } from "./link-tokens";
import { sessionUser } from "./members";
import { hashPassword } from "./passwords";
import { hasRole, type Role } from "../roles";
import { invitationMail } from "./system-emails";
import { findUserByEmail, MIN_PASSWORD } from "./users";

/**
 * Invitations to a workspace: a single-use link valid 7 days whose token is stored only as its
 * SHA-256. Sent by the system mailer when one is configured; otherwise the link is shown once, for
 * the admin to pass on. Inviting again replaces the pending invitation of the same address.
 */

export const INVITATION_DAYS = 7;
const DAY_MS = 86_400_000;

export interface InvitationView {
  id: string;
  email: string;
  role: Role;
  expiresAt: string;
  createdAt: string;
  invitedBy: { userId: string; name: string | null; email: string } | null;
}

/** Pending: neither accepted nor revoked, and not expired at `now`. */
const pending = (now: Date) =>
  sql`${invitations.acceptedAt} is null and ${invitations.revokedAt} is null and ${invitations.expiresAt} > ${now.toISOString()}::timestamptz`;

const sameEmail = (email: string) => sql`lower(${invitations.email}) = lower(${email})`;

async function alreadyMember(db: DbOrTx, workspaceId: string, email: string): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.workspaceId, workspaceId), sql`lower(${users.email}) = lower(${email})`));
  return rows.length > 0;
}

async function inviterAndWorkspace(db: DbOrTx, userId: string, workspaceId: string) {
  const [r] = await selectRows<{ inviter: string; workspace: string }>(
    db,
    sql`select coalesce(nullif(u.name, ''), u.email) as inviter, w.name as workspace
    from users u, workspaces w where u.id = ${userId} and w.id = ${workspaceId}`,
  );
  return r;
}

/**
 * Invites `email` with `role`. Returns the link as `url` only when no email carried it (no system
 * mailer, or the mailer failed): it is shown once and never stored.
 */
export async function createInvitation(ctx: Ctx, input: { email: string; role: Role }) {
  const actor = sessionUser(ctx);
  if (input.role === "owner" && actor.role !== "owner") throw new ForbiddenError("Only an owner may invite an owner");
  const email = input.email.trim();
  if (await alreadyMember(ctx.db, ctx.workspaceId, email)) throw new ConflictError(`${email} is already a member of this workspace`);
  const token = newLinkToken();
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + INVITATION_DAYS * DAY_MS);
  const id = newId("inv");
  await withTransaction(ctx, async (tx, t) => {
    // Re-inviting replaces a pending invitation, but only an owner may replace (so revoke) an owner's.
    if (!hasRole(actor.role, "owner")) {
      const [owners] = await tx
        .select({ id: invitations.id })
        .from(invitations)
        .where(and(eq(invitations.workspaceId, t.workspaceId), sameEmail(email), pending(now), eq(invitations.role, "owner")));
      if (owners) throw new ForbiddenError(`${email} has a pending owner invitation: only an owner may replace it`);
    }
    const replaced = await tx
      .update(invitations)
      .set({ revokedAt: now })
      .where(and(eq(invitations.workspaceId, t.workspaceId), sameEmail(email), pending(now)))
      .returning({ id: invitations.id });
    await tx.insert(invitations).values({
      id,
      workspaceId: t.workspaceId,
      email,
      role: input.role,
      tokenHash: hashLinkToken(token),
      invitedBy: actor.userId,
      expiresAt,
      createdAt: now,
    });
    await audit(t, "member.invited", { type: "invitation", id, label: email }, { role: input.role, replacedInvitations: replaced.length });
  });
  const url = `${appUrl()}/invite/${token}`;
  const emailed = await emailInvitation(ctx, { to: email, role: input.role, url, expiresAt, inviterId: actor.userId });
  return { id, email, role: input.role, expiresAt: expiresAt.toISOString(), url: emailed ? null : url };
}

async function emailInvitation(
  ctx: Ctx,
  input: { to: string; role: Role; url: string; expiresAt: Date; inviterId: string },
): Promise<boolean> {
  if (!systemMailerConfigured()) return false;
  try {
    const names = await inviterAndWorkspace(ctx.db, input.inviterId, ctx.workspaceId);
    await sendSystemMail(invitationMail({ ...input, inviter: names.inviter, workspace: names.workspace }));
    return true;
  } catch (err) {
    ctx.log.warn("invitation email failed; the link is shown instead", { workspaceId: ctx.workspaceId, error: err as Error });
    return false;
  }
}

/** The workspace's pending invitations (no link: it was shown once). */
export async function listInvitations(ctx: Ctx): Promise<InvitationView[]> {
  sessionUser(ctx);
  const rows = await ctx.db
    .select({ inv: invitations, byName: users.name, byEmail: users.email })
    .from(invitations)
    .leftJoin(users, eq(users.id, invitations.invitedBy))
    .where(and(eq(invitations.workspaceId, ctx.workspaceId), pending(ctx.clock.now())))
    .orderBy(sql`${invitations.createdAt} desc, ${invitations.id}`);
  return rows.map(({ inv, byName, byEmail }) => ({
    id: inv.id,
    email: inv.email,
    role: inv.role,
    expiresAt: inv.expiresAt.toISOString(),
    createdAt: inv.createdAt.toISOString(),
    invitedBy: inv.invitedBy && byEmail ? { userId: inv.invitedBy, name: byName, email: byEmail } : null,
  }));
}

/** Revokes a pending invitation of this workspace: its link answers "gone" from then on. */
export async function revokeInvitation(ctx: Ctx, id: string): Promise<{ id: string; revoked: true }> {
  const actor = sessionUser(ctx);
  return withTransaction(ctx, async (tx, t) => {
    const [inv] = await tx
      .select()
      .from(invitations)
      .where(and(eq(invitations.id, id), eq(invitations.workspaceId, t.workspaceId), pending(t.clock.now())))
      .for("update");
    if (!inv) throw new NotFoundError("Pending invitation");
    if (inv.role === "owner" && actor.role !== "owner") throw new ForbiddenError("Only an owner may revoke an owner's invitation");
    await tx.update(invitations).set({ revokedAt: t.clock.now() }).where(eq(invitations.id, id));
    await audit(t, "member.invitation_revoked", { type: "invitation", id, label: inv.email }, { role: inv.role });
    return { id, revoked: true as const };
  });
}

type InvitationRow = typeof invitations.$inferSelect;

/** Why a link cannot be used, or undefined while it can. */
function goneReason(inv: InvitationRow | undefined, now: Date): string | undefined {
  if (!inv) return "This invitation link is not valid: check that it was copied whole, or ask for a new invitation";
  if (inv.acceptedAt) return "This invitation was already used; each link works once";
  if (inv.revokedAt) return "This invitation was withdrawn; ask the workspace's admin for a new one";
  if (inv.expiresAt <= now) return "This invitation has expired; ask the workspace's admin for a new one";
  return undefined;
}

export type InviteDetails =
  | { state: "gone"; reason: string }
  | {
      state: "pending";
      workspaceId: string;
      workspaceName: string;
      email: string;
      role: Role;
      invitedBy: { name: string | null; email: string } | null;
      expiresAt: Date;
      /** Whether an account with the invited email exists already (it then signs in rather than signs up). */
      accountExists: boolean;
    };

/** What the invitation page shows for a link. */
export async function invitationDetails(db: DbOrTx, token: string, now: Date): Promise<InviteDetails> {
  const [row] = await db
    .select({ inv: invitations, workspaceName: sql<string>`(select name from workspaces where id = ${invitations.workspaceId})` })
    .from(invitations)
    .where(eq(invitations.tokenHash, hashLinkToken(token)));
  const reason = goneReason(row?.inv, now);
  if (reason || !row) return { state: "gone", reason: reason ?? "" };
  const inviter = row.inv.invitedBy ? (await db.select().from(users).where(eq(users.id, row.inv.invitedBy)))[0] : undefined;
  return {
    state: "pending",
    workspaceId: row.inv.workspaceId,
    workspaceName: row.workspaceName,
    email: row.inv.email,
    role: row.inv.role,
    invitedBy: inviter ? { name: inviter.name, email: inviter.email } : null,
    expiresAt: row.inv.expiresAt,
    accountExists: Boolean(await findUserByEmail(db, row.inv.email)),
  };
}

export interface AcceptInput {
  token: string;
  /** The user of the request's open dashboard session, when it has one. */
  signedInUserId?: string;
  name?: string;
  password?: string;
}

/**
 * Who accepts: the signed-in user (with the invited email), or a new account. An existing account must
 * sign in first: its password is checked by the sign-in alone, with its limits and its second factor,
 * so that an invitation cannot be used to try passwords.
 */
async function acceptingUser(db: DbOrTx, inv: InvitationRow, input: AcceptInput) {
  if (input.signedInUserId) {
    const [user] = await db.select().from(users).where(eq(users.id, input.signedInUserId));
    if (!user) throw new ForbiddenError("This session's account no longer exists; sign in again");
    if (user.email.toLowerCase() !== inv.email.toLowerCase()) {
      throw new ForbiddenError(`This invitation is for ${inv.email}, but you are signed in as ${user.email}: sign out first`);
    }
    return { userId: user.id, create: undefined };
  }
  const existing = await findUserByEmail(db, inv.email);
  if (existing) throw new ForbiddenError(`An account with ${inv.email} exists already: sign in first, then accept the invitation`);
  if (!input.password || input.password.length < MIN_PASSWORD) {
    throw ValidationError.field("password", `must be at least ${MIN_PASSWORD} characters (it is the new account's password)`);
  }
  const create = { id: newId("usr"), email: inv.email, name: input.name?.trim() || null, passwordHash: await hashPassword(input.password) };
  return { userId: create.id, create };
}

/**
 * Accepts an invitation: the link is spent and the user joins the workspace with the invited role
 * (one already a member keeps the role they have). Expired, used, revoked or unknown links are gone.
 */
export async function acceptInvitation(pctx: PublicCtx, input: AcceptInput): Promise<{ userId: string; workspaceId: string; role: Role }> {
  const now = pctx.clock.now();
  const [found] = await pctx.db
    .select()
    .from(invitations)
    .where(eq(invitations.tokenHash, hashLinkToken(input.token)));
  const reason = goneReason(found, now);
  if (reason || !found) throw new GoneError(reason ?? "");
  const who = await acceptingUser(pctx.db, found, input);
  const asJoiner: Ctx = { ...pctx, workspaceId: found.workspaceId, actor: { type: "session", userId: who.userId, role: found.role } };
  return withTransaction(asJoiner, async (tx, t) => {
    if (who.create) await tx.insert(users).values(who.create);
    const claimed = await tx
      .update(invitations)
      .set({ acceptedAt: now, acceptedBy: who.userId })
      .where(and(eq(invitations.id, found.id), pending(now)))
      .returning({ id: invitations.id });
    if (claimed.length === 0) throw new GoneError("This invitation was already used; each link works once");
    await tx
      .insert(memberships)
      .values({ workspaceId: found.workspaceId, userId: who.userId, role: found.role, createdAt: now })
      .onConflictDoNothing();
    const [m] = await tx
      .select({ role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.workspaceId, found.workspaceId), eq(memberships.userId, who.userId)));
    await audit(
      t,
      "member.joined",
      { type: "user", id: who.userId, label: found.email },
      { role: m.role, invitationId: found.id, invitedBy: found.invitedBy, newAccount: Boolean(who.create) },
    );
    return { userId: who.userId, workspaceId: found.workspaceId, role: m.role };
  });
}
