// @ts-expect-error hoodiecrow-imap ships no types
import hoodiecrow from "hoodiecrow-imap";
import { SMTPServer } from "smtp-server";

/**
 * A small mail network for warmup and placement tests: one real SMTP server that every account logs
 * in to, and one real IMAP server (hoodiecrow keeps one mail store per server) per account. Mail the
 * SMTP server accepts is delivered into each recipient's IMAP store — into Junk when `junk` says so,
 * else INBOX — the way a provider files incoming mail. Accounts listed in `gmail` speak X-GM-EXT-1,
 * and `labels` can give a delivered message Gmail labels (category tabs).
 */
export interface MailNetworkOptions {
  /** address → password, for SMTP and IMAP. */
  accounts: Record<string, string>;
  /** Whether a message to this recipient lands in Junk (default: never). */
  junk?: (recipient: string, raw: string) => boolean;
  /** Accounts whose IMAP server offers X-GM-EXT-1 (Gmail's labels). */
  gmail?: string[];
  /** Labels a Gmail account's copy gets (e.g. ["\\Inbox", "CATEGORY_PROMOTIONS"]). */
  labels?: (recipient: string, raw: string) => string[];
  /** A slow server: the reply to DATA waits this long (widens the window a crash can hit mid-send). */
  dataDelayMs?: number;
}

export interface Delivered {
  from: string;
  to: string;
  folder: "INBOX" | "Junk";
  raw: string;
  messageId: string | null;
}

interface Hoodiecrow {
  appendMessage(folder: string, flags: string[], date: Date | false, raw: string): { message: Record<string, unknown> };
  getMailbox(path: string): { messages: { raw: string; flags: string[] }[] };
  server?: { address(): { port: number } };
  address?: () => { port: number };
  listen(port: number, host: string, cb: () => void): void;
  registerCapability(name: string): void;
  close(cb: () => void): void;
}

export interface NetworkAccount {
  email: string;
  password: string;
  imap: { host: string; port: number };
  server: Hoodiecrow;
  /** The raw messages now in a folder of this account. */
  folder(name: "INBOX" | "Junk"): { raw: string; flags: string[] }[];
}

function imapServer(user: string, password: string, gmail: boolean): Hoodiecrow {
  const server = hoodiecrow({
    users: { [user]: { password } },
    plugins: ["IDLE", "SPECIAL-USE", "UIDPLUS", "ENABLE", "CONDSTORE", "LITERALPLUS", "MOVE", ...(gmail ? ["X-GM-EXT-1"] : [])],
    storage: {
      INBOX: { messages: [] },
      "": { separator: "/", folders: { Sent: { "special-use": "\\Sent", messages: [] }, Junk: { "special-use": "\\Junk", messages: [] } } },
    },
  });
  // hoodiecrow's X-GM-EXT-1 plugin handles labels but does not announce itself, and clients only ask a
  // server that does.
  if (gmail) server.registerCapability("X-GM-EXT-1");
  return server;
}

export async function startMailNetwork(opts: MailNetworkOptions) {
  const accounts = new Map<string, NetworkAccount>();
  for (const [email, password] of Object.entries(opts.accounts)) {
    const server = imapServer(email, password, opts.gmail?.includes(email) ?? false);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    const port = (server.server?.address() ?? server.address?.())?.port as number;
    accounts.set(email.toLowerCase(), {
      email,
      password,
      imap: { host: "127.0.0.1", port },
      server,
      folder: (name) => server.getMailbox(name).messages,
    });
  }
  const delivered: Delivered[] = [];
  const deliver = (from: string, to: string, raw: string) => {
    const account = accounts.get(to.toLowerCase());
    if (!account) return;
    const folder = opts.junk?.(to, raw) ? "Junk" : "INBOX";
    const { message } = account.server.appendMessage(folder, [], false, raw);
    const labels = opts.labels?.(to, raw);
    if (labels && opts.gmail?.includes(account.email)) message["X-GM-LABELS"] = labels;
    delivered.push({ from, to, folder, raw, messageId: /^message-id:\s*(<[^>\r\n]+>)/im.exec(raw)?.[1] ?? null });
  };

  const smtp = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    authMethods: ["PLAIN", "LOGIN"],
    logger: false,
    onAuth(auth, _session, cb) {
      const account = accounts.get(String(auth.username).toLowerCase());
      if (account && account.password === auth.password) return cb(null, { user: account.email });
      const err = new Error("5.7.8 Username and Password not accepted") as Error & { responseCode: number };
      err.responseCode = 535;
      cb(err);
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", async () => {
        if (opts.dataDelayMs) await new Promise((r) => setTimeout(r, opts.dataDelayMs));
        const raw = Buffer.concat(chunks).toString("utf8");
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
        for (const r of session.envelope.rcptTo) deliver(from, r.address, raw);
        cb();
      });
    },
  });
  smtp.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code !== "ECONNRESET" && e.code !== "EPIPE") throw e;
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", () => resolve()));
  const smtpPort = (smtp.server.address() as { port: number }).port;

  return {
    smtp: { host: "127.0.0.1", port: smtpPort },
    accounts,
    delivered,
    account(email: string): NetworkAccount {
      const a = accounts.get(email.toLowerCase());
      if (!a) throw new Error(`no account ${email} in the mail network`);
      return a;
    },
    /** A `POST /mailboxes/bulk-import` item for an account of the network. */
    importItem(email: string, extra: Record<string, unknown> = {}) {
      const a = this.account(email);
      return {
        email: a.email,
        smtpHost: "127.0.0.1",
        smtpPort,
        smtpSecurity: "NONE",
        smtpPassword: a.password,
        imapHost: a.imap.host,
        imapPort: a.imap.port,
        imapSecurity: "NONE",
        ...extra,
      };
    },
    async close() {
      await new Promise<void>((r) => smtp.close(() => r()));
      // A client left logged in would hold close() open: give each server a moment, not forever.
      const closed = (a: NetworkAccount) => new Promise<void>((r) => a.server.close(() => r()));
      await Promise.all([...accounts.values()].map((a) => Promise.race([closed(a), new Promise((r) => setTimeout(r, 1000))])));
    },
  };
}

export type MailNetwork = Awaited<ReturnType<typeof startMailNetwork>>;
