import { getDb } from "../db/client";
import { mailboxes } from "../db/schema";
import { encryptSecret } from "../lib/crypto/secretbox";
import { ensureDomain } from "../lib/domains/ensure-domain";
import { newId } from "../lib/ids";

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
