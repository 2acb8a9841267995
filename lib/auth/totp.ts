import { createHash, randomInt } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import { generate, generateSecret, generateURI, verify } from "otplib";
import type { DbOrTx } from "../../db/client";
import { selectRows } from "../../db/bulk";
import { recoveryCodes } from "../../db/schema";
import { decryptSecret } from "../crypto/secretbox";
import { newId } from "../ids";
import { counterUpsert } from "../rate-limit";

/**
 * Time-based one-time passwords as authenticator apps make them: HMAC-SHA-1, 6 digits, a 30-second
 * step, and a code of the step before or after the current one still accepted (clocks drift, typing
 * takes time). The time is always passed in, from the injectable clock.
 */
export const TOTP = { algorithm: "sha1", digits: 6, period: 30 } as const;
/** One step either side of the current one. */
const TOLERANCE_SECONDS = TOTP.period;
/** How long a used step is remembered: longer than the three steps in which one code is accepted. */
const USED_STEP_SECONDS = 4 * TOTP.period;

export const RECOVERY_CODE_COUNT = 10;
export const RECOVERY_CODE_LENGTH = 10;
/** Upper-case letters and digits without the look-alikes (0/O, 1/I/L). */
const RECOVERY_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

const ISSUER = "Outreach";

function epochOf(at: Date): number {
  return Math.floor(at.getTime() / 1000);
}

/** A fresh secret of 20 random bytes (160 bits, the size RFC 4226 recommends), base32. */
export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

/** The otpauth:// URI an authenticator app reads from the QR code. */
export function totpUri(secret: string, email: string): string {
  return generateURI({ issuer: ISSUER, label: email, secret, ...TOTP });
}

/** The code for `at` (tests and the documentation's examples use it). */
export function totpCode(secret: string, at: Date): Promise<string> {
  return generate({ secret, epoch: epochOf(at), ...TOTP });
}

/** The time step the code belongs to when it is valid at `at` (± one step), else undefined. */
export async function matchTotp(secret: string, code: string, at: Date): Promise<number | undefined> {
  if (!/^\d{6}$/.test(code)) return undefined;
  try {
    const epoch = epochOf(at);
    const r = await verify({ secret, token: code, epoch, epochTolerance: TOLERANCE_SECONDS, ...TOTP });
    // `delta` is the matched step's offset from the current one.
    return r.valid ? Math.floor(epoch / TOTP.period) + r.delta : undefined;
  } catch {
    // A malformed secret or token: not a match.
    return undefined;
  }
}

/**
 * Marks a user's time step as used; false when it already was. A code opens one door once: someone
 * who saw it typed cannot reuse it in the same minute. Kept in the shared counter table (one atomic
 * upsert), so every web process sees it.
 */
export async function claimTotpStep(db: DbOrTx, userId: string, step: number): Promise<boolean> {
  const [row] = await selectRows<{ points: number }>(db, counterUpsert(`totp:${userId}:${step}`, USED_STEP_SECONDS));
  return row.points === 1;
}

/** A TOTP code that is valid now and not used before; consumes it. */
export async function acceptTotp(db: DbOrTx, user: { id: string; sealedSecret: string }, code: string, at: Date): Promise<boolean> {
  const step = await matchTotp(decryptSecret(user.sealedSecret), code, at);
  return step !== undefined && (await claimTotpStep(db, user.id, step));
}

/** What a person typed as a recovery code, as it is stored: upper case, without spaces or dashes. */
export function normalizeRecoveryCode(code: string): string {
  return code.replace(/[\s-]/g, "").toUpperCase();
}

export function hashRecoveryCode(code: string): string {
  return createHash("sha256").update(normalizeRecoveryCode(code)).digest("hex");
}

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    Array.from({ length: RECOVERY_CODE_LENGTH }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join(""),
  );
}

/** Replaces the user's recovery codes with new ones (stored as hashes); returns the plain codes, shown once. */
export async function replaceRecoveryCodes(db: DbOrTx, userId: string, now: Date): Promise<string[]> {
  const codes = newRecoveryCodes();
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db.insert(recoveryCodes).values(codes.map((c) => ({ id: newId("rcv"), userId, codeHash: hashRecoveryCode(c), createdAt: now })));
  return codes;
}

/** Uses one of the user's unused recovery codes (once: the row is marked in the same statement). Returns how many are left, or undefined. */
export async function useRecoveryCode(db: DbOrTx, userId: string, code: string, now: Date): Promise<number | undefined> {
  const normalized = normalizeRecoveryCode(code);
  if (normalized.length !== RECOVERY_CODE_LENGTH) return undefined;
  const used = await db
    .update(recoveryCodes)
    .set({ usedAt: now })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, hashRecoveryCode(normalized)), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  if (used.length === 0) return undefined;
  return unusedRecoveryCodes(db, userId);
}

export async function unusedRecoveryCodes(db: DbOrTx, userId: string): Promise<number> {
  const [r] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return r.n;
}

export type SecondFactor = { ok: true; via: "totp" } | { ok: true; via: "recovery"; left: number } | { ok: false };

/** The second factor of a sign-in (or of turning two-factor off): a TOTP code, or an unused recovery code. */
export async function checkSecondFactor(
  db: DbOrTx,
  user: { id: string; sealedSecret: string },
  code: string,
  at: Date,
): Promise<SecondFactor> {
  const typed = code.trim().replace(/\s/g, "");
  if (/^\d{6}$/.test(typed)) return (await acceptTotp(db, user, typed, at)) ? { ok: true, via: "totp" } : { ok: false };
  const left = await useRecoveryCode(db, user.id, typed, at);
  return left === undefined ? { ok: false } : { ok: true, via: "recovery", left };
}
