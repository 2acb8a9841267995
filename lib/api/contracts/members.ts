import { z } from "zod";
import { ROLES } from "../../roles";
import { defineRoute } from "../route";

const role = z.enum(ROLES).describe("owner, admin, member or client (a read-only seat)");
const password = z.string().max(200);
const newPassword = z.string().min(8, "must be at least 8 characters").max(200);
const workspaceName = z.string().trim().min(1).max(100);

export const memberSchema = z.object({
  userId: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  role,
  twoFactor: z.boolean().describe("Whether two-factor sign-in is on for this user"),
  lastActiveAt: z
    .string()
    .nullable()
    .describe("The latest of their sessions' last activity and their API keys' last use in this workspace; null if never"),
});
export const invitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role,
  expiresAt: z.string(),
  createdAt: z.string(),
  invitedBy: z.object({ userId: z.string(), name: z.string().nullable(), email: z.string() }).nullable(),
});
export const createdInvitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role,
  expiresAt: z.string(),
  url: z.string().nullable().describe("The single-use link, shown this once; null when the system mailer emailed it (SYSTEM_SMTP_URL)"),
});
const joinedSchema = z.object({ userId: z.string(), workspaceId: z.string(), role });
const profileSchema = z.object({ userId: z.string(), email: z.string(), name: z.string().nullable() });

const personal = { tag: "Account", credential: "session", role: "client" } as const;
const admin = { tag: "Account", credential: "session", role: "admin" } as const;
/** No credential; counted per IP, and a tighter count of its own where a password or link is tried. */
const open = (name: string, points: number) =>
  ({ tag: "Account", credential: "public", role: "client", extraLimit: { name, points, durationSeconds: 60 } }) as const;

const memberParamsNote = "`userId` is the member's user id.";

/** Members, invitations, workspaces and the user's profile (session only), and the public links they send. */
export const memberRoutes = {
  listMembers: defineRoute({
    ...admin,
    method: "GET",
    path: "/account/members",
    access: "read",
    summary: "The workspace's members with their role, two-factor status and last activity (owner or admin session)",
    response: { description: "`{ members }`", schema: z.object({ members: z.array(memberSchema) }) },
  }),
  changeRole: defineRoute({
    ...admin,
    method: "PATCH",
    path: "/account/members/{userId}",
    access: "write",
    body: z.object({ role }),
    summary: `Change a member's role. Only an owner makes or unmakes an owner; the last owner cannot be demoted (409). ${memberParamsNote}`,
    response: { description: "The member", schema: memberSchema },
    errors: [409],
  }),
  removeMember: defineRoute({
    ...personal,
    method: "DELETE",
    path: "/account/members/{userId}",
    access: "write",
    summary:
      "Remove a member (owner or admin), or leave the workspace (your own user id, any role). At once: their sessions end, " +
      "their API keys here are revoked and their conversations unassigned. The last owner cannot be removed (409)",
    response: {
      description: "`{ userId, removed, sessionsEnded, keysRevoked }`",
      schema: z.object({ userId: z.string(), removed: z.literal(true), sessionsEnded: z.number().int(), keysRevoked: z.number().int() }),
    },
    errors: [409],
  }),
  listInvitations: defineRoute({
    ...admin,
    method: "GET",
    path: "/account/invitations",
    access: "read",
    summary: "Pending invitations (not accepted, revoked or expired); their links are not shown again",
    response: { description: "`{ invitations }`", schema: z.object({ invitations: z.array(invitationSchema) }) },
  }),
  createInvitation: defineRoute({
    ...admin,
    method: "POST",
    path: "/account/invitations",
    access: "write",
    body: z.object({ email: z.email().max(320), role }),
    summary:
      "Invite someone by email: a single-use link valid 7 days, emailed by the system mailer when one is configured, else in `url` once. " +
      "Inviting an owner needs an owner; an address already a member is 409; inviting a pending address again replaces its invitation",
    response: { status: 201, description: "`{ id, email, role, expiresAt, url }`", schema: createdInvitationSchema },
    errors: [409],
  }),
  revokeInvitation: defineRoute({
    ...admin,
    method: "DELETE",
    path: "/account/invitations/{id}",
    access: "write",
    summary: "Withdraw a pending invitation: its link answers 410 from then on",
    response: { description: "`{ id, revoked }`", schema: z.object({ id: z.string(), revoked: z.literal(true) }) },
  }),
  acceptInvitation: defineRoute({
    ...open("invitation-accept", 20),
    method: "POST",
    path: "/invitations/{token}/accept",
    access: "write",
    body: z.object({
      name: z.string().trim().max(100).optional().describe("For a new account"),
      password: password.optional().describe("A new account's password (at least 8 characters), or the existing account's"),
    }),
    bodyOptional: true,
    summary:
      "Accept an invitation (public: the link is the credential). With a session cookie the signed-in user joins (their email must be the invited one); " +
      "without, a new account is created for the invited email, or an existing one joins with its password. Expired, used or unknown links are 410 GONE",
    response: { description: "`{ userId, workspaceId, role }`", schema: joinedSchema },
    errors: [410],
  }),
  createWorkspace: defineRoute({
    ...personal,
    method: "POST",
    path: "/account/workspaces",
    access: "write",
    body: z.object({ name: workspaceName }),
    summary: "Create a workspace; the signed-in user is its owner (any role)",
    response: {
      status: 201,
      description: "`{ id, name, role }`",
      schema: z.object({ id: z.string(), name: z.string(), role: z.literal("owner") }),
    },
  }),
  renameWorkspace: defineRoute({
    ...admin,
    method: "PATCH",
    path: "/account/workspace",
    access: "write",
    body: z.object({ name: workspaceName }),
    summary: "Rename the current workspace (owner or admin session)",
    response: { description: "`{ id, name }`", schema: z.object({ id: z.string(), name: z.string() }) },
  }),
  updateProfile: defineRoute({
    ...personal,
    method: "PATCH",
    path: "/account/profile",
    access: "write",
    body: z.object({ name: z.string().trim().max(100).nullable().describe("Empty or null clears it") }),
    summary: "Change the signed-in user's name",
    response: { description: "`{ userId, email, name }`", schema: profileSchema },
  }),
  changeEmail: defineRoute({
    ...personal,
    method: "POST",
    path: "/account/email",
    access: "write",
    body: z.object({ email: z.email().max(320), currentPassword: password }),
    extraLimit: { name: "password-check", points: 10, durationSeconds: 300 },
    summary:
      "Start changing the signed-in user's email: a confirmation link (valid 24 hours) goes to the NEW address by the system mailer, " +
      "or is in `url` once when there is none. The address changes when the link is opened",
    response: {
      description: "`{ newEmail, expiresAt, sent, url }`",
      schema: z.object({ newEmail: z.string(), expiresAt: z.string(), sent: z.boolean(), url: z.string().nullable() }),
    },
    errors: [409],
  }),
  confirmEmail: defineRoute({
    ...open("email-confirm", 20),
    method: "POST",
    path: "/account/email/confirm/{token}",
    access: "write",
    summary:
      "Confirm an email change from its link (public: the link is the credential). 410 for a used or expired link, 409 if the address was taken meanwhile",
    response: { description: "`{ userId, email }`", schema: z.object({ userId: z.string(), email: z.string() }) },
    errors: [410],
  }),
  changePassword: defineRoute({
    ...personal,
    method: "POST",
    path: "/account/password",
    access: "write",
    body: z.object({ currentPassword: password, newPassword }),
    extraLimit: { name: "password-check", points: 10, durationSeconds: 300 },
    summary: "Change the signed-in user's password. Every other session of theirs ends at once; this one stays",
    response: {
      description: "`{ changed, otherSessionsEnded }`",
      schema: z.object({ changed: z.literal(true), otherSessionsEnded: z.number().int() }),
    },
  }),
  requestPasswordReset: defineRoute({
    ...open("password-reset", 5),
    method: "POST",
    path: "/password-reset",
    access: "write",
    body: z.object({ email: z.string().trim().max(320) }),
    summary:
      "Ask for a password reset link (public). Always 202, whether or not the account exists; `sent` says whether a system mailer is configured. " +
      "Without one, the operator runs `npx outreach reset-password --email …`",
    response: { status: 202, description: "`{ sent }`", schema: z.object({ sent: z.boolean() }) },
  }),
  resetPassword: defineRoute({
    ...open("password-reset-link", 20),
    method: "POST",
    path: "/password-reset/{token}",
    access: "write",
    body: z.object({ password: newPassword }),
    summary:
      "Set a new password from a reset link (public; valid 1 hour, single use). Every session of the account ends. 410 for a bad link",
    response: { description: "`{ reset }`", schema: z.object({ reset: z.literal(true) }) },
    errors: [410],
  }),
};
