import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveMx, resolveTxt } from "@/lib/net/dns";
import { verifyImapLogin } from "@/lib/mail/imap";
import { sendSmtp, verifySmtpLogin } from "@/lib/mail/smtp";
import { startDnsPeer } from "./dns";
import { startImapPeer } from "./imap";
import { startSmtpPeer } from "./smtp";

describe("protocol peers and the mail/net modules", () => {
  let dns: Awaited<ReturnType<typeof startDnsPeer>>;
  beforeAll(async () => {
    dns = await startDnsPeer({
      TXT: { "acme.test": ["v=spf1 include:_spf.google.com ~all"] },
      MX: { "acme.test": [{ exchange: "aspmx.l.google.com", priority: 1 }] },
    });
    process.env.DNS_SERVERS = dns.server;
  });
  afterAll(() => {
    dns.close();
    delete process.env.DNS_SERVERS;
  });

  it("resolves TXT and MX through DNS_SERVERS, and an absent name as no records", async () => {
    expect(await resolveTxt("acme.test")).toEqual({ ok: true, records: ["v=spf1 include:_spf.google.com ~all"] });
    expect(await resolveMx("acme.test")).toEqual({ ok: true, records: [{ exchange: "aspmx.l.google.com", priority: 1 }] });
    expect(await resolveTxt("nothing.test")).toEqual({ ok: true, records: [] });
  });

  it("logs in to SMTP, reports a refused login with the server's 535, and sends", async () => {
    const smtp = await startSmtpPeer({ users: { "a@acme.test": "right" }, rejectRecipients: ["nobody@x.test"] });
    const cfg = { host: smtp.host, port: smtp.port, security: "NONE" as const, username: "a@acme.test", password: "right" };
    await expect(verifySmtpLogin(cfg)).resolves.toBeUndefined();
    await expect(verifySmtpLogin({ ...cfg, password: "wrong" })).rejects.toMatchObject({
      kind: "auth",
      responseCode: 535,
      message: expect.stringContaining("not accepted"),
    });
    await sendSmtp(cfg, { from: { name: "A", address: "a@acme.test" }, to: "lead@y.test", subject: "Hi", text: "Hello" });
    expect(smtp.received[0].parsed.subject).toBe("Hi");
    await expect(sendSmtp(cfg, { from: { address: "a@acme.test" }, to: "nobody@x.test", subject: "Hi", text: "x" })).rejects.toMatchObject({
      kind: "rejected",
      responseCode: 550,
    });
    await smtp.close();
    await expect(verifySmtpLogin(cfg)).rejects.toMatchObject({ kind: "unreachable" });
  });

  it("logs in to IMAP and reports a refused login", async () => {
    const imap = await startImapPeer({ users: { "a@acme.test": "right" } });
    const cfg = { host: imap.host, port: imap.port, security: "NONE" as const, username: "a@acme.test", password: "right" };
    await expect(verifyImapLogin(cfg)).resolves.toBeUndefined();
    await expect(verifyImapLogin({ ...cfg, password: "wrong" })).rejects.toMatchObject({ kind: "auth" });
    await imap.close();
    await expect(verifyImapLogin(cfg)).rejects.toMatchObject({ kind: "unreachable" });
  });
});
