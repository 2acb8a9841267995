import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, isNull, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { auditLog, recoveryCodes, userSessions } from "@/db/schema";
import { ManualClock, systemClock, useClock } from "@/lib/clock";
import { sessionCookie } from "@/test/helpers";
import { enrol } from "@/test/two-factor-setup";
import { rateLimits } from "../env";
import { ACCOUNT_FAILURES, signIn, TWO_FACTOR_INVALID, TWO_FACTOR_REQUIRED } from "./sign-in";
import { totpCode } from "./totp";
import { setupWorkspace } from "./users";

const clock = new ManualClock(new Date("2026-11-02T09:00:10Z"));
let ipSeq = 0;
/** A new IP for every attempt, so that the per-IP limit never answers unless a test means it to. */
const freshIp = () => `198.51.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;

async function newUser(tag: string) {
  const email = `${tag}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const { userId } = await setupWorkspace(getDb(), { email, password: "password123", workspaceName: `ws-${tag}` });
  return { email, userId };
}

async function openSessions(userId: string): Promise<number> {
  const rows = await getDb()
    .select()
    .from(userSessions)
    .where(and(eq(userSessions.userId, userId), isNull(userSessions.revokedAt)));
  return rows.length;
}

async function auditOf(action: string, where: { userId?: string; label?: string }) {
  return getDb()
    .select()
    .from(auditLog)
    .where(
      and(
        eq(auditLog.action, action),
        where.userId ? eq(auditLog.subjectUserId, where.userId) : undefined,
        where.label ? eq(auditLog.actorLabel, where.label) : undefined,
      ),
    )
    .orderBy(auditLog.at);
}

const attempt = (email: string, password: string, code?: string, ip = freshIp()) =>
  signIn(getDb(), { email, password, code, ip, userAgent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0" }, clock.now());

/** Every secret, recovery code and password tried, to prove none reached the audit log. */
const handedOut: string[] = [];

/** A user with two-factor sign-in on (through the routes). */
async function enrolledUser(tag: string) {
  const u = await newUser(tag);
  const tf = await enrol(await sessionCookie(u.userId), clock);
  handedOut.push(tf.secret, ...tf.recoveryCodes);
  return { ...u, ...tf };
}

beforeAll(() => {
  delete process.env.RATE_LIMIT_DISABLED;
  expect(rateLimits.enabled).toBe(true);
  useClock(clock);
});
afterAll(() => useClock(systemClock));

describe("signIn without two-factor", () => {
  it("opens a session and logs the sign-in with the user agent", async () => {
    const u = await newUser("plain");
    const r = await attempt(u.email.toUpperCase(), "password123");
    expect(r).toMatchObject({ ok: true, user: { id: u.userId, email: u.email }, via: "password" });
    expect(await openSessions(u.userId)).toBe(1);
    const [row] = await auditOf("auth.sign_in", { userId: u.userId });
    expect(row.detail).toMatchObject({ userAgent: expect.stringContaining("Firefox"), via: "password" });
    expect(row.workspaceId).toBeNull();
  });

  it("a wrong password or an unknown email fails the same way, each logged with its reason", async () => {
    const u = await newUser("wrong");
    expect(await attempt(u.email, "password124")).toMatchObject({ ok: false, reason: "bad_password", message: "Wrong email or password" });
    const ghost = `nobody-${ipSeq}@example.com`;
    expect(await attempt(ghost, "password123")).toMatchObject({ ok: false, reason: "unknown_email", message: "Wrong email or password" });
    expect(await openSessions(u.userId)).toBe(0);
    expect((await auditOf("auth.sign_in_failed", { userId: u.userId }))[0].detail).toEqual({ reason: "bad_password" });
    const [g] = await auditOf("auth.sign_in_failed", { label: ghost });
    expect(g).toMatchObject({ actorId: null, subjectUserId: null, detail: { reason: "unknown_email" } });
  });
});

describe("signIn with two-factor on", () => {
  it("no code: TWO_FACTOR_REQUIRED and no session; a wrong one: TWO_FACTOR_INVALID; the current one signs in", async () => {
    const u = await enrolledUser("tf");
    expect(await attempt(u.email, "password123")).toMatchObject({ ok: false, reason: "two_factor_required", message: TWO_FACTOR_REQUIRED });
    // The enrolment's own session is the only one: nothing opened before the second factor.
    expect(await openSessions(u.userId)).toBe(1);
    const good = await totpCode(u.secret, clock.now());
    const wrong = good === "000000" ? "111111" : "000000";
    expect(await attempt(u.email, "password123", wrong)).toMatchObject({
      ok: false,
      reason: "two_factor_invalid",
      message: TWO_FACTOR_INVALID,
    });
    expect(await openSessions(u.userId)).toBe(1);
    // A wrong password with the right code is still a wrong password.
    expect(await attempt(u.email, "nope-nope", good)).toMatchObject({ ok: false, reason: "bad_password" });
    const ok = await attempt(u.email, "password123", good);
    expect(ok).toMatchObject({ ok: true, via: "totp" });
    expect(await openSessions(u.userId)).toBe(2);
    // The same code does not open a second door.
    expect(await attempt(u.email, "password123", good)).toMatchObject({ ok: false, reason: "two_factor_invalid" });
    clock.advance(30_000);
    expect(await attempt(u.email, "password123", await totpCode(u.secret, clock.now()))).toMatchObject({ ok: true });
    const failed = await auditOf("auth.sign_in_failed", { userId: u.userId });
    expect(failed.map((f) => f.detail.reason)).toEqual(["two_factor_invalid", "bad_password", "two_factor_invalid"]);
  });

  it("a recovery code works once (typed in any case, with a dash), and its use is logged with the number left", async () => {
    const u = await enrolledUser("rc");
    const code = u.recoveryCodes[3];
    const typed = `${code.slice(0, 5).toLowerCase()}-${code.slice(5)}`;
    expect(await attempt(u.email, "password123", typed)).toMatchObject({ ok: true, via: "recovery" });
    expect(await attempt(u.email, "password123", code)).toMatchObject({ ok: false, reason: "two_factor_invalid" });
    const used = await getDb()
      .select()
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.userId, u.userId), sql`${recoveryCodes.usedAt} is not null`));
    expect(used).toHaveLength(1);
    const [row] = await auditOf("auth.recovery_code_used", { userId: u.userId });
    expect(row.detail).toEqual({ left: 9 });
    expect((await auditOf("auth.sign_in", { userId: u.userId })).at(-1)?.detail).toMatchObject({ via: "recovery" });
  });
});

describe("per-account limit on failed sign-ins", () => {
  it(`after ${ACCOUNT_FAILURES.limit} wrong passwords from different IPs the account is refused for the rest of the window`, async () => {
    const u = await newUser("lock");
    const bystander = await newUser("bystander");
    for (let i = 0; i < ACCOUNT_FAILURES.limit; i++) expect(await attempt(u.email, `wrong-${i}`)).toMatchObject({ reason: "bad_password" });
    const refused = await attempt(u.email, "password123");
    expect(refused).toMatchObject({ ok: false, reason: "rate_limited" });
    if (refused.ok) throw new Error("unreachable");
    expect(refused.message).toMatch(/^Too many failed sign-ins for this account; try again in \d+ seconds$/);
    expect(refused.retryAfter).toBeGreaterThan(ACCOUNT_FAILURES.windowSeconds - 60);
    expect(refused.retryAfter).toBeLessThanOrEqual(ACCOUNT_FAILURES.windowSeconds);
    // Whatever the case of the email, and still after more refusals; the log has the first only.
    expect(await attempt(u.email.toUpperCase(), "password123")).toMatchObject({ reason: "rate_limited" });
    expect(await openSessions(u.userId)).toBe(0);
    const limited = (await auditOf("auth.sign_in_failed", { userId: u.userId })).filter((r) => r.detail.reason === "rate_limited");
    expect(limited.map((r) => r.detail)).toEqual([{ reason: "rate_limited", limit: "account" }]);
    // Another account is not slowed down.
    expect(await attempt(bystander.email, "password123")).toMatchObject({ ok: true });
  });

  it("attempts made all at once cannot pass the limit together: each is counted before its password is checked", async () => {
    const u = await newUser("burst");
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => attempt(u.email, `wrong-${i}`)));
    const checked = results.filter((r) => !r.ok && r.reason === "bad_password").length;
    expect(checked).toBeLessThanOrEqual(ACCOUNT_FAILURES.limit);
    expect(results.filter((r) => !r.ok && r.reason === "rate_limited").length).toBe(20 - checked);
    expect(await attempt(u.email, "password123")).toMatchObject({ reason: "rate_limited" });
  });

  it("wrong second-factor codes count as failures too", async () => {
    const u = await enrolledUser("codes");
    const good = await totpCode(u.secret, clock.now());
    const wrong = ["000000", "111111", "222222", "333333", "444444", "555555"].filter((c) => c !== good);
    for (let i = 0; i < ACCOUNT_FAILURES.limit; i++) {
      expect(await attempt(u.email, "password123", wrong[i])).toMatchObject({ reason: "two_factor_invalid" });
    }
    const refused = await attempt(u.email, "password123", good);
    expect(refused).toMatchObject({ ok: false, reason: "rate_limited" });
  });

  it("asking for the code is not a failure, and a successful sign-in clears the count", async () => {
    const u = await newUser("clear");
    for (let i = 0; i < ACCOUNT_FAILURES.limit - 1; i++) await attempt(u.email, "wrong");
    expect(await attempt(u.email, "password123")).toMatchObject({ ok: true });
    for (let i = 0; i < ACCOUNT_FAILURES.limit - 1; i++) await attempt(u.email, "wrong");
    expect(await attempt(u.email, "password123")).toMatchObject({ ok: true });
    const t = await enrolledUser("ask");
    for (let i = 0; i < ACCOUNT_FAILURES.limit + 2; i++)
      expect(await attempt(t.email, "password123")).toMatchObject({ reason: "two_factor_required" });
    expect(await attempt(t.email, "password123", await totpCode(t.secret, clock.now()))).toMatchObject({ ok: true });
  });

  it("an unknown email is limited the same way (nothing tells it apart from an account)", async () => {
    const ghost = `ghost-${Date.now()}@example.com`;
    for (let i = 0; i < ACCOUNT_FAILURES.limit; i++) expect(await attempt(ghost, "x")).toMatchObject({ reason: "unknown_email" });
    expect(await attempt(ghost, "x")).toMatchObject({ reason: "rate_limited" });
  });
});

describe("per-IP limit", () => {
  it(`every attempt from one IP counts; past ${rateLimits.authPerMinute} a minute they are refused`, async () => {
    const ip = "203.0.113.77";
    const users = await Promise.all([newUser("ipa"), newUser("ipb")]);
    const limit = rateLimits.authPerMinute;
    for (let i = 0; i < limit; i++) await attempt(users[i % 2].email, i % 3 === 0 ? "password123" : "wrong", undefined, ip);
    const refused = await attempt(users[0].email, "password123", undefined, ip);
    expect(refused).toMatchObject({ ok: false, reason: "rate_limited" });
    if (!refused.ok) expect(refused.message).toMatch(/^Too many sign-in attempts; try again in \d+ seconds$/);
    const logged = await getDb()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.ip, ip), sql`${auditLog.detail}->>'limit' = 'ip'`));
    expect(logged).toHaveLength(1);
  });
});

describe("the audit log", () => {
  it("holds no password, TOTP secret or recovery code of any attempt above", async () => {
    const text = JSON.stringify(await getDb().select().from(auditLog)).toUpperCase();
    expect(handedOut.length).toBeGreaterThan(20);
    for (const s of [...handedOut, "password123", "wrong-0"]) expect(text).not.toContain(s.toUpperCase());
  });
});
