import { imapClient } from "../lib/mail/imap";

/**
 * Puts raw messages in `folder` of a mailbox on an IMAP peer (hoodiecrow, no TLS), as if they had
 * arrived; lines may end in \n, they are sent with \r\n. Returns each message's UID (0 where the server
 * did not say).
 */
export async function appendMessages(
  peer: { host: string; port: number },
  login: { username: string; password: string },
  raws: string[],
  folder = "INBOX",
): Promise<number[]> {
  const client = imapClient({ host: peer.host, port: peer.port, security: "NONE", ...login });
  await client.connect();
  const uids: number[] = [];
  try {
    for (const raw of raws) {
      const r = await client.append(folder, raw.replace(/\r?\n/g, "\r\n"));
      uids.push(r && typeof r === "object" ? Number(r.uid) : 0);
    }
  } finally {
    await client.logout();
  }
  return uids;
}

/**
 * A delivery status notification (RFC 3464 multipart/report) from the mailer daemon of `recipient`'s
 * domain: the email whose Message-ID is `original` could not be delivered to `recipient`, status 5.1.1
 * with the server's `diagnostic` ("550 5.1.1 …"); its headers part names the subject "Idea". Lines end in \n.
 */
export function hardBounceReport(o: { to: string; messageId: string; recipient: string; diagnostic: string; original: string }): string {
  const domain = o.recipient.split("@")[1];
  return [
    `From: Mail Delivery Subsystem <mailer-daemon@${domain}>`,
    `To: ${o.to}`,
    "Subject: Delivery Status Notification (Failure)",
    `Message-ID: ${o.messageId}`,
    "MIME-Version: 1.0",
    'Content-Type: multipart/report; report-type=delivery-status; boundary="b1"',
    "",
    "--b1",
    "Content-Type: text/plain",
    "",
    "Your message could not be delivered.",
    "--b1",
    "Content-Type: message/delivery-status",
    "",
    `Reporting-MTA: dns; mx.${domain}`,
    "",
    `Final-Recipient: rfc822; ${o.recipient}`,
    "Action: failed",
    "Status: 5.1.1",
    `Diagnostic-Code: smtp; ${o.diagnostic}`,
    "--b1",
    "Content-Type: text/rfc822-headers",
    "",
    `Message-ID: ${o.original}`,
    "Subject: Idea",
    "--b1--",
    "",
  ].join("\n");
}
