import { ImapFlow } from "imapflow";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MailNetwork, startMailNetwork } from "./mail-network";

let net: MailNetwork;
beforeAll(async () => {
  net = await startMailNetwork({
    accounts: { "a@net.test": "pa", "b@gmail.test": "pb" },
    junk: (to, raw) => to === "b@gmail.test" && raw.includes("junk me"),
    gmail: ["b@gmail.test"],
    labels: () => ["\\Inbox", "CATEGORY_PROMOTIONS"],
  });
});
afterAll(() => net.close());

async function send(text: string, messageId: string) {
  const t = nodemailer.createTransport({
    host: net.smtp.host,
    port: net.smtp.port,
    secure: false,
    ignoreTLS: true,
    auth: { user: "a@net.test", pass: "pa" },
  });
  await t.sendMail({ from: "a@net.test", to: "b@gmail.test", subject: "Hello", text, messageId });
  t.close();
}

describe("the mail network peer", () => {
  it("delivers into the recipient's own IMAP store, into Junk when the rule says so; MOVE and Gmail labels work over IMAP", async () => {
    await send("plain note", "<one@net.test>");
    await send("junk me please", "<two@net.test>");
    expect(net.delivered.map((d) => [d.messageId, d.folder])).toEqual([
      ["<one@net.test>", "INBOX"],
      ["<two@net.test>", "Junk"],
    ]);
    expect(net.account("a@net.test").folder("INBOX")).toHaveLength(0);
    const b = net.account("b@gmail.test");
    const client = new ImapFlow({
      host: b.imap.host,
      port: b.imap.port,
      secure: false,
      auth: { user: b.email, pass: b.password },
      logger: false,
    });
    await client.connect();
    expect(client.capabilities.has("X-GM-EXT-1")).toBe(true);
    const lock = await client.getMailboxLock("Junk");
    const [uid] = (await client.search({ header: { "message-id": "<two@net.test>" } }, { uid: true })) || [];
    expect(uid).toBeGreaterThan(0);
    await client.messageMove(String(uid), "INBOX", { uid: true });
    lock.release();
    expect(b.folder("Junk")).toHaveLength(0);
    expect(b.folder("INBOX")).toHaveLength(2);
    const inbox = await client.getMailboxLock("INBOX");
    const labels: string[][] = [];
    for await (const m of client.fetch("1:*", { labels: true })) labels.push([...(m.labels ?? [])]);
    inbox.release();
    expect(labels[0]).toContain("CATEGORY_PROMOTIONS");
    await client.logout();
  });
});
