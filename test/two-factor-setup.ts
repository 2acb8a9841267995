import { encode } from "next-auth/jwt";
import { expect } from "vitest";
import { POST as ENABLE } from "../app/api/v1/account/two-factor/enable/route";
import { POST as SETUP } from "../app/api/v1/account/two-factor/setup/route";
import { sessionSecret } from "../lib/auth/secrets";
import { totpCode } from "../lib/auth/totp";
import type { ManualClock } from "../lib/clock";
import { call } from "./helpers";

/**
 * Turns two-factor sign-in on for the cookie's user through the routes, at the clock's time (the
 * clock the routes read must be `clock`). The clock then moves on a minute: the enrolment's code is
 * used, so the next sign-in needs a later one.
 */
export async function enrol(cookie: string, clock: ManualClock): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await call(SETUP, "POST", "/account/two-factor/setup", { cookie });
  expect(setup.status).toBe(200);
  const code = await totpCode(setup.body.secret, clock.now());
  const enabled = await call(ENABLE, "POST", "/account/two-factor/enable", { cookie, body: { code } });
  expect(enabled.status).toBe(200);
  clock.advance(60_000);
  return { secret: setup.body.secret, recoveryCodes: enabled.body.recoveryCodes };
}

/** The session cookie next-auth would set for a sign-in that opened session row `sid`. */
export async function cookieFor(userId: string, sid: string): Promise<string> {
  return `next-auth.session-token=${await encode({ token: { sub: userId, sid }, secret: sessionSecret() })}`;
}
