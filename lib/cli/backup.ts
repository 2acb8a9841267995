import { closeSync, existsSync, openSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { cliEnv } from "../env";
import { StartupError } from "../startup-error";
import { openTarget, runTool, toolConnection, toolError } from "./db-target";
import { findPgTool } from "./pg-tools";
import { createProgress, formatBytes, formatElapsed, startTicking } from "./progress";

/** 2026-12-02 06:30:05 UTC → outreach-20261202T063005Z.dump */
export function defaultBackupName(at: Date): string {
  return `outreach-${at
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z")}.dump`;
}

/** `pg_dump --verbose` names each table as it starts copying its rows. */
export function dumpedTable(line: string): string | undefined {
  return /dumping contents of table "([^"]+)"/.exec(line)?.[1];
}

/** Tables with rows to copy (pg_dump's "dumping contents" lines count these). */
async function countTables(url: string): Promise<number> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [{ n }] = await sql<{ n: number }[]>`
      select count(*)::int as n from pg_class c join pg_namespace s on s.oid = c.relnamespace
      where c.relkind = 'r' and s.nspname not in ('pg_catalog', 'information_schema') and s.nspname not like 'pg\\_%'`;
    return n;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

export interface BackupResult {
  file: string;
  bytes: number;
  tables: number;
  seconds: number;
  pgDump: string;
  database: string;
}

export interface BackupOptions {
  /** Where to write; relative to the folder the command was run from. Default outreach-<UTC stamp>.dump there. */
  out?: string;
  now: Date;
  tty: boolean;
  columns?: number;
  write: (text: string) => void;
}

/**
 * `outreach backup`: a custom-format pg_dump of the instance's database (the embedded server, started
 * or joined, or DATABASE_URL), with a progress line ("12 of 64 tables, 3.1 MB"). The file is written
 * under a temporary name and renamed when complete, readable by its owner alone (it holds password
 * hashes and the sealed credentials); an existing file is never written over.
 */
export async function runBackup(opts: BackupOptions): Promise<BackupResult> {
  const file = path.resolve(cliEnv.invokedFrom, opts.out ?? defaultBackupName(opts.now));
  if (existsSync(file)) throw new StartupError(`${file} exists — choose another --out (a backup never writes over a file)`);
  if (!existsSync(path.dirname(file)))
    throw new StartupError(`no folder ${path.dirname(file)} for the backup — create it or choose another --out`);
  const target = await openTarget();
  const tool = await findPgTool("pg_dump", target.major);
  const total = await countTables(target.url);
  const partial = `${file}.partial-${process.pid}`;
  try {
    closeSync(openSync(partial, "wx", 0o600));
  } catch (e) {
    throw new StartupError(`cannot write ${partial} (${(e as NodeJS.ErrnoException).code}) — choose another --out`);
  }
  const progress = createProgress(`[outreach] Backing up ${target.label} to ${path.basename(file)}:`, {
    tty: opts.tty,
    write: opts.write,
    columns: opts.columns,
  });
  let done = 0;
  const size = () => (existsSync(partial) ? statSync(partial).size : 0);
  progress.status(() => `${done} of ${total} tables, ${formatBytes(size())} written`);
  const stop = startTicking(progress, opts.tty);
  const { dbname, env } = toolConnection(target.url);
  const args = ["--format=custom", "--verbose", `--file=${partial}`, `--dbname=${dbname}`];
  const r = await runTool(tool.path, args, env, (line) => {
    if (dumpedTable(line)) {
      done = Math.min(total, done + 1);
      progress.refresh();
    } else if (/warning|error|fatal/i.test(line)) progress.print(`  ${line}`);
  });
  stop();
  if (r.code !== 0) {
    rmSync(partial, { force: true });
    progress.finish();
    throw new StartupError(`pg_dump failed: ${toolError(r.lines)} — no backup was written`);
  }
  renameSync(partial, file);
  const bytes = statSync(file).size;
  const seconds = progress.elapsedMs() / 1000;
  progress.finish(
    `[outreach] backup written: ${file} (${formatBytes(bytes)}, ${done} of ${total} tables, ${formatElapsed(progress.elapsedMs())}; ${tool.name} ${tool.version})`,
  );
  return { file, bytes, tables: done, seconds, pgDump: `${tool.path} ${tool.version}`, database: target.label };
}
