import { ImapFlow } from "imapflow";
import type { ServerLogin } from "./providers";
import { mailTimeouts } from "../env";

/** An IMAP server's login (an OAuth token logs in with XOAUTH2, by AUTHENTICATE). */
export type ImapConfig = ServerLogin;

export class ImapError extends Error {
  constructor(
    readonly kind: "auth" | "unreachable",
    message: string,
  ) {
    super(message);
  }
}

export function imapClient(cfg: ImapConfig): ImapFlow {
  return new ImapFlow({
    host: cfg.host,
    port: cfg.port,
    secure: cfg.security === "SSL",
    doSTARTTLS: cfg.security === "STARTTLS" ? true : cfg.security === "NONE" ? false : undefined,
    auth: cfg.accessToken ? { user: cfg.username, accessToken: cfg.accessToken } : { user: cfg.username, pass: cfg.password },
    logger: false,
    connectionTimeout: mailTimeouts.imapConnectMs,
    greetingTimeout: 15_000,
  });
}

/** Logs in and out; throws ImapError with the server's words. */
export async function verifyImapLogin(cfg: ImapConfig): Promise<void> {
  const client = imapClient(cfg);
  client.on("error", () => {}); // reported through connect()'s rejection
  try {
    await client.connect();
  } catch (e) {
    const err = e as { authenticationFailed?: boolean; responseText?: string; message?: string; code?: string };
    if (err.authenticationFailed) throw new ImapError("auth", err.responseText || err.message || "IMAP login refused");
    throw new ImapError("unreachable", `Could not reach the IMAP server: ${err.responseText || err.message || err.code}`);
  }
  await client.logout().catch(() => client.close());
}
