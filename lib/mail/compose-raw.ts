import MailComposer from "nodemailer/lib/mail-composer";
import type { OutgoingMessage } from "./sender";

/**
 * A message as the bytes the SMTP sender would put on the wire (RFC 5322, MIME parts and headers by
 * nodemailer's composer, the one the sender uses), for filters that score a message before it is sent.
 */
export function composeRaw(message: OutgoingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    new MailComposer(message).compile().build((err, raw) => (err ? reject(err) : resolve(raw.toString("utf8"))));
  });
}
