import { randomBytes } from "node:crypto";

/** A unique Message-ID on the sending address's own domain (`<hint.random@domain>`), fixed before sending. */
export function newMessageId(fromAddress: string, hint?: string): string {
  const domain = fromAddress.slice(fromAddress.lastIndexOf("@") + 1).toLowerCase();
  const random = randomBytes(hint ? 6 : 12).toString("hex");
  return `<${hint ? `${hint}.` : ""}${random}@${domain}>`;
}
