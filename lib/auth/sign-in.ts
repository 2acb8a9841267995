import { sql } from "drizzle-orm";
import { type DbOrTx, getDb } from "../../db/client";
import { selectRows } from "../../db/bulk";
import { auditAccount } from "../audit/record";
import { rateLimits } from "../env";
import { counterUpsert } from "../rate-limit";
import { stderrLogger } from "../log";
import { hashPassword, verifyPassword } from "./passwords";
import { openSession } from "./sessions";
import { checkSecondFactor } from "./totp";
import { findUserByEmail } from "./users";

/**
 * Failed sign-ins of one account (a wrong password or a wrong second-factor code, from any IP) in a
 * fixed window: after this many within the window, the account's sign-ins are refused until the window
 * ends. A successful sign-in clears the count.
 */
export const ACCOUNT_FAILURES = { limit: 5, windowSeconds: 15 * 60 } as const;

/** The sign-in error the form shows as "enter your authentication code". */
export const TWO_FACTOR_REQUIRED = "TWO_FACTOR_REQUIRED";
/** The sign-in error for a wrong or used code. */
export const TWO_FACTOR_INVALID = "TWO_FACTOR_INVALID";

export type SignInFailureReason = "unknown_email" | "bad_password" | "two_factor_required" | "two_factor_invalid" | "rate_limited";

export type SignInResult =
  | { ok: true; user: { id: string; email: string; name: string | null }; sid: string; via: "password" | "totp" | "recovery" }
  | { ok: false; reason: SignInFailureReason; message: string; retryAfter?: number };

export interface SignInInput {
  email: string;
  password: string;
  /** A TOTP code or a recovery code, when the account has two-factor sign-in on. */
  code?: string | null;
  ip: string;
  userAgent?: string | null;
}

type RateCheck = { allowed: true } | { allowed: false; retryAfter: number; firstRefusal: boolean };

/**
 * Counts one sign-in or sign-up attempt from an IP (every attempt, right or wrong): login and signup
 * have a tighter per-minute limit of their own. Returns the seconds to wait when the limit is reached.
 */
export async function authAttempt(ip: string): Promise<RateCheck> {
  if (!rateLimits.enabled) return { allowed: true };
  const limit = rateLimits.authPerMinute;
  try {
    const [r] = await selectRows<{ points: number; reset_in: number }>(getDb(), counterUpsert(`auth:ip:${ip}`, 60));
    if (r.points <= limit) return { allowed: true };
    return { allowed: false, retryAfter: Math.max(1, r.reset_in), firstRefusal: r.points === limit + 1 };
  } catch (error) {
    // As the API's limits do: the limiter's store failing must not lock everyone out. Fail open, loudly.
    stderrLogger.error("rate-limit store error, sign-in attempt allowed", { error });
    return { allowed: true };
  }
}

function accountKey(email: string): string {
  return `auth:acct:${email.trim().toLowerCase().slice(0, 320)}`;
}

/** Counts an attempt against the account (a refusal while it is locked too): the window's count and the seconds left in it. */
async function countAccountAttempt(db: DbOrTx, email: string): Promise<{ points: number; resetIn: number }> {
  const [r] = await selectRows<{ points: number; reset_in: number }>(db, counterUpsert(accountKey(email), ACCOUNT_FAILURES.windowSeconds));
  return { points: r.points, resetIn: r.reset_in };
}

/** Takes back the point an attempt was counted with (one that only asked for the second factor). */
async function giveBackAttempt(db: DbOrTx, email: string): Promise<void> {
  await db.execute(sql`update rate_limit_counters set points = greatest(points - 1, 0) where key = ${`rl:${accountKey(email)}`}`);
}

async function clearAccountFailures(db: DbOrTx, email: string): Promise<void> {
  await db.execute(sql`delete from rate_limit_counters where key = ${`rl:${accountKey(email)}`}`);
}

/** Compared against when no account has the email, so that an unknown email takes as long as a wrong password. */
let dummyHash: Promise<string> | undefined;

async function passwordMatches(hash: string | undefined, password: string): Promise<boolean> {
  if (hash) return verifyPassword(password, hash);
  dummyHash ??= hashPassword("no account has this password");
  await verifyPassword(password, await dummyHash);
  return false;
}

function tooMany(retryAfter: number, what: "ip" | "account"): SignInResult {
  const message =
    what === "ip"
      ? `Too many sign-in attempts; try again in ${retryAfter} seconds`
      : `Too many failed sign-ins for this account; try again in ${retryAfter} seconds`;
  return { ok: false, reason: "rate_limited", message, retryAfter };
}

const WRONG = "Wrong email or password";

/**
 * One sign-in attempt: the per-IP limit, the per-account limit, the password, then (when the account
 * has it on) the second factor. Only when all pass is a session row opened. Every outcome but the
 * request for a code is written to the audit log; no password or code ever is.
 */
export async function signIn(db: DbOrTx, input: SignInInput, now: Date): Promise<SignInResult> {
  const email = input.email.trim();
  const base = { at: now, ip: input.ip };
  const failed = (userId: string | null, reason: string, detail: Record<string, unknown> = {}) =>
    auditAccount(db, { ...base, userId, label: email.slice(0, 320), action: "auth.sign_in_failed", detail: { reason, ...detail } });

  const ipRate = await authAttempt(input.ip);
  if (!ipRate.allowed) {
    if (ipRate.firstRefusal) await failed(null, "rate_limited", { limit: "ip" });
    return tooMany(ipRate.retryAfter, "ip");
  }
  if (rateLimits.enabled) {
    // Counted before the password is checked, so that attempts made at once cannot all pass the limit:
    // each attempt is a point until it succeeds (the count is cleared) or only asks for a code (given back).
    // Refusals are counted too, so that only the first of a window is written to the log.
    const count = await countAccountAttempt(db, email);
    if (count.points > ACCOUNT_FAILURES.limit) {
      if (count.points === ACCOUNT_FAILURES.limit + 1)
        await failed((await findUserByEmail(db, email))?.id ?? null, "rate_limited", { limit: "account" });
      return tooMany(count.resetIn, "account");
    }
  }

  const user = await findUserByEmail(db, email);
  if (!(await passwordMatches(user?.passwordHash, input.password))) {
    await failed(user?.id ?? null, user ? "bad_password" : "unknown_email");
    return { ok: false, reason: user ? "bad_password" : "unknown_email", message: WRONG };
  }
  let via: "password" | "totp" | "recovery" = "password";
  if (user.twoFactorEnabledAt && user.twoFactorSecret) {
    const code = input.code?.trim();
    if (!code) {
      // The right password, asking for the code: not a failure.
      if (rateLimits.enabled) await giveBackAttempt(db, email);
      return { ok: false, reason: "two_factor_required", message: TWO_FACTOR_REQUIRED };
    }
    const factor = await checkSecondFactor(db, { id: user.id, sealedSecret: user.twoFactorSecret }, code, now);
    if (!factor.ok) {
      await failed(user.id, "two_factor_invalid");
      return { ok: false, reason: "two_factor_invalid", message: TWO_FACTOR_INVALID };
    }
    via = factor.via;
    if (factor.via === "recovery") {
      await auditAccount(db, { ...base, userId: user.id, action: "auth.recovery_code_used", detail: { left: factor.left } });
    }
  }

  if (rateLimits.enabled) await clearAccountFailures(db, email);
  const sid = await openSession(db, { userId: user.id, userAgent: input.userAgent ?? null, ip: input.ip }, now);
  await auditAccount(db, {
    ...base,
    userId: user.id,
    action: "auth.sign_in",
    detail: { userAgent: input.userAgent?.slice(0, 300) ?? null, via },
  });
  return { ok: true, user: { id: user.id, email: user.email, name: user.name }, sid, via };
}
