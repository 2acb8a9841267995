import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startSmtpPeer, type SmtpPeer } from "@/test/peers/smtp";
import { parseSystemSmtpUrl, sendSystemMail, systemMailerConfigured, systemMailFrom } from "./system-mailer";

const saved = { url: process.env.SYSTEM_SMTP_URL, from: process.env.SYSTEM_MAIL_FROM, app: process.env.APP_URL };
afterEach(() => {
  for (const [k, v] of [
    ["SYSTEM_SMTP_URL", saved.url],
    ["SYSTEM_MAIL_FROM", saved.from],
    ["APP_URL", saved.app],
  ] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

describe("SYSTEM_SMTP_URL", () => {
  it("reads smtp:// and smtps:// with their default ports and percent-encoded logins", () => {
    expect(parseSystemSmtpUrl("smtp://u%40x:p%3Aw@mail.example.com")).toEqual({
      host: "mail.example.com",
      port: 587,
      secure: false,
      user: "u@x",
      pass: "p:w",
    });
    expect(parseSystemSmtpUrl("smtps://mail.example.com")).toMatchObject({ port: 465, secure: true, user: undefined });
    expect(parseSystemSmtpUrl("smtp://a:b@127.0.0.1:2525")).toMatchObject({ host: "127.0.0.1", port: 2525 });
    expect(parseSystemSmtpUrl(undefined)).toBeUndefined();
    expect(parseSystemSmtpUrl("  ")).toBeUndefined();
    expect(() => parseSystemSmtpUrl("http://mail.example.com")).toThrow(/smtp:\/\/ or smtps:\/\//);
    expect(() => parseSystemSmtpUrl("not a url")).toThrow(/not a URL/);
  });

  it("is configured only when set, and its From defaults to no-reply at APP_URL's host", () => {
    delete process.env.SYSTEM_SMTP_URL;
    expect(systemMailerConfigured()).toBe(false);
    process.env.SYSTEM_SMTP_URL = "smtp://localhost:25";
    expect(systemMailerConfigured()).toBe(true);
    delete process.env.SYSTEM_MAIL_FROM;
    process.env.APP_URL = "https://outreach.example.org/";
    expect(systemMailFrom()).toBe("Outreach <no-reply@outreach.example.org>");
    delete process.env.APP_URL;
    expect(systemMailFrom()).toBe("Outreach <no-reply@localhost>");
    process.env.SYSTEM_MAIL_FROM = "Team <team@example.org>";
    expect(systemMailFrom()).toBe("Team <team@example.org>");
  });
});

describe("sendSystemMail", () => {
  let peer: SmtpPeer;
  beforeAll(async () => {
    peer = await startSmtpPeer({ users: { "mailer@example.org": "pa:ss/word" } });
  });
  afterAll(() => peer.close());

  it("sends through the configured server with its login", async () => {
    process.env.SYSTEM_SMTP_URL = `smtp://${encodeURIComponent("mailer@example.org")}:${encodeURIComponent("pa:ss/word")}@${peer.host}:${peer.port}`;
    process.env.SYSTEM_MAIL_FROM = "Outreach <no-reply@example.org>";
    await sendSystemMail({ to: "someone@example.com", subject: "Hello", text: "plain", html: "<p>rich</p>" });
    const got = peer.received.at(-1);
    expect(got).toMatchObject({ from: "no-reply@example.org", to: ["someone@example.com"], user: "mailer@example.org" });
    expect(got?.parsed.subject).toBe("Hello");
    expect(got?.parsed.text?.trim()).toBe("plain");
    expect(got?.parsed.html).toContain("<p>rich</p>");
  });

  it("throws when the server refuses the login, and when no server is set", async () => {
    process.env.SYSTEM_SMTP_URL = `smtp://mailer%40example.org:wrong@${peer.host}:${peer.port}`;
    await expect(sendSystemMail({ to: "a@example.com", subject: "x", text: "x" })).rejects.toThrow();
    delete process.env.SYSTEM_SMTP_URL;
    await expect(sendSystemMail({ to: "a@example.com", subject: "x", text: "x" })).rejects.toThrow(/SYSTEM_SMTP_URL is not set/);
  });
});
