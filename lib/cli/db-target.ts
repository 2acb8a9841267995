import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { embeddedServer, resolveDatabaseUrl } from "../../db/client";
import { checkDatabase, describeUrl } from "../../db/diagnose";
import type { EmbeddedServer } from "../../db/embedded";
import { ensureDataDir } from "../data-dir";
import { cliEnv } from "../env";

/** The database a backup is read from or a restore written to. */
export interface DbTarget {
  url: string;
  /** DATABASE_URL was set; otherwise the embedded server of the data folder. */
  external: boolean;
  /** host:port/database, never the password. */
  label: string;
  version: string;
  major: number;
  /** The embedded server, started by this process (owned) or joined while another process runs it. */
  server?: EmbeddedServer;
}

/**
 * DATABASE_URL's database, or the embedded server of the data folder — joined when Outreach is running,
 * started the way `outreach start` starts it otherwise (and stopped when the command ends). Migrations
 * are not applied: a backup changes nothing, and a restore replaces them.
 */
export async function openTarget(): Promise<DbTarget> {
  const external = Boolean(cliEnv.databaseUrl);
  if (!external) ensureDataDir();
  const url = await resolveDatabaseUrl();
  const info = await checkDatabase(url, { variable: external ? "DATABASE_URL" : "the embedded PostgreSQL" });
  return {
    url,
    external,
    label: `${info.where}/${info.database}`,
    version: info.version,
    major: info.major,
    server: external ? undefined : await embeddedServer(),
  };
}

/**
 * The URL for a client tool without its password (which goes in PGPASSWORD, so it never shows in a
 * process list), and the environment to run the tool with.
 */
export function toolConnection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  describeUrl(url); // throws the one-line error for a malformed URL
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = "";
  return {
    dbname: u.toString(),
    env: cliEnv.forTool({ ...(password ? { PGPASSWORD: password } : {}), LC_MESSAGES: "C", PGAPPNAME: "outreach" }),
  };
}

export interface ToolRun {
  code: number;
  /** Its stderr, every line (pg_dump and pg_restore say everything there). */
  lines: string[];
}

/** Runs a client tool, handing each line of its stderr to `onLine` as it comes. */
export function runTool(file: string, args: string[], env: NodeJS.ProcessEnv, onLine: (line: string) => void): Promise<ToolRun> {
  const child = spawn(file, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  const lines: string[] = [];
  const rl = createInterface({ input: child.stderr });
  rl.on("line", (l) => {
    lines.push(l);
    onLine(l);
  });
  child.stdout.resume();
  const closed = new Promise<void>((r) => rl.on("close", () => r()));
  return new Promise((resolve) => {
    child.on("error", (e) => {
      lines.push(e.message);
      resolve({ code: 1, lines });
    });
    child.on("close", (code) => void closed.then(() => resolve({ code: code ?? 1, lines })));
  });
}

/** The line that says why a tool failed (its error lines first), without the tool's name in front. */
export function toolError(lines: string[]): string {
  const hit = lines.find((l) => /error|fatal/i.test(l)) ?? lines.filter((l) => l.trim()).at(-1) ?? "no output";
  return hit.replace(/^pg_(dump|restore):\s*(error:\s*)?/, "").trim();
}
