import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { ManualClock, systemClock, useClock } from "@/lib/clock";
import { sessionCookie } from "@/test/helpers";
import { enrol } from "@/test/two-factor-setup";
import { authOptions } from "./options";
import { totpCode } from "./totp";
import { setupWorkspace } from "./users";

const clock = new ManualClock(new Date("2026-11-02T09:00:10Z"));

type Authorize = (credentials: Record<string, string>, req: { headers: Record<string, string> }) => Promise<unknown>;
/** The credentials provider's own authorize, as next-auth calls it for POST /api/auth/callback/credentials. */
const authorize = (authOptions.providers[0] as unknown as { options: { authorize: Authorize } }).options.authorize;
const req = (ip: string) => ({ headers: { "x-forwarded-for": ip, "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0" } });

beforeAll(() => useClock(clock));
afterAll(() => useClock(systemClock));

describe("next-auth's authorize", () => {
  it("returns the user with the session id; null for a wrong password; the two-factor codes as thrown messages", async () => {
    const email = `form-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const { userId } = await setupWorkspace(getDb(), { email, password: "password123", workspaceName: "form" });
    expect(await authorize({ email, password: "wrong-one" }, req("192.0.2.80"))).toBeNull();
    expect(await authorize({ email, password: "password123" }, req("192.0.2.81"))).toMatchObject({
      id: userId,
      sid: expect.stringMatching(/^ses_/),
    });
    const { secret } = await enrol(await sessionCookie(userId), clock);
    await expect(authorize({ email, password: "password123" }, req("192.0.2.82"))).rejects.toThrow(/^TWO_FACTOR_REQUIRED$/);
    const good = await totpCode(secret, clock.now());
    const bad = good === "999999" ? "888888" : "999999";
    await expect(authorize({ email, password: "password123", code: bad }, req("192.0.2.83"))).rejects.toThrow(/^TWO_FACTOR_INVALID$/);
    expect(await authorize({ email, password: "password123", code: good }, req("192.0.2.84"))).toMatchObject({ id: userId });
  });
});
