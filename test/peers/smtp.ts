import { SMTPServer } from "smtp-server";
import { simpleParser, type ParsedMail } from "mailparser";

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  parsed: ParsedMail;
  user: string | undefined;
}

/**
 * A real SMTP server for tests: accepts logins from `users`, refuses others with 535, refuses the
 * recipients listed in `rejectRecipients` with 550, and keeps what it received.
 */
export async function startSmtpPeer(opts: {
  users: Record<string, string>;
  rejectRecipients?: string[];
  dataDelayMs?: number;
  /** Called as a message's DATA starts streaming in (the reliability suite kills the sender there). */
  onDataStart?: () => void;
  /** Offers XOAUTH2 and asks this whether a bearer token logs the user in (an OAuth peer's check). */
  xoauth2?: (user: string, accessToken: string) => boolean;
}) {
  const received: ReceivedMail[] = [];
  /** The users whose XOAUTH2 bearer token was refused, one entry a refused login. */
  const refusedBearer: string[] = [];
  const users = { ...opts.users };
  const reject = new Set((opts.rejectRecipients ?? []).map((r) => r.toLowerCase()));
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    authMethods: opts.xoauth2 ? ["PLAIN", "LOGIN", "XOAUTH2"] : ["PLAIN", "LOGIN"],
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.method === "XOAUTH2") {
        const user = String(auth.username);
        if (opts.xoauth2?.(user, String(auth.accessToken))) return cb(null, { user });
        refusedBearer.push(user);
        // Gmail's refusal: a 334 with the JSON error, then 535 once the client answers it.
        return cb(null, { data: { status: "401", schemes: "bearer", scope: "https://mail.google.com/" } });
      }
      // Like real providers, the login name is matched case-insensitively.
      const user = Object.keys(users).find((u) => u.toLowerCase() === String(auth.username).toLowerCase());
      if (user && users[user] === auth.password) return cb(null, { user });
      const err = new Error("5.7.8 Username and Password not accepted") as Error & { responseCode: number };
      err.responseCode = 535;
      cb(err);
    },
    onRcptTo(address, _session, cb) {
      if (reject.has(address.address.toLowerCase())) {
        const err = new Error(`5.1.1 <${address.address}>: Recipient address rejected: User unknown`) as Error & { responseCode: number };
        err.responseCode = 550;
        return cb(err);
      }
      cb();
    },
    onData(stream, session, cb) {
      opts.onDataStart?.();
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", async () => {
        // A slow server widens the window in which a crash can hit mid-send.
        if (opts.dataDelayMs) await new Promise((r) => setTimeout(r, opts.dataDelayMs));
        const raw = Buffer.concat(chunks).toString("utf8");
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          parsed: await simpleParser(raw),
          user: session.user as string | undefined,
        });
        cb();
      });
    },
  });
  // A client killed mid-conversation (the crash tests SIGKILL the worker) resets its socket: that is
  // the test's point, not a server failure.
  server.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code !== "ECONNRESET" && e.code !== "EPIPE") throw e;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.server.address() as { port: number }).port;
  return {
    host: "127.0.0.1",
    port,
    received,
    refusedBearer,
    users,
    /** Like a provider after a password change: the new password only, and open sessions of that user are dropped. */
    setPassword(user: string, password: string) {
      users[user] = password;
      const open = (server as unknown as { connections: Set<{ session: { user?: string }; close(): void }> }).connections;
      for (const c of open) if (String(c.session?.user ?? "").toLowerCase() === user.toLowerCase()) c.close();
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export type SmtpPeer = Awaited<ReturnType<typeof startSmtpPeer>>;
