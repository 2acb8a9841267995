import net from "node:net";
import { SMTPServer } from "smtp-server";

/**
 * SMTP peers for address verification tests: real smtp-server instances, one per behaviour, each on its
 * own loopback address and all on ONE port (SMTP_VERIFY_PORT is a single port, as port 25 is in the
 * wild), plus a silent TCP server that never greets (a timeout). Each peer logs every RCPT TO it saw.
 */

export type Behaviour =
  | { kind: "mailboxes"; known: string[] }
  | { kind: "refuse" }
  /**
   * Greylisting: each recipient is answered `code` (default 451) the first `times` times it is asked for
   * (a greylister's triplet is the sender, the client and the recipient), then as a server that knows
   * `known` (or, with `catchAll`, accepts any address). With `at: "mail"` it is MAIL FROM that is
   * answered 4xx, for the first `times` sessions.
   */
  | { kind: "greylist"; times: number; known: string[]; code?: 450 | 451; catchAll?: boolean; at?: "rcpt" | "mail" }
  | { kind: "catch-all" };

export interface VerifyPeer {
  host: string;
  rcpts: string[];
  /** Awaited before each RCPT is answered (a test can act mid-probe, e.g. cancel the job). */
  onRcpt?: (address: string) => Promise<void>;
  close(): Promise<void>;
}

function smtpPeer(host: string, port: number, behaviour: Behaviour): Promise<VerifyPeer> {
  const rcpts: string[] = [];
  const greylisted = new Map<string, number>();
  let sessions = 0;
  const peer: VerifyPeer = { host, rcpts, close: async () => {} };
  const fail = (code: number, text: string) => Object.assign(new Error(text), { responseCode: code });
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onMailFrom(_address, _session, cb) {
      sessions++;
      if (behaviour.kind === "greylist" && behaviour.at === "mail" && sessions <= behaviour.times) {
        return cb(fail(behaviour.code ?? 450, "4.7.1 Greylisted, please try again later"));
      }
      cb();
    },
    async onRcptTo(address, _session, cb) {
      const a = address.address.toLowerCase();
      rcpts.push(a);
      await peer.onRcpt?.(a);
      if (behaviour.kind === "catch-all") return cb();
      if (behaviour.kind === "greylist") {
        const seen = greylisted.get(a) ?? 0;
        if (behaviour.at !== "mail" && seen < behaviour.times) {
          greylisted.set(a, seen + 1);
          return cb(fail(behaviour.code ?? 451, "4.7.1 Greylisted, please try again later"));
        }
        if (behaviour.catchAll) return cb();
      }
      if (behaviour.kind !== "refuse" && behaviour.known.includes(a)) return cb();
      cb(fail(550, `5.1.1 <${a}>: Recipient address rejected: User unknown`));
    },
    onData(_stream, _session, cb) {
      cb(fail(554, "5.7.1 verification peer: DATA must never be sent"));
    },
  });
  server.on("error", () => {});
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      peer.close = () => new Promise((r) => server.close(() => r()));
      resolve(peer);
    });
  });
}

/** A server that accepts the connection and never says a word. */
function silentPeer(host: string, port: number): Promise<VerifyPeer> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => sockets.add(s));
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () =>
      resolve({
        host,
        rcpts: [],
        close: () =>
          new Promise((r) => {
            for (const s of sockets) s.destroy();
            server.close(() => r());
          }),
      }),
    );
  });
}

/** A free port on 127.0.0.2 (the others are tried on it too). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.2", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** Starts one peer per behaviour on 127.0.0.2, .3, … and a silent one after them, all on one port. */
export async function startVerifyPeers(
  behaviours: Behaviour[],
): Promise<{ port: number; peers: VerifyPeer[]; silent: VerifyPeer; close(): Promise<void> }> {
  const port = await freePort();
  const peers = await Promise.all(behaviours.map((b, i) => smtpPeer(`127.0.0.${i + 2}`, port, b)));
  const silent = await silentPeer(`127.0.0.${behaviours.length + 2}`, port);
  return { port, peers, silent, close: async () => void (await Promise.all([...peers, silent].map((p) => p.close()))) };
}
