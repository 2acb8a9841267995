import { randomBytes } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { migrationsFolder, runMigrations } from "../../db/client";
import { readMigrations } from "../../db/migrate";
import { cliEnv, dataDir } from "../env";
import { StartupError } from "../startup-error";
import { type DbTarget, openTarget, runTool, toolConnection, toolError } from "./db-target";
import { findPgTool, type PgTool } from "./pg-tools";
import { createProgress, formatElapsed, startTicking } from "./progress";
import { mismatchAdvice, type SecretVerdict, secretSourceLabel, verifySecret } from "./secret-check";

/** What `pg_restore --list` tells of an archive before anything is written. */
export interface ArchiveInfo {
  tables: number;
  schemas: string[];
  dumpedFrom?: string;
  dumpedBy?: string;
}

export function parseArchiveList(text: string): ArchiveInfo {
  const lines = text.split("\n");
  const tables = lines.filter((l) => /^\d+; \d+ \d+ TABLE DATA /.test(l)).length;
  const schemas = lines.map((l) => /^\d+; \d+ \d+ SCHEMA - (\S+) /.exec(l)?.[1]).filter((s): s is string => Boolean(s));
  const dumpedFrom = /^;\s+Dumped from database version: (\S+)/m.exec(text)?.[1];
  const dumpedBy = /^;\s+Dumped by pg_dump version: (\S+)/m.exec(text)?.[1];
  return { tables, schemas, dumpedFrom, dumpedBy };
}

/** `pg_restore --verbose` names each table as it starts loading its rows. */
export function restoredTable(line: string): string | undefined {
  return /processing data for table "([^"]+)"/.exec(line)?.[1];
}

/** Bookkeeping a fresh instance writes before anyone uses it: not "data" when deciding whether a database is empty. */
const BOOKKEEPING = new Set(["drizzle.__drizzle_migrations", "public.app_settings", "public.job_runs", "public.rate_limit_counters"]);

/** Named first when a database is refused as not empty: what a person recognises as their data. */
const FIRST = ["workspaces", "users", "leads", "campaigns", "mailboxes"];

/** The tables of the database that hold rows (bookkeeping aside), the ones in FIRST first. */
export async function tablesWithRows(url: string): Promise<string[]> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const tables = await sql<{ schema: string; name: string }[]>`
      select s.nspname as schema, c.relname as name from pg_class c join pg_namespace s on s.oid = c.relnamespace
      where c.relkind in ('r', 'p') and s.nspname not in ('pg_catalog', 'information_schema') and s.nspname not like 'pg\\_%'
      order by c.relname`;
    const out: string[] = [];
    for (const t of tables) {
      const full = `${t.schema}.${t.name}`;
      if (BOOKKEEPING.has(full)) continue;
      const [{ any }] = await sql<{ any: boolean }[]>`select exists (select 1 from ${sql(t.schema)}.${sql(t.name)}) as any`;
      if (any) out.push(t.schema === "public" ? t.name : full);
    }
    const rank = (n: string) => (FIRST.includes(n) ? FIRST.indexOf(n) : FIRST.length);
    return out.sort((a, b) => rank(a) - rank(b));
  } finally {
    await sql.end({ timeout: 5 });
  }
}

async function otherSessions(url: string): Promise<number> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [{ n }] = await sql<{ n: number }[]>`
      select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`;
    return n;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

async function readArchive(tool: PgTool, file: string): Promise<ArchiveInfo> {
  const { execFile } = await import("node:child_process");
  return new Promise((resolve, reject) => {
    execFile(
      tool.path,
      ["--list", file],
      { maxBuffer: 64 * 1024 * 1024, env: cliEnv.forTool({ LC_MESSAGES: "C" }) },
      (err, stdout, stderr) => {
        if (err) {
          const why = toolError(stderr.split("\n"));
          const hint = /unsupported version/i.test(why) ? ` — it was made by a newer pg_dump than ${tool.name} ${tool.version}` : "";
          reject(new StartupError(`${file} is not a backup ${tool.name} can read: ${why}${hint}`));
        } else resolve(parseArchiveList(stdout));
      },
    );
  });
}

/**
 * The schemas the restore replaces (public, drizzle's, and any the archive makes) are renamed aside in
 * one transaction and an empty public made (their extensions moved into it); when pg_restore fails they are put back, so the database is
 * either the backup or what it was.
 */
async function setAside(url: string, schemas: string[]): Promise<{ undo(): Promise<void>; drop(): Promise<void> }> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const tag = randomBytes(4).toString("hex");
  const moved: { name: string; aside: string }[] = [];
  const extensions: { ext: string; aside: string }[] = [];
  try {
    await sql.begin(async (tx) => {
      const present = await tx<{ name: string }[]>`select nspname as name from pg_namespace where nspname = any(${schemas})`;
      for (const { name } of present) {
        const aside = `outreach_restore_${tag}_${name}`.slice(0, 63);
        await tx.unsafe(`alter schema "${name}" rename to "${aside}"`);
        moved.push({ name, aside });
      }
      await tx.unsafe(`create schema "public"`);
      // An extension (pg_trgm for lead search) goes with its schema; the archive's CREATE EXTENSION IF NOT
      // EXISTS would then skip it and its objects would be missing from the new schema, so it moves back in.
      const exts = await tx<{ ext: string; name: string }[]>`select e.extname as ext, n.nspname as name
        from pg_extension e join pg_namespace n on n.oid = e.extnamespace where n.nspname = any(${moved.map((m) => m.aside)})`;
      for (const e of exts) {
        const m = moved.find((x) => x.aside === e.name)!;
        await tx.unsafe(`create schema if not exists "${m.name}"`);
        await tx.unsafe(`alter extension "${e.ext}" set schema "${m.name}"`);
        extensions.push({ ext: e.ext, aside: m.aside });
      }
      // As initdb makes it (owned by the database's owner, usable by all), where this role may say so.
      await tx
        .savepoint((sp) => sp.unsafe(`alter schema "public" owner to pg_database_owner; grant usage on schema "public" to public`))
        .catch(() => {});
    });
  } finally {
    await sql.end({ timeout: 5 });
  }
  const inTx = async (fn: (tx: postgres.TransactionSql) => Promise<void>) => {
    const c = postgres(url, { max: 1, onnotice: () => {} });
    try {
      await c.begin(fn);
    } finally {
      await c.end({ timeout: 5 });
    }
  };
  return {
    undo: () =>
      inTx(async (tx) => {
        // The moved extensions back first: dropping the new schemas would take them, and the old indexes built on them.
        for (const e of extensions) await tx.unsafe(`alter extension "${e.ext}" set schema "${e.aside}"`);
        for (const s of schemas) await tx.unsafe(`drop schema if exists "${s}" cascade`);
        for (const m of moved) await tx.unsafe(`alter schema "${m.aside}" rename to "${m.name}"`);
      }),
    drop: () =>
      inTx(async (tx) => {
        for (const m of moved) await tx.unsafe(`drop schema "${m.aside}" cascade`);
      }),
  };
}

/** The newest migration the restored database records, against this checkout's newest. */
async function migrationGap(url: string): Promise<"newer" | "same-or-older"> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [{ has }] = await sql<{ has: boolean }[]>`select to_regclass('drizzle.__drizzle_migrations') is not null as has`;
    if (!has) return "same-or-older";
    const [{ last }] = await sql<{ last: string | null }[]>`select max(created_at)::text as last from drizzle.__drizzle_migrations`;
    const newest = readMigrations(migrationsFolder()).at(-1)?.when ?? 0;
    return last !== null && Number(last) > newest ? "newer" : "same-or-older";
  } finally {
    await sql.end({ timeout: 5 });
  }
}

export interface RestoreResult {
  file: string;
  database: string;
  tables: number;
  seconds: number;
  migrationsApplied: string[];
  /** The backup comes from a newer version of Outreach than this checkout. */
  newerThanCheckout: boolean;
  secret: SecretVerdict;
}

export interface RestoreOptions {
  file: string;
  /** Replace a database that holds data. */
  yes: boolean;
  tty: boolean;
  columns?: number;
  write: (text: string) => void;
}

function refuseNonEmpty(target: DbTarget, tables: string[]): never {
  const list = tables.length > 4 ? `${tables.slice(0, 4).join(", ")} and ${tables.length - 4} more tables` : tables.join(", ");
  throw new StartupError(
    `the database ${target.label} is not empty (rows in ${list}): a restore replaces everything in it — run again with --yes to replace it, or restore into an empty database`,
  );
}

/**
 * `outreach restore FILE [--yes]`: replaces the instance's database with a backup. Refuses a database
 * holding data without --yes, and any database another process is connected to (Outreach running).
 * Applies the migrations a backup from an older version lacks, then tells whether this instance's
 * secret opens the restored credentials.
 */
export async function runRestore(opts: RestoreOptions): Promise<RestoreResult> {
  const file = path.resolve(cliEnv.invokedFrom, opts.file);
  if (!existsSync(file) || !statSync(file).isFile()) throw new StartupError(`no backup file at ${file}`);
  const target = await openTarget();
  if (target.server && !target.server.owned)
    throw new StartupError(
      "Outreach is running on this data folder (its PostgreSQL is up) — stop it (the web server and the worker) and run restore again",
    );
  const tool = await findPgTool("pg_restore", target.major);
  const archive = await readArchive(tool, file);
  const rows = await tablesWithRows(target.url);
  if (rows.length > 0 && !opts.yes) refuseNonEmpty(target, rows);
  const others = await otherSessions(target.url);
  if (others > 0)
    throw new StartupError(
      `${others} other connection${others === 1 ? "" : "s"} to ${target.label} — stop Outreach (the web servers and workers) before restoring`,
    );
  const progress = createProgress(`[outreach] Restoring ${path.basename(file)} into ${target.label}:`, {
    tty: opts.tty,
    write: opts.write,
  });
  let phase = "creating tables";
  let done = 0;
  progress.status(() => (phase === "data" ? `${done} of ${archive.tables} tables` : phase));
  const stop = startTicking(progress, opts.tty);
  const aside = await setAside(target.url, [...new Set(["public", "drizzle", ...archive.schemas])]).catch((e) => {
    stop();
    progress.finish();
    throw new StartupError(
      `cannot replace the schemas of ${target.label}: ${(e as Error).message} — restore as the database's owner; nothing was changed`,
    );
  });
  const { dbname, env } = toolConnection(target.url);
  const args = ["--verbose", "--single-transaction", "--exit-on-error", "--no-owner", "--no-acl", `--dbname=${dbname}`, file];
  const r = await runTool(tool.path, args, env, (line) => {
    if (restoredTable(line)) {
      phase = "data";
      done = Math.min(archive.tables, done + 1);
    } else if (/creating (INDEX|CONSTRAINT|FK CONSTRAINT|TRIGGER)/.test(line)) phase = "indexes and constraints";
    else if (/warning|error|fatal/i.test(line)) progress.print(`  ${line}`);
    progress.refresh();
  });
  stop();
  if (r.code !== 0) {
    await aside.undo();
    progress.finish();
    throw new StartupError(`pg_restore failed: ${toolError(r.lines)} — the database is as it was before`);
  }
  await aside.drop();
  const made = `made by pg_dump ${archive.dumpedBy ?? "?"} from PostgreSQL ${archive.dumpedFrom ?? "?"}`;
  progress.finish(
    `[outreach] restored ${file} into ${target.label} (${done} of ${archive.tables} tables, ${formatElapsed(progress.elapsedMs())}; ${made})`,
  );
  const newer = (await migrationGap(target.url)) === "newer";
  const applied = newer ? [] : await runMigrations(target.url);
  if (applied.length) opts.write(`[outreach] migrations applied (the backup is from an older version): ${applied.join(", ")}\n`);
  if (newer)
    opts.write("[outreach] the backup comes from a newer version of Outreach than this checkout — update it (git pull) before starting\n");
  const secret = await verifySecret(target.url);
  if (secret.status === "mismatch")
    opts.write(`[outreach] ${mismatchAdvice(secretSourceLabel(cliEnv.secretFromEnv, dataDir()), path.join(dataDir(), "secret"))}\n`);
  else if (secret.status === "ok") opts.write("[outreach] this instance's secret opens the restored credentials\n");
  return {
    file,
    database: target.label,
    tables: done,
    seconds: progress.elapsedMs() / 1000,
    migrationsApplied: applied,
    newerThanCheckout: newer,
    secret,
  };
}
