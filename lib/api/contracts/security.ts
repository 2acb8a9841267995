import { z } from "zod";
import { defineRoute } from "../route";

const codeBody = z.object({
  code: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .describe("A 6-digit code from the authenticator app (turning off also accepts an unused recovery code)"),
});

export const twoFactorStatusSchema = z.object({
  enabled: z.boolean(),
  enabledAt: z.string().nullable(),
  recoveryCodesLeft: z.number().int().describe("Unused recovery codes (0 when two-factor sign-in is off)"),
});
export const twoFactorSetupSchema = z.object({
  secret: z.string().describe("The base32 secret, for typing into an app by hand"),
  otpauthUrl: z.string().describe("`otpauth://totp/…`, for a QR code"),
});
export const recoveryCodesSchema = z.object({
  recoveryCodes: z.array(z.string()).describe("Ten single-use codes of 10 characters, shown this once"),
});
export const sessionSchema = z.object({
  id: z.string(),
  userAgent: z.string().nullable(),
  ip: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  current: z.boolean().describe("The session making this request"),
});
export const securitySettingsSchema = z.object({ requireTwoFactor: z.boolean() });

const personal = { tag: "Account", credential: "session", role: "client" } as const;

/** Two-factor sign-in, sessions and the workspace's security setting (session only). */
export const securityRoutes = {
  twoFactorStatus: defineRoute({
    ...personal,
    method: "GET",
    path: "/account/two-factor",
    access: "read",
    summary: "Whether two-factor sign-in is on for the signed-in user (session only)",
    response: { description: "`{ enabled, enabledAt, recoveryCodesLeft }`", schema: twoFactorStatusSchema },
  }),
  twoFactorSetup: defineRoute({
    ...personal,
    method: "POST",
    path: "/account/two-factor/setup",
    access: "write",
    summary: "Start enrolling an authenticator: a new secret, not in force until enabled (again before enabling replaces it)",
    response: { description: "`{ secret, otpauthUrl }`", schema: twoFactorSetupSchema },
    errors: [409],
  }),
  twoFactorEnable: defineRoute({
    ...personal,
    method: "POST",
    path: "/account/two-factor/enable",
    access: "write",
    body: codeBody,
    extraLimit: { name: "two-factor", points: 10, durationSeconds: 300 },
    summary: "Turn two-factor sign-in on with a current code; the recovery codes are in the response once",
    response: { description: "`{ recoveryCodes }`", schema: recoveryCodesSchema },
    errors: [409],
  }),
  twoFactorDisable: defineRoute({
    ...personal,
    method: "DELETE",
    path: "/account/two-factor",
    access: "write",
    body: codeBody,
    extraLimit: { name: "two-factor", points: 10, durationSeconds: 300 },
    summary: "Turn two-factor sign-in off with a current code or an unused recovery code (409 while a workspace requires it)",
    response: { description: "`{ enabled: false, … }`", schema: twoFactorStatusSchema },
    errors: [409],
  }),
  listSessions: defineRoute({
    ...personal,
    method: "GET",
    path: "/account/sessions",
    access: "read",
    summary: "The signed-in user's open sessions (browsers), the most recently seen first",
    response: { description: "`{ sessions }`", schema: z.object({ sessions: z.array(sessionSchema) }) },
  }),
  endSession: defineRoute({
    ...personal,
    method: "DELETE",
    path: "/account/sessions/{id}",
    access: "write",
    summary: "End one of your sessions (its next request is 401); the current one may be ended too",
    response: { description: "`{ revoked: 1 }`", schema: z.object({ revoked: z.number().int() }) },
  }),
  endOtherSessions: defineRoute({
    ...personal,
    method: "POST",
    path: "/account/sessions/revoke-others",
    access: "write",
    summary: "End every session of yours but this one",
    response: { description: "`{ revoked }`: how many were ended", schema: z.object({ revoked: z.number().int() }) },
  }),
  getSecuritySettings: defineRoute({
    ...personal,
    method: "GET",
    path: "/settings/security",
    access: "read",
    summary: "The workspace's security settings (any member may read them)",
    response: { description: "`{ requireTwoFactor }`", schema: securitySettingsSchema },
  }),
  putSecuritySettings: defineRoute({
    ...personal,
    method: "PUT",
    path: "/settings/security",
    access: "write",
    role: "owner",
    body: securitySettingsSchema,
    summary:
      "Require two-factor sign-in of every member (owner only; the owner's own must be on). Members without it are signed out and must enrol",
    response: { description: "`{ requireTwoFactor }`", schema: securitySettingsSchema },
    errors: [409],
  }),
};
