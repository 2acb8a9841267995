import postgres from "postgres";
import { StartupError } from "../lib/startup-error";

/** The oldest PostgreSQL major version the migrations and queries are written for. */
export const MIN_PG_MAJOR = 14;

export interface DatabaseInfo {
  /** host:port, never with the password. */
  where: string;
  database: string;
  version: string;
  major: number;
}

/** The URL's parts a message may name: host, port, user, database — the password never. */
export function describeUrl(url: string, variable = "DATABASE_URL"): { where: string; user: string; database: string } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new StartupError(`${variable} is not a valid URL — expected postgres://USER:PASSWORD@HOST:5432/DATABASE`);
  }
  if (u.protocol !== "postgres:" && u.protocol !== "postgresql:") {
    throw new StartupError(
      `${variable} must start with postgres:// or postgresql:// (it starts with ${u.protocol}//) — expected postgres://USER:PASSWORD@HOST:5432/DATABASE`,
    );
  }
  if (!u.hostname) throw new StartupError(`${variable} has no host — expected postgres://USER:PASSWORD@HOST:5432/DATABASE`);
  const database = decodeURIComponent(u.pathname.replace(/^\//, "")) || decodeURIComponent(u.username) || "postgres";
  return { where: `${u.hostname}:${u.port || "5432"}`, user: decodeURIComponent(u.username) || "(none)", database };
}

function explain(err: unknown, url: string, variable: string): StartupError {
  const { where, user, database } = describeUrl(url, variable);
  const e = err as { code?: string; message?: string };
  const code = e?.code ?? "";
  const at = `the database in ${variable} (${where})`;
  switch (code) {
    case "ECONNREFUSED":
      return new StartupError(`cannot reach ${at}: connection refused — is PostgreSQL running and listening there?`);
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return new StartupError(`cannot reach ${at}: the host name does not resolve — check the host in ${variable}`);
    case "CONNECT_TIMEOUT":
    case "ETIMEDOUT":
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return new StartupError(`cannot reach ${at}: no answer (${code}) — check the host, the port and any firewall`);
    case "28P01":
      return new StartupError(
        `PostgreSQL at ${where} refused the password for user "${user}" — check the user and password in ${variable}`,
      );
    case "28000":
      return new StartupError(
        `PostgreSQL at ${where} refused user "${user}" (${e.message}) — check ${variable} and the server's pg_hba.conf`,
      );
    case "3D000":
      return new StartupError(`database "${database}" does not exist at ${where} — create it (createdb ${database}) or fix ${variable}`);
    default:
      return new StartupError(`${at} failed: ${(e?.message ?? String(err)).split("\n")[0]}${code ? ` (${code})` : ""}`);
  }
}

/**
 * Connects once and reads the server's version: every way this goes wrong becomes one line that names
 * the variable and the host (never the password) and says what to do.
 */
export async function checkDatabase(url: string, opts: { variable?: string; minMajor?: number } = {}): Promise<DatabaseInfo> {
  const variable = opts.variable ?? "DATABASE_URL";
  const { where, database } = describeUrl(url, variable);
  const sql = postgres(url, { max: 1, connect_timeout: 10, onnotice: () => {} });
  let num: number;
  let version: string;
  try {
    const [row] = await sql<
      { num: string; version: string }[]
    >`select current_setting('server_version_num') as num, current_setting('server_version') as version`;
    num = Number(row.num);
    version = row.version.split(" ")[0];
  } catch (e) {
    throw explain(e, url, variable);
  } finally {
    await sql.end({ timeout: 2 }).catch(() => {});
  }
  const major = Math.floor(num / 10000);
  const min = opts.minMajor ?? MIN_PG_MAJOR;
  if (major < min) {
    throw new StartupError(
      `PostgreSQL ${version} at ${where} (${variable}) is older than ${min}, the oldest Outreach supports — upgrade it, or unset ${variable} to use the embedded server`,
    );
  }
  return { where, database, version, major };
}
