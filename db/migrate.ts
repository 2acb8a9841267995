import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { StartupError } from "../lib/startup-error";

/** One committed drizzle-kit migration. */
export interface Migration {
  tag: string;
  /** The journal's `when`: drizzle's order key, stored as created_at. */
  when: number;
  hash: string;
  statements: string[];
}

/** Reads db/migrations the way drizzle-orm's migrator does (same hash, same order key). */
export function readMigrations(folder: string): Migration[] {
  const journal = path.join(folder, "meta", "_journal.json");
  if (!existsSync(journal)) throw new StartupError(`no migrations journal at ${journal} — is this a complete checkout?`);
  const entries = (JSON.parse(readFileSync(journal, "utf8")) as { entries: { tag: string; when: number }[] }).entries;
  return entries.map((e) => {
    const text = readFileSync(path.join(folder, `${e.tag}.sql`), "utf8");
    return {
      tag: e.tag,
      when: e.when,
      hash: createHash("sha256").update(text).digest("hex"),
      statements: text.split("--> statement-breakpoint"),
    };
  });
}

type Sql = postgres.Sql;

async function lastApplied(sql: Sql): Promise<number | undefined> {
  await sql`create schema if not exists drizzle`;
  await sql`create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)`;
  const [row] = await sql<{ created_at: string }[]>`select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`;
  return row ? Number(row.created_at) : undefined;
}

/** Which migrations the database has and which it still needs (for `outreach doctor`). */
export async function migrationStatus(url: string, folder: string): Promise<{ applied: number; pending: string[] }> {
  const all = readMigrations(folder);
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [{ exists }] = await sql<{ exists: boolean }[]>`select to_regclass('drizzle.__drizzle_migrations') is not null as exists`;
    const last = exists
      ? (await sql<{ created_at: string }[]>`select max(created_at) as created_at from drizzle.__drizzle_migrations`)[0]?.created_at
      : null;
    const pending = all.filter((m) => last == null || Number(last) < m.when).map((m) => m.tag);
    return { applied: all.length - pending.length, pending };
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/**
 * Applies the pending migrations, each in its own transaction, recorded in drizzle's own table (so
 * drizzle-kit sees the same history). One process at a time (advisory lock). When one fails, the
 * error names it: the ones before it stay applied, nothing from it on is.
 */
export async function applyMigrations(url: string, folder: string): Promise<string[]> {
  const all = readMigrations(folder);
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const done: string[] = [];
  try {
    await sql`select pg_advisory_lock(724011)`;
    const last = await lastApplied(sql);
    let at = all.filter((m) => last !== undefined && m.when <= last).at(-1)?.tag;
    for (const m of all) {
      if (last !== undefined && m.when <= last) continue;
      try {
        await sql.begin(async (tx) => {
          for (const stmt of m.statements) if (stmt.trim()) await tx.unsafe(stmt);
          await tx`insert into drizzle.__drizzle_migrations (hash, created_at) values (${m.hash}, ${m.when})`;
        });
      } catch (e) {
        const why = (e as Error).message.split("\n")[0];
        throw new StartupError(
          `migration ${m.tag} failed: ${why} — nothing from ${m.tag} on was applied; the database is at ${at ?? "no migration yet"}`,
        );
      }
      done.push(m.tag);
      at = m.tag;
    }
    await sql`select pg_advisory_unlock(724011)`;
    return done;
  } finally {
    await sql.end({ timeout: 5 });
  }
}
