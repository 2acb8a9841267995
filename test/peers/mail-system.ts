import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "./ports";

/**
 * A real mail system for tests: Postfix (a submission port with SASL through Dovecot's auth socket)
 * delivering over LMTP into Dovecot (virtual users from a passwd-file, Maildir), Dovecot IMAP, and a
 * Sieve rule that files mail whose subject contains `junkMarker` into Junk. Everything is private to
 * one directory under /tmp — its own Postfix config directory, queue, data directory, Dovecot base
 * directory, pids and loopback ports — so the machine's own Postfix/Dovecot (if any) is left alone.
 *
 * Mail to a user of `domains` who is not in `users` is accepted at submission and refused by Dovecot
 * at delivery (550 5.1.1), so Postfix writes a real delivery status notification to the sender. Mail
 * to `deferredDomains` is relayed to a loopback port nobody listens on: it stays queued, and after a
 * second Postfix sends the sender a delay notice (Action: delayed, 4.4.1). Runs as root (Postfix's
 * master and Dovecot's need it); installs the packages first when they are missing
 * (scripts/mail-system.sh).
 */
export interface MailSystemOptions {
  domains: string[];
  /** address → password */
  users: Record<string, string>;
  deferredDomains?: string[];
  junkMarker?: string;
}

export interface StoredMessage {
  file: string;
  raw: string;
}

export interface MailSystem {
  smtp: { host: string; port: number };
  imap: { host: string; port: number };
  dir: string;
  junkMarker: string;
  /** The messages in `folder` ("INBOX", "Junk") of a user's Maildir, oldest first. */
  messages(address: string, folder?: string): StoredMessage[];
  /** Polls `messages` until `pick` finds one (Postfix delivers asynchronously); fails after `timeoutMs`. */
  waitFor(address: string, folder: string, pick: (m: StoredMessage) => boolean, timeoutMs?: number): Promise<StoredMessage>;
  /** Postfix's and Dovecot's logs, for a failing test's message. */
  logs(): string;
  close(): Promise<void>;
}

const ROOT = path.resolve(import.meta.dirname, "../..");
const MAIL_UID = 8; // Debian's `mail` user and group own the Maildirs
const sh = (cmd: string, args: string[]) => execFileSync(cmd, args, { stdio: "pipe", encoding: "utf8" });

function ensureInstalled(): void {
  if (
    existsSync("/usr/sbin/postfix") &&
    existsSync("/usr/sbin/dovecot") &&
    existsSync("/usr/lib/dovecot/lmtp") &&
    existsSync("/usr/bin/sievec")
  )
    return;
  execFileSync("bash", [path.join(ROOT, "scripts/mail-system.sh"), "install"], { stdio: "inherit", timeout: 900_000 });
}

function mainCf(d: string, o: MailSystemOptions, closedPort: number): string {
  const transports = (o.deferredDomains ?? []).map((x) => `${x}=smtp:[127.0.0.1]:${closedPort}`).join(" ");
  return `compatibility_level = 3.6
queue_directory = ${d}/spool
data_directory = ${d}/postfix-data
mail_owner = postfix
setgid_group = postdrop
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
myhostname = mx.outreach-test.invalid
mydomain = outreach-test.invalid
myorigin = $myhostname
mydestination =
relayhost =
alias_maps =
alias_database =
local_recipient_maps =
maillog_file_prefixes = ${d}
maillog_file = ${d}/postfix.log
smtputf8_enable = no
biff = no
virtual_mailbox_domains = ${o.domains.join(" ")}
virtual_transport = lmtp:unix:${d}/dovecot/lmtp
${transports ? `transport_maps = inline:{ ${transports} }` : ""}
smtpd_sasl_type = dovecot
smtpd_sasl_path = ${d}/dovecot/auth-postfix
smtpd_sasl_auth_enable = yes
smtpd_relay_restrictions = permit_sasl_authenticated, reject_unauth_destination
smtpd_reject_unlisted_recipient = no
smtp_connect_timeout = 2s
queue_run_delay = 1s
minimal_backoff_time = 1s
maximal_backoff_time = 2s
delay_warning_time = 1s
maximal_queue_lifetime = 1h
bounce_queue_lifetime = 1h
`;
}

/** Only the services mail needs here, none chrooted, and no listener on port 25. */
function masterCf(port: number): string {
  return `127.0.0.1:${port} inet n - n - - smtpd
pickup unix n - n 60 1 pickup
cleanup unix n - n - 0 cleanup
qmgr unix n - n 300 1 qmgr
tlsmgr unix - - n 1000? 1 tlsmgr
rewrite unix - - n - - trivial-rewrite
bounce unix - - n - 0 bounce
defer unix - - n - 0 bounce
trace unix - - n - 0 bounce
verify unix - - n - 1 verify
flush unix n - n 1000? 0 flush
proxymap unix - - n - - proxymap
proxywrite unix - - n - 1 proxymap
smtp unix - - n - - smtp
relay unix - - n - - smtp
showq unix n - n - - showq
error unix - - n - - error
retry unix - - n - - error
discard unix - - n - - discard
lmtp unix - - n - - lmtp
anvil unix - - n - 1 anvil
scache unix - - n - 1 scache
postlog unix-dgram n - n - 1 postlogd
`;
}

function dovecotConf(d: string, imapPort: number, name: string): string {
  return `instance_name = ${name}
base_dir = ${d}/dovecot/run
state_dir = ${d}/dovecot/state
protocols = imap lmtp
listen = 127.0.0.1
log_path = ${d}/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:${d}/mail/%d/%n/Maildir
mail_uid = ${MAIL_UID}
mail_gid = ${MAIL_UID}
first_valid_uid = ${MAIL_UID}
first_valid_gid = ${MAIL_UID}
lmtp_save_to_detail_mailbox = no
namespace inbox {
  inbox = yes
  separator = /
  mailbox Junk {
    special_use = \\Junk
    auto = subscribe
  }
  mailbox Sent {
    special_use = \\Sent
    auto = subscribe
  }
}
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${d}/dovecot/users
}
userdb {
  driver = static
  args = uid=${MAIL_UID} gid=${MAIL_UID} home=${d}/mail/%d/%n
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${imapPort}
  }
  inet_listener imaps {
    port = 0
  }
}
service lmtp {
  unix_listener ${d}/dovecot/lmtp {
    mode = 0666
  }
}
service auth {
  unix_listener ${d}/dovecot/auth-postfix {
    mode = 0666
  }
}
protocol lmtp {
  mail_plugins = $mail_plugins sieve
  postmaster_address = postmaster@${name}.invalid
}
plugin {
  sieve_before = ${d}/sieve/junk.sieve
}
`;
}

function writeConfig(d: string, o: MailSystemOptions, ports: { smtp: number; imap: number; closed: number }, marker: string): string {
  for (const sub of ["postfix", "spool", "postfix-data", "dovecot/run", "dovecot/state", "mail", "sieve"])
    mkdirSync(path.join(d, sub), { recursive: true });
  chmodSync(d, 0o755); // Postfix's and Dovecot's unprivileged processes reach their sockets and queue inside
  chownSync(path.join(d, "postfix-data"), Number(sh("id", ["-u", "postfix"]).trim()), 0);
  chownSync(path.join(d, "mail"), MAIL_UID, MAIL_UID);
  writeFileSync(path.join(d, "postfix/main.cf"), mainCf(d, o, ports.closed));
  writeFileSync(path.join(d, "postfix/master.cf"), masterCf(ports.smtp));
  const name = `outreach-test-${path.basename(d).replace(/[^a-z0-9]/gi, "")}`;
  writeFileSync(path.join(d, "dovecot/dovecot.conf"), dovecotConf(d, ports.imap, name));
  const users = Object.entries(o.users).map(([u, p]) => `${u.toLowerCase()}:{PLAIN}${p}::::::`);
  writeFileSync(path.join(d, "dovecot/users"), `${users.join("\n")}\n`, { mode: 0o644 });
  const quoted = marker.replace(/["\\]/g, "\\$&");
  writeFileSync(
    path.join(d, "sieve/junk.sieve"),
    `require ["fileinto", "mailbox"];\nif header :contains "subject" "${quoted}" {\n  fileinto :create "Junk";\n  stop;\n}\n`,
  );
  sh("sievec", ["-c", path.join(d, "dovecot/dovecot.conf"), path.join(d, "sieve/junk.sieve")]);
  return name;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitForFile(file: string, logs: () => string, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!existsSync(file)) {
    if (Date.now() > until) throw new Error(`mail system: ${file} did not appear\n${logs()}`);
    await sleep(100);
  }
}

function maildirOf(d: string, address: string, folder: string): string {
  const [user, domain] = address.toLowerCase().split("@");
  const base = path.join(d, "mail", domain, user, "Maildir");
  return folder === "INBOX" ? base : path.join(base, `.${folder}`);
}

function readMaildir(dir: string): StoredMessage[] {
  const out: StoredMessage[] = [];
  for (const sub of ["cur", "new"]) {
    const p = path.join(dir, sub);
    if (!existsSync(p)) continue;
    for (const f of readdirSync(p)) out.push({ file: path.join(p, f), raw: readFileSync(path.join(p, f), "utf8") });
  }
  // Maildir names start with the delivery time in seconds and a sequence: sorting by name is oldest first.
  return out.sort((a, b) => path.basename(a.file).localeCompare(path.basename(b.file), "en", { numeric: true }));
}

export async function startMailSystem(o: MailSystemOptions): Promise<MailSystem> {
  ensureInstalled();
  const d = mkdtempSync(path.join(tmpdir(), "mail-system-"));
  const ports = { smtp: await freePort(), imap: await freePort(), closed: await freePort() };
  const marker = o.junkMarker ?? "[junk-me]";
  writeConfig(d, o, ports, marker);
  const logs = () =>
    ["postfix.log", "dovecot.log"]
      .map((f) => (existsSync(path.join(d, f)) ? `--- ${f}\n${readFileSync(path.join(d, f), "utf8").slice(-6000)}` : ""))
      .join("\n");
  const dovecotConfFile = path.join(d, "dovecot/dovecot.conf");
  const dovecot: ChildProcess = spawn("/usr/sbin/dovecot", ["-F", "-c", dovecotConfFile], { stdio: "ignore" });
  let postfixStarted = false;
  // Should the test process end without close() (a crash, an interrupted run), Postfix's master, which
  // runs detached, is stopped on the way out; Dovecot runs in the foreground as this process's child.
  const onExit = () => {
    if (postfixStarted) spawnSync("/usr/sbin/postfix", ["-c", path.join(d, "postfix"), "abort"], { stdio: "ignore" });
    dovecot.kill("SIGKILL");
  };
  process.once("exit", onExit);
  const close = async () => {
    process.removeListener("exit", onExit);
    if (postfixStarted) {
      try {
        sh("/usr/sbin/postfix", ["-c", path.join(d, "postfix"), "stop"]);
      } catch {
        /* already stopped */
      }
      postfixStarted = false;
    }
    if (dovecot.exitCode === null && dovecot.signalCode === null) {
      const exited = new Promise((r) => dovecot.once("exit", r));
      dovecot.kill("SIGTERM");
      await Promise.race([exited, sleep(10_000)]);
    }
    rmSync(d, { recursive: true, force: true });
  };
  try {
    await waitForFile(path.join(d, "dovecot/auth-postfix"), logs);
    await waitForFile(path.join(d, "dovecot/lmtp"), logs);
    sh("/usr/sbin/postfix", ["-c", path.join(d, "postfix"), "start"]);
    postfixStarted = true;
    await waitForFile(path.join(d, "spool/pid/master.pid"), logs);
  } catch (e) {
    const why = `${(e as { stderr?: string }).stderr ?? ""}${(e as Error).message}\n${logs()}`;
    await close();
    throw new Error(`mail system did not start: ${why}`);
  }
  const messages = (address: string, folder = "INBOX") => readMaildir(maildirOf(d, address, folder));
  return {
    smtp: { host: "127.0.0.1", port: ports.smtp },
    imap: { host: "127.0.0.1", port: ports.imap },
    dir: d,
    junkMarker: marker,
    messages,
    async waitFor(address, folder, pick, timeoutMs = 60_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const found = messages(address, folder).find(pick);
        if (found) return found;
        if (Date.now() > until)
          throw new Error(`mail system: no matching message in ${address} ${folder} after ${timeoutMs} ms\n${logs()}`);
        await sleep(250);
      }
    },
    logs,
    close,
  };
}
