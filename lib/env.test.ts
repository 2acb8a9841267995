import { afterEach, describe, expect, it, vi } from "vitest";
import { mailTimeouts } from "./env";

describe("mail clients' connect timeouts", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("read IMAP_CONNECT_TIMEOUT_MS and SMTP_CONNECT_TIMEOUT_MS, and fall back to 15 s on a bad value instead of NaN", () => {
    vi.stubEnv("IMAP_CONNECT_TIMEOUT_MS", "2500");
    vi.stubEnv("SMTP_CONNECT_TIMEOUT_MS", "4000");
    expect([mailTimeouts.imapConnectMs, mailTimeouts.smtpConnectMs]).toEqual([2500, 4000]);
    vi.stubEnv("IMAP_CONNECT_TIMEOUT_MS", "fifteen");
    vi.stubEnv("SMTP_CONNECT_TIMEOUT_MS", "-1");
    expect([mailTimeouts.imapConnectMs, mailTimeouts.smtpConnectMs]).toEqual([15_000, 15_000]);
  });
});
