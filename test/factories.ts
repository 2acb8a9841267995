import { randomUUID } from "node:crypto";
import { getDb } from "../db/client";
import { emails, mailboxes } from "../db/schema";
import { encryptSecret } from "../lib/crypto/secretbox";
import { ensureDomain } from "../lib/domains/ensure-domain";
import { newId } from "../lib/ids";
import { makeWorkspace } from "./helpers";

/**
 * A mailbox row written straight to the database, for tests about campaigns and pools that never talk
 * SMTP. Tests that send use the real connect route against the SMTP peer instead.
 */
export async function insertMailbox(workspaceId: string, email: string, over: Partial<typeof mailboxes.$inferInsert> = {}) {
  const domainId = await ensureDomain(getDb(), workspaceId, email.split("@")[1]);
  const [row] = await getDb()
    .insert(mailboxes)
    .values({
      id: newId("mbx"),
      workspaceId,
      domainId,
      email,
      provider: "CUSTOM",
      espClass: "OTHER",
      smtpHost: "127.0.0.1",
      smtpPort: 1,
      smtpSecurity: "NONE",
      smtpUsername: email,
      smtpPasswordEnc: encryptSecret("unused"),
      imapHost: "127.0.0.1",
      imapPort: 1,
      imapSecurity: "NONE",
      imapUsername: email,
      imapPasswordEnc: encryptSecret("unused"),
      lastCheckedAt: new Date(),
      ...over,
    })
    .returning();
  return row;
}

/**
 * An email row written straight to the database: SENT, of a campaign, to lead@x.test unless `over` says
 * otherwise. For tests of what follows a send (tracking, replies, stats); returns its id.
 */
export async function insertEmail(workspaceId: string, mailboxId: string, over: Partial<typeof emails.$inferInsert> = {}) {
  const id = over.id ?? newId("eml");
  await getDb()
    .insert(emails)
    .values({
      id,
      workspaceId,
      mailboxId,
      leadEmail: "lead@x.test",
      campaignId: "cmp_x",
      messageId: `<${randomUUID()}@x.test>`,
      subject: "s",
      status: "SENT",
      ...over,
    });
  return id;
}

/** A new workspace with one mailbox and one SENT campaign email. */
export async function oneSentEmail() {
  const ws = await makeWorkspace();
  const mbx = await insertMailbox(ws.workspaceId, `t@${randomUUID().slice(0, 8)}.test`);
  return { ws, mbx, id: await insertEmail(ws.workspaceId, mbx.id) };
}
