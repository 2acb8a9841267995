import { afterEach, describe, expect, it, vi } from "vitest";
import { checkSettings, mailTimeouts } from "./env";
import { ENV_VARS, GROUP_TITLES } from "./env-vars";
import { StartupError } from "./startup-error";

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

describe("checkSettings: a bad value stops the start with one line naming the variable", () => {
  it.each([
    ["IMAP_POLL_INTERVAL_S", "soon", "IMAP_POLL_INTERVAL_S must be a whole number above 0"],
    ["WORKER_TICK_MS", "0", "WORKER_TICK_MS must be a whole number above 0"],
    ["DB_POOL_MAX", "2.5", "DB_POOL_MAX must be a whole number above 0"],
    ["SMTP_VERIFY_DELAY_MS", "-5", "SMTP_VERIFY_DELAY_MS must be a whole number (0 or more)"],
    ["PORT", "70000", "PORT must be a port number from 1 to 65535"],
    ["APP_URL", "outreach.example.com", "APP_URL must be a URL (http://… or https://…)"],
    ["AI_BASE_URL", "ftp://models.local", "AI_BASE_URL must be a http or https URL"],
    ["SYSTEM_SMTP_URL", "https://mail.example.com", "SYSTEM_SMTP_URL must be a smtp or smtps URL"],
    ["RATE_LIMIT_DISABLED", "yes", "RATE_LIMIT_DISABLED must be 1 (on) or 0 (off)"],
  ])("%s=%s", (name, value, message) => {
    let thrown: unknown;
    try {
      checkSettings({ [name]: value });
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(StartupError);
    const text = (thrown as Error).message;
    expect(text).toContain(message);
    expect(text).toContain(`"${value}"`);
    expect(text).not.toContain("\n");
  });

  it("accepts valid values, unset ones and empty ones", () => {
    expect(() =>
      checkSettings({
        PORT: "8080",
        APP_URL: "https://outreach.example.com",
        SYSTEM_SMTP_URL: "smtps://u:p@mail.example.com:465",
        SMTP_VERIFY_DELAY_MS: "0",
        IMAP_POLL_INTERVAL_S: "",
        RATE_LIMIT_DISABLED: "1",
        DATABASE_URL: "postgres://u@db/outreach",
      }),
    ).not.toThrow();
  });

  it("declares every variable once, each with a meaning, in a known group", () => {
    const names = ENV_VARS.map((v) => v.name);
    expect(new Set(names).size).toBe(names.length);
    for (const v of ENV_VARS) {
      expect(v.meaning.length, v.name).toBeGreaterThan(10);
      expect(GROUP_TITLES[v.group], v.name).toBeTruthy();
    }
    // Knobs that exist only for tests are in the tests group and say so.
    for (const v of ENV_VARS.filter((x) => x.group === "tests")) expect(v.meaning).toMatch(/^For tests only/);
  });
});
