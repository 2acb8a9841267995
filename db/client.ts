import path from "node:path";
import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { dataDir } from "../lib/env";
import { ensureDatabase, startEmbeddedPostgres, type EmbeddedServer } from "./embedded";
import * as schema from "./schema";

export type Db = PostgresJsDatabase<typeof schema> & { $client: postgres.Sql };
/** A Drizzle handle: the database or an open transaction. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

const g = globalThis as unknown as { __outreachDb?: Db; __outreachEmbedded?: Promise<EmbeddedServer> };

export const EMBEDDED_DB_NAME = "outreach";

export function embeddedPort(): number {
  return Number(process.env.EMBEDDED_PG_PORT ?? 54329);
}

/**
 * Picks the database: DATABASE_URL when set, otherwise the embedded server under .data/pg (started
 * here, or joined when another process of this folder already runs it). Sets DATABASE_URL so child
 * processes use the same one.
 */
export async function resolveDatabaseUrl(log: (l: string) => void = () => {}): Promise<string> {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  g.__outreachEmbedded ??= startEmbeddedPostgres({ dir: path.join(dataDir(), "pg"), port: embeddedPort(), log });
  const server = await g.__outreachEmbedded;
  await ensureDatabase(server.url("postgres"), EMBEDDED_DB_NAME);
  process.env.DATABASE_URL = server.url(EMBEDDED_DB_NAME);
  return process.env.DATABASE_URL;
}

export function createDb(url: string, max = Number(process.env.DB_POOL_MAX ?? 10)): Db {
  const client = postgres(url, { max, onnotice: () => {}, idle_timeout: 60 });
  return drizzle(client, { schema }) as Db;
}

/** The process-wide database handle. DATABASE_URL must be resolved first (resolveDatabaseUrl). */
export function getDb(): Db {
  if (g.__outreachDb) return g.__outreachDb;
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set: start through `npm start` / `outreach`, or call resolveDatabaseUrl() first");
  g.__outreachDb = createDb(url);
  return g.__outreachDb;
}

export async function closeDb(): Promise<void> {
  const db = g.__outreachDb;
  g.__outreachDb = undefined;
  if (db) await db.$client.end({ timeout: 5 });
}

export function migrationsFolder(): string {
  return path.join(process.env.OUTREACH_ROOT ?? process.cwd(), "db", "migrations");
}

/** Applies the committed drizzle-kit migrations, one process at a time (advisory lock). */
export async function runMigrations(url: string): Promise<void> {
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await client`select pg_advisory_lock(724011)`;
    await migrate(drizzle(client), { migrationsFolder: migrationsFolder() });
    await client`select pg_advisory_unlock(724011)`;
  } finally {
    await client.end({ timeout: 5 });
  }
}
