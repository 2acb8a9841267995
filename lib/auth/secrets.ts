import { createHash } from "node:crypto";
import { outreachSecret, serviceEnv } from "../env";

/** The key next-auth signs and encrypts session tokens with, derived from OUTREACH_SECRET. */
export function sessionSecret(): string {
  return serviceEnv.nextAuthSecret ?? createHash("sha256").update(`nextauth:${outreachSecret()}`).digest("hex");
}

export const SESSION_COOKIE_NAMES = ["__Secure-next-auth.session-token", "next-auth.session-token"];

/** The cookie the dashboard's workspace switcher sets: a session acts in that workspace when the user is a member of it. */
export const WORKSPACE_COOKIE = "outreach_workspace";
