import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort, sleep } from "./bench-util";

/**
 * The world of the reply sync's scale bench (scripts/bench-scale-imap.ts): one private Dovecot (Debian's
 * packages, scripts/mail-system.sh; IMAP only, on loopback, virtual users from a passwd-file, Maildir
 * written straight to disk with some history in INBOX, Junk and Sent), replies delivered into a
 * Maildir's new/ (as a local delivery agent does) and a TCP proxy that holds every chunk 40 ms each way.
 */

export const DOMAIN = "scale.test";
const MAIL_UID = 8; // Debian's `mail` user and group own the Maildirs (as test/peers/mail-system.ts)
export const account = (i: number) => ({ user: `box${i}@${DOMAIN}`, password: `pw-${i}-scale` });

export interface Dovecot {
  port: number;
  /** Delivers a message into account i's INBOX (tmp/, then renamed into new/); returns the time it appeared (ms). */
  deliver(i: number, raw: string): number;
  /** Adds accounts [from, to) to the passwd-file with their Maildirs and history. */
  addAccounts(from: number, to: number): void;
  logs(): string;
  close(): Promise<void>;
}

function dovecotConf(d: string, port: number): string {
  return `instance_name = outreach-bench-${path.basename(d).replace(/[^a-z0-9]/gi, "")}
base_dir = ${d}/run
state_dir = ${d}/state
protocols = imap
listen = 127.0.0.1
log_path = ${d}/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:${d}/mail/%d/%n/Maildir
mail_uid = ${MAIL_UID}
mail_gid = ${MAIL_UID}
first_valid_uid = ${MAIL_UID}
mail_max_userip_connections = 50
default_process_limit = 4000
default_client_limit = 20000
namespace inbox {
  inbox = yes
  separator = /
  mailbox Junk {
    special_use = \\Junk
  }
  mailbox Sent {
    special_use = \\Sent
  }
}
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${d}/users
}
userdb {
  driver = static
  args = uid=${MAIL_UID} gid=${MAIL_UID} home=${d}/mail/%d/%n
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
  service_count = 0
  process_min_avail = 2
  client_limit = 5000
  vsz_limit = 1G
}
service imap {
  process_limit = 5000
  client_limit = 1
}
service anvil {
  client_limit = 20000
}
service auth {
  client_limit = 20000
}
`;
}

const HISTORY_BODY = "Thanks for the note, we will look at it next quarter.\r\n";

function historyMessage(i: number, folder: string, k: number): string {
  const from = folder === "Sent" ? `Box ${i} <${account(i).user}>` : `Someone <someone${k}@elsewhere${i % 97}.test>`;
  const to = folder === "Sent" ? `Someone <someone${k}@elsewhere${i % 97}.test>` : account(i).user;
  return [
    `From: ${from}`,
    `To: ${to}`,
    `Subject: ${folder === "Junk" ? "Cheap watches" : "Hello"} ${k}`,
    `Message-ID: <hist-${i}-${folder}-${k}@scale-history.test>`,
    `Date: ${new Date(Date.UTC(2026, 9, 1 + k)).toUTCString().replace("GMT", "+0000")}`,
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "",
    HISTORY_BODY,
  ].join("\r\n");
}

/** Maildir folders of one account, with `history` messages in INBOX and half as many in Junk and Sent. */
function writeMaildir(root: string, i: number, history: number): void {
  const [name] = account(i).user.split("@");
  const md = path.join(root, DOMAIN, name, "Maildir");
  const folders: [string, string, number][] = [
    ["INBOX", md, history],
    ["Junk", path.join(md, ".Junk"), Math.ceil(history / 2)],
    ["Sent", path.join(md, ".Sent"), Math.ceil(history / 2)],
  ];
  for (const [folder, dir, n] of folders) {
    for (const sub of ["cur", "new", "tmp"]) mkdirSync(path.join(dir, sub), { recursive: true });
    if (folder !== "INBOX") writeFileSync(path.join(dir, "maildirfolder"), "");
    for (let k = 0; k < n; k++)
      writeFileSync(path.join(dir, "cur", `${1_790_000_000 + k}.M${k}P${i}.hist:2,S`), historyMessage(i, folder, k));
  }
}

async function waitForPort(port: number, ms: number): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, "127.0.0.1", () => {
        s.destroy();
        resolve(true);
      });
      s.on("error", () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`Dovecot did not listen on ${port} within ${ms} ms`);
    await sleep(100);
  }
}

/** A private Dovecot on loopback (installed first when missing), with no account until addAccounts. */
export async function startDovecot(history: number): Promise<Dovecot> {
  if (!existsSync("/usr/sbin/dovecot"))
    execFileSync("bash", [path.resolve(import.meta.dirname, "mail-system.sh"), "install"], { stdio: "inherit" });
  const d = mkdtempSync(path.join(tmpdir(), "bench-dovecot-"));
  for (const sub of ["run", "state", "mail"]) mkdirSync(path.join(d, sub), { recursive: true });
  execFileSync("chmod", ["755", d]);
  const port = await freePort();
  const conf = path.join(d, "dovecot.conf");
  writeFileSync(conf, dovecotConf(d, port));
  writeFileSync(path.join(d, "users"), "", { mode: 0o644 });
  const proc: ChildProcess = spawn("/usr/sbin/dovecot", ["-F", "-c", conf], { stdio: "ignore" });
  const onExit = () => proc.kill("SIGKILL");
  process.once("exit", onExit);
  const logs = () => (existsSync(path.join(d, "dovecot.log")) ? readFileSync(path.join(d, "dovecot.log"), "utf8").slice(-4000) : "");
  try {
    await waitForPort(port, 20_000);
  } catch (e) {
    proc.kill("SIGKILL");
    throw new Error(`${(e as Error).message}\n${logs()}`);
  }
  let seq = 0;
  return {
    port,
    logs,
    addAccounts(from, to) {
      const lines: string[] = [];
      for (let i = from; i < to; i++) {
        writeMaildir(path.join(d, "mail"), i, history);
        lines.push(`${account(i).user}:{PLAIN}${account(i).password}::::::`);
      }
      writeFileSync(path.join(d, "users"), `${lines.join("\n")}\n`, { flag: "a" });
      execFileSync("chown", ["-R", `${MAIL_UID}:${MAIL_UID}`, path.join(d, "mail")]);
    },
    deliver(i, raw) {
      const [name] = account(i).user.split("@");
      const md = path.join(d, "mail", DOMAIN, name, "Maildir");
      const file = `${Math.floor(Date.now() / 1000)}.M${++seq}P${process.pid}.bench`;
      writeFileSync(path.join(md, "tmp", file), raw, { mode: 0o644 });
      renameSync(path.join(md, "tmp", file), path.join(md, "new", file));
      return Date.now();
    },
    async close() {
      process.off("exit", onExit);
      proc.kill("SIGTERM");
      await new Promise((r) => setTimeout(r, 500));
      proc.kill("SIGKILL");
      rmSync(d, { recursive: true, force: true });
    },
  };
}

export interface DelayProxy {
  port: number;
  /** Connections open now. */
  readonly open: number;
  close(): Promise<void>;
}

/** Holds each chunk `delayMs` before passing it on, both ways (order kept: timers of one delay fire in order). */
function pipeDelayed(from: Socket, to: Socket, delayMs: number): void {
  from.on("data", (chunk) => {
    setTimeout(() => {
      if (!to.destroyed) to.write(chunk);
    }, delayMs);
  });
  from.on("end", () => setTimeout(() => to.end(), delayMs));
}

/** A TCP proxy on loopback to `target` adding `delayMs` each way (an IMAP server another network away). */
export async function startDelayProxy(target: number, delayMs: number): Promise<DelayProxy> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    client.setNoDelay(true);
    const upstream = connect(target, "127.0.0.1");
    upstream.setNoDelay(true);
    sockets.add(client);
    const gone = () => {
      sockets.delete(client);
      client.destroy();
      upstream.destroy();
    };
    for (const s of [client, upstream]) {
      s.on("error", gone);
      s.on("close", gone);
    }
    pipeDelayed(client, upstream, delayMs);
    pipeDelayed(upstream, client, delayMs);
  });
  server.maxConnections = 100_000;
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    port,
    get open() {
      return sockets.size;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A reply from a stranger, small and plain: stored as a reply (unmatched) by the sync. */
export function replyMessage(i: number, messageId: string): string {
  return [
    `From: "Lead ${i}" <lead${i}@prospect${i % 53}.test>`,
    `To: ${account(i).user}`,
    "Subject: Re: Quick idea",
    `Message-ID: ${messageId}`,
    `Date: ${new Date().toUTCString().replace("GMT", "+0000")}`,
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "",
    "Sounds interesting, can we talk on Tuesday?",
    "",
  ].join("\r\n");
}
