import { describe, expect, it } from "vitest";
import { ManualClock } from "../clock";
import { getDb } from "../../db/client";
import {
  claimTotpStep,
  hashRecoveryCode,
  matchTotp,
  newRecoveryCodes,
  newTotpSecret,
  normalizeRecoveryCode,
  totpCode,
  totpUri,
} from "./totp";

/** RFC 6238's shared secret, the ASCII "12345678901234567890", in base32 (spelled out below). */
const RFC_SECRET = [...Buffer.from("12345678901234567890")]
  .map((b) => b.toString(2).padStart(8, "0"))
  .join("")
  .match(/.{1,5}/g)
  ?.map((chunk) => "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"[Number.parseInt(chunk.padEnd(5, "0"), 2)])
  .join("") as string;

/** RFC 6238 appendix B, SHA-1: Unix time and the 8-digit TOTP. */
const VECTORS: [number, string][] = [
  [59, "94287082"],
  [1111111109, "07081804"],
  [1111111111, "14050471"],
  [1234567890, "89005924"],
  [2000000000, "69279037"],
  [20000000000, "65353130"],
];

describe("TOTP", () => {
  it("the RFC secret in base32 is the known one", () => {
    expect(RFC_SECRET).toBe("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
  });

  it.each(VECTORS)("at %i s gives the last 6 digits of %s (RFC 6238, SHA-1) on the injectable clock", async (t, eight) => {
    const clock = new ManualClock(new Date(t * 1000));
    expect(await totpCode(RFC_SECRET, clock.now())).toBe(eight.slice(-6));
    expect(await matchTotp(RFC_SECRET, eight.slice(-6), clock.now())).toBe(Math.floor(t / 30));
  });

  it("accepts the step before and after the current one, refuses two steps away", async () => {
    const clock = new ManualClock(new Date("2026-11-02T09:00:10Z"));
    const secret = newTotpSecret();
    const code = await totpCode(secret, clock.now());
    for (const [offset, ok] of [
      [-60, false],
      [-30, true],
      [0, true],
      [30, true],
      [60, false],
    ] as const) {
      const at = new Date(clock.now().getTime() + offset * 1000);
      expect(await matchTotp(secret, code, at), `offset ${offset} s`).toBe(ok ? Math.floor(clock.now().getTime() / 30_000) : undefined);
    }
  });

  it("refuses what is not a 6-digit code", async () => {
    const at = new Date("2026-11-02T09:00:10Z");
    const secret = newTotpSecret();
    const code = await totpCode(secret, at);
    for (const bad of ["", "12345", `${code}0`, "abcdef", ` ${code}`]) expect(await matchTotp(secret, bad, at)).toBeUndefined();
  });

  it("a step is claimed once per user", async () => {
    expect(await claimTotpStep(getDb(), "usr_a", 1000)).toBe(true);
    expect(await claimTotpStep(getDb(), "usr_a", 1000)).toBe(false);
    expect(await claimTotpStep(getDb(), "usr_b", 1000)).toBe(true);
    expect(await claimTotpStep(getDb(), "usr_a", 1001)).toBe(true);
  });

  it("secrets are 160-bit base32 and the URI names the issuer and the account", () => {
    const s = newTotpSecret();
    expect(s).toMatch(/^[A-Z2-7]{32}$/);
    const uri = totpUri(s, "ann@example.com");
    expect(uri).toMatch(/^otpauth:\/\/totp\/Outreach:ann%40example\.com\?/);
    expect(uri).toContain(`secret=${s}`);
    expect(uri).toContain("issuer=Outreach");
  });
});

describe("recovery codes", () => {
  it("ten codes of ten characters from an alphabet without look-alikes", () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    for (const c of codes) expect(c).toMatch(/^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{10}$/);
    expect(new Set(codes).size).toBe(10);
  });

  it("typed with spaces, dashes or in lower case they hash the same", () => {
    expect(normalizeRecoveryCode(" abcde-fgh23 ")).toBe("ABCDEFGH23");
    expect(hashRecoveryCode("abcde fgh23")).toBe(hashRecoveryCode("ABCDEFGH23"));
    expect(hashRecoveryCode("ABCDEFGH23")).toMatch(/^[0-9a-f]{64}$/);
  });
});
