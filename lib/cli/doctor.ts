import { existsSync, statSync } from "node:fs";
import { connect } from "node:net";
import path from "node:path";
import { checkDatabase } from "../../db/diagnose";
import { migrationsFolder, resolveDatabaseUrl } from "../../db/client";
import { migrationStatus } from "../../db/migrate";
import { ensureDataDir } from "../data-dir";
import { appUrl, dataDir } from "../env";
import { resolveMx } from "../net/dns";
import { StartupError } from "../startup-error";
import { type Check, type CheckStatus, dataChecks } from "./doctor-data";
import { nodeVersionProblem } from "./node-version.mjs";
import { cliEnv, configuredAppUrl, dbEnv, outboundEnv } from "../env";

export interface DoctorOptions {
  json?: boolean;
  /** Host whose SMTP ports are tried (default smtp.gmail.com, which listens on all three). */
  smtpHost?: string;
  smtpPorts?: number[];
  /** Name whose MX records are looked up through DNS_SERVERS (default gmail.com). */
  dnsName?: string;
  /** Per network check (ms). */
  timeoutMs?: number;
  /** Where the lines go (default stdout). */
  write?: (text: string) => void;
}

const message = (e: unknown) => (e instanceof StartupError ? e.message : ((e as Error)?.message ?? String(e)).split("\n")[0]);

function nodeCheck(): Check {
  const problem = nodeVersionProblem(process.versions.node);
  return problem
    ? { name: "Node.js", status: "fail", detail: problem }
    : { name: "Node.js", status: "ok", detail: `${process.versions.node} (20 or newer needed)` };
}

function dataCheck(): Check[] {
  let dir: string;
  try {
    dir = ensureDataDir();
  } catch (e) {
    return [{ name: "data folder", status: "fail", detail: message(e) }];
  }
  const checks: Check[] = [{ name: "data folder", status: "ok", detail: `${dir} (writable)` }];
  const file = path.join(dir, "secret");
  if (cliEnv.secretFromEnv) checks.push({ name: "secret", status: "ok", detail: "from OUTREACH_SECRET" });
  else if (!existsSync(file)) checks.push({ name: "secret", status: "ok", detail: `none yet: generated into ${file} on first start` });
  else if ((statSync(file).mode & 0o077) !== 0) {
    checks.push({ name: "secret", status: "warn", detail: `${file} can be read by other users — chmod 600 ${file}` });
  } else checks.push({ name: "secret", status: "ok", detail: `${file} (mode 600)` });
  return checks;
}

async function databaseCheck(): Promise<Check[]> {
  const external = Boolean(dbEnv.url);
  try {
    const url = await resolveDatabaseUrl();
    const info = await checkDatabase(url, { variable: external ? "DATABASE_URL" : "the embedded PostgreSQL" });
    const source = external ? `DATABASE_URL → ${info.where}/${info.database}` : `embedded, 127.0.0.1:${new URL(url).port}`;
    const checks: Check[] = [{ name: "database", status: "ok", detail: `PostgreSQL ${info.version} (${source})` }];
    const m = await migrationStatus(url, migrationsFolder());
    checks.push(
      m.pending.length === 0
        ? { name: "migrations", status: "ok", detail: `all ${m.applied} applied` }
        : {
            name: "migrations",
            status: "warn",
            detail: `${m.pending.length} pending (${m.pending.join(", ")}) — \`outreach migrate\` or the next start applies them`,
          },
    );
    // Where the data is, whether it can be backed up, whether the secret opens its credentials.
    checks.push(...(await dataChecks(url, external, info.major)));
    return checks;
  } catch (e) {
    return [{ name: "database", status: "fail", detail: message(e) }];
  }
}

async function appUrlCheck(timeoutMs: number): Promise<Check> {
  const base = appUrl();
  const set = configuredAppUrl() ? "APP_URL" : "APP_URL unset, default";
  try {
    const res = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(timeoutMs), redirect: "manual" });
    const body = (await res.json().catch(() => null)) as { ok?: boolean } | null;
    if (res.ok && body?.ok) return { name: "APP_URL", status: "ok", detail: `${base} answers (${set})` };
    return {
      name: "APP_URL",
      status: "warn",
      detail: `${base}/api/health answered ${res.status} without ok — is it this Outreach instance? (${set})`,
    };
  } catch (e) {
    const why = (e as Error).name === "TimeoutError" ? "no answer" : ((e as { cause?: { code?: string } }).cause?.code ?? message(e));
    return {
      name: "APP_URL",
      status: "warn",
      detail: `${base} cannot be reached from this machine (${why}) — start the server, or set APP_URL to the address people reach it at: tracking and unsubscribe links use it`,
    };
  }
}

async function dnsCheck(name: string): Promise<Check> {
  const servers = outboundEnv.dnsServers ? `DNS_SERVERS=${outboundEnv.dnsServers}` : "the system resolver";
  const r = await resolveMx(name);
  if (r.ok && r.records.length)
    return { name: "DNS", status: "ok", detail: `MX of ${name} resolves through ${servers} (${r.records[0].exchange})` };
  const why = r.ok ? "no MX records" : r.error;
  return {
    name: "DNS",
    status: "fail",
    detail: `MX of ${name} does not resolve through ${servers} (${why}) — domain checks and lead classes need DNS: set DNS_SERVERS`,
  };
}

/** One TCP connection: open (with the server's greeting when it sends one), or why not. */
function probePort(host: string, port: number, timeoutMs: number): Promise<{ open: boolean; note: string }> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    let connected = false;
    const finish = (r: { open: boolean; note: string }) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(r);
    };
    const timer = setTimeout(
      () => finish(connected ? { open: true, note: "no greeting (TLS port)" } : { open: false, note: "timed out" }),
      timeoutMs,
    );
    socket.once("connect", () => (connected = true));
    socket.once("data", (d) => {
      const line = d.toString("utf8").split("\r\n")[0].slice(0, 60);
      finish(line.startsWith("220") ? { open: true, note: "greeting 220" } : { open: true, note: `unexpected greeting "${line}"` });
    });
    const why = (e: NodeJS.ErrnoException) =>
      e.code === "ECONNREFUSED"
        ? "refused"
        : e.code === "ENOTFOUND" || e.code === "EAI_AGAIN"
          ? "host name does not resolve"
          : (e.code ?? e.message);
    socket.once("error", (e: NodeJS.ErrnoException) => finish({ open: false, note: why(e) }));
  });
}

async function smtpCheck(host: string, ports: number[], timeoutMs: number): Promise<Check> {
  const results = await Promise.all(ports.map(async (port) => ({ port, ...(await probePort(host, port, timeoutMs)) })));
  const open = results.filter((r) => r.open).map((r) => r.port);
  const blocked = results.filter((r) => !r.open);
  const parts = results.map((r) => `${r.port} ${r.open ? "open" : "blocked"} (${r.note})`).join(", ");
  if (blocked.length === 0) return { name: "outbound SMTP", status: "ok", detail: `${host}: ${parts}` };
  if (open.length === 0) {
    return {
      name: "outbound SMTP",
      status: "fail",
      detail: `${host}: ${parts} — this machine cannot send mail: ask the host to open 587 or 465, or relay through another server`,
    };
  }
  return { name: "outbound SMTP", status: "warn", detail: `${host}: ${parts} — connect mailboxes on port ${open.join(" or ")}` };
}

/** Runs every check; the exit code is 1 when any check is a blocker (fail). */
export async function runDoctor(opts: DoctorOptions = {}): Promise<number> {
  const timeoutMs = opts.timeoutMs ?? 5000;
  const write = opts.write ?? ((t: string) => process.stdout.write(t));
  const checks: Check[] = [nodeCheck(), ...dataCheck()];
  checks.push(...(await databaseCheck()));
  const [app, dns, smtp] = await Promise.all([
    appUrlCheck(timeoutMs),
    dnsCheck(opts.dnsName ?? "gmail.com"),
    smtpCheck(opts.smtpHost ?? "smtp.gmail.com", opts.smtpPorts ?? [25, 587, 465], timeoutMs),
  ]);
  checks.push(app, dns, smtp);
  const fails = checks.filter((c) => c.status === "fail").length;
  const warns = checks.filter((c) => c.status === "warn").length;
  if (opts.json) {
    write(JSON.stringify({ ok: fails === 0, dataDir: dataDir(), checks }) + "\n");
  } else {
    const label: Record<CheckStatus, string> = { ok: "ok  ", warn: "warn", fail: "FAIL" };
    const lines = checks.map((c) => `  ${label[c.status]}  ${c.name.padEnd(14)} ${c.detail}`);
    write(
      ["outreach doctor", ...lines, `${fails} blocker${fails === 1 ? "" : "s"}, ${warns} warning${warns === 1 ? "" : "s"}`, ""].join("\n"),
    );
  }
  return fails > 0 ? 1 : 0;
}
