import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "./ports";

/**
 * Real spam filters for tests: rspamd (its own configuration, runtime and database folders under /tmp,
 * the normal worker's HTTP API and the controller on loopback ports) and SpamAssassin's spamd on a
 * loopback port, asked through spamc. Both run local tests only: rspamd with the modules that ask the
 * network (DNS lists, SPF, DKIM, DMARC, fuzzy hashes, reputation…) turned off, spamd with `--local`.
 * Missing binaries are installed with scripts/spam-filters.sh.
 */

/** One rule or symbol that fired, with the points it added. */
export interface FiredRule {
  name: string;
  score: number;
}

export interface FilterVerdict {
  /** The filter's total. */
  score: number;
  rules: FiredRule[];
}

const ROOT = path.resolve(import.meta.dirname, "../..");
/** rspamd compiles its hyperscan databases at the first start (a minute or more); later starts reuse them. */
const HS_CACHE = path.join(tmpdir(), "outreach-rspamd-hs");
/** rspamd modules that need DNS, the network or Redis: off, so a scan never waits on them. */
const NETWORK_MODULES = [
  "arc",
  "asn",
  "dcc",
  "dkim",
  "dmarc",
  "emails",
  "external_services",
  "fuzzy_check",
  "greylist",
  "mx_check",
  "neural",
  "phishing",
  "ratelimit",
  "rbl",
  "replies",
  "reputation",
  "rspamd_update",
  "spf",
  "surbl",
  "url_redirector",
];

function has(bin: string): boolean {
  try {
    execFileSync("sh", ["-c", `command -v ${bin}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** rspamd, spamd and spamc on PATH, installing them once when one is missing. */
export function ensureSpamFilters(): void {
  if (["rspamd", "spamd", "spamc"].every(has)) return;
  execFileSync("bash", [path.join(ROOT, "scripts/spam-filters.sh"), "install"], { stdio: "inherit" });
}

function rspamdConfig(dir: string, normal: number, controller: number): string {
  const conf = path.join(dir, "conf");
  for (const d of ["conf/local.d", "conf/override.d", "run", "db", "log"]) mkdirSync(path.join(dir, d), { recursive: true });
  mkdirSync(HS_CACHE, { recursive: true });
  const w = (f: string, text: string) => writeFileSync(path.join(conf, f), text);
  w("override.d/worker-normal.inc", `bind_socket = "127.0.0.1:${normal}";\ncount = 1;\n`);
  w("override.d/worker-controller.inc", `bind_socket = "127.0.0.1:${controller}";\ncount = 1;\nsecure_ip = "127.0.0.1";\n`);
  w("override.d/worker-proxy.inc", "enabled = false;\n");
  w("local.d/logging.inc", `type = "file";\nfilename = "${path.join(dir, "log/rspamd.log")}";\nlevel = "warning";\n`);
  w("local.d/options.inc", `dns { timeout = 1s; retransmits = 1; }\nhs_cache_dir = "${HS_CACHE}/";\n`);
  for (const m of NETWORK_MODULES) w(`local.d/${m}.conf`, "enabled = false;\n");
  return conf;
}

async function waitFor(what: string, ready: () => Promise<boolean>, child: ChildProcess, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    if (await ready().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what} did not start within ${timeoutMs / 1000} s`);
}

function stop(child: ChildProcess | null): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill("SIGKILL"), 5_000);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** Runs spamc on one message and reads the `-R` report: the total, then one line per rule ("pts rule description"). */
function spamc(port: number, raw: string): Promise<FilterVerdict> {
  return new Promise((resolve, reject) => {
    const p = spawn("spamc", ["-d", "127.0.0.1", "-p", String(port), "-R", "-x", "-s", "10000000"]);
    let out = "";
    p.stdout.on("data", (c: Buffer) => {
      out += c.toString("utf8");
    });
    p.on("error", reject);
    p.on("close", () => {
      const total = /^(-?\d+(?:\.\d+)?)\/\d/.exec(out);
      if (!total) return reject(new Error(`spamc: no report in ${JSON.stringify(out.slice(0, 300))}`));
      const table = out.slice(out.indexOf("---- ---"));
      const rules = [...table.matchAll(/^\s*(-?\d+(?:\.\d+)?)\s+([A-Z0-9_]+)\s/gm)].map((m) => ({ name: m[2], score: Number(m[1]) }));
      resolve({ score: Number(total[1]), rules });
    });
    p.stdin.end(raw);
  });
}

/** The connection a message came in on, as rspamd's HTTP headers take it. */
export interface Envelope {
  ip?: string;
  helo?: string;
  from?: string;
  rcpt?: string;
}

export interface SpamFilters {
  /** The normal worker's base URL (POST /checkv2). */
  rspamdUrl: string;
  /** `envelope`: what an MTA would tell rspamd about the connection (the sender's IP, HELO, MAIL FROM, RCPT TO). */
  rspamd(raw: string, envelope?: Envelope): Promise<FilterVerdict>;
  spamassassin(raw: string): Promise<FilterVerdict>;
  close(): Promise<void>;
}

/** Starts rspamd and spamd (a minute or two the first time, while rspamd compiles its rules); `spamassassin: false` leaves spamd out. */
export async function startSpamFilters(opts: { spamassassin?: boolean } = {}): Promise<SpamFilters> {
  ensureSpamFilters();
  const dir = mkdtempSync(path.join(tmpdir(), "outreach-spam-filters-"));
  const [normal, controller, saPort] = [await freePort(), await freePort(), await freePort()];
  const conf = rspamdConfig(dir, normal, controller);
  const root = process.getuid?.() === 0;
  const vars = { LOCAL_CONFDIR: conf, RUNDIR: path.join(dir, "run"), DBDIR: path.join(dir, "db"), LOGDIR: path.join(dir, "log") };
  const rspamd = spawn(
    "rspamd",
    ["-f", ...(root ? ["-i"] : []), "-c", "/etc/rspamd/rspamd.conf", ...Object.entries(vars).map(([k, v]) => `--var=${k}=${v}`)],
    { stdio: "ignore" },
  );
  mkdirSync(path.join(dir, "sa"), { recursive: true });
  const spamd =
    opts.spamassassin === false
      ? null
      : spawn(
          "spamd",
          [
            "--local",
            "--nouser-config",
            `--listen=127.0.0.1:${saPort}`,
            "--allowed-ips=127.0.0.1",
            "--min-children=1",
            "--max-children=2",
            "--syslog=stderr",
            `--helper-home-dir=${path.join(dir, "sa")}`,
            `--pidfile=${path.join(dir, "sa/spamd.pid")}`,
            ...(root ? ["--username=nobody"] : []),
          ],
          { stdio: "ignore" },
        );
  const rspamdUrl = `http://127.0.0.1:${normal}`;
  const close = async () => {
    await Promise.all([stop(rspamd), stop(spamd)]);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const ping = async (url: string) => (await fetch(url, { signal: AbortSignal.timeout(2_000) })).ok;
    await waitFor("rspamd", async () => (await ping(`${rspamdUrl}/ping`)) && ping(`http://127.0.0.1:${controller}/ping`), rspamd, 300_000);
    if (spamd) await waitFor("spamd", () => spamc(saPort, "Subject: ping\r\n\r\nping\r\n").then(() => true), spamd, 120_000);
  } catch (e) {
    await close();
    throw e;
  }
  return {
    rspamdUrl,
    async rspamd(raw, envelope = {}) {
      const headers: Record<string, string> = {};
      if (envelope.ip) headers.IP = envelope.ip;
      if (envelope.helo) headers.Helo = envelope.helo;
      if (envelope.from) headers.From = envelope.from;
      if (envelope.rcpt) headers.Rcpt = envelope.rcpt;
      const res = await fetch(`${rspamdUrl}/checkv2`, { method: "POST", headers, body: raw, signal: AbortSignal.timeout(30_000) });
      if (!res.ok) throw new Error(`rspamd answered ${res.status}`);
      const json = (await res.json()) as { score: number; symbols: Record<string, { name: string; score: number }> };
      return { score: json.score, rules: Object.values(json.symbols).map((s) => ({ name: s.name, score: s.score })) };
    },
    spamassassin: (raw) => spamc(saPort, raw),
    close,
  };
}
