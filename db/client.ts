import { connect, type Socket } from "node:net";
import { availableParallelism } from "node:os";
import path from "node:path";
import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { ensureDataDir } from "../lib/data-dir";
import { cliEnv, dbEnv, setEnv } from "../lib/env";
import { ensureDatabase, startEmbeddedPostgres, type EmbeddedServer } from "./embedded";
import { applyMigrations } from "./migrate";
import * as schema from "./schema";

export type Db = PostgresJsDatabase<typeof schema> & { $client: postgres.Sql };
/** A Drizzle handle: the database or an open transaction. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

const g = globalThis as unknown as { __outreachDb?: Db; __outreachEmbedded?: Promise<EmbeddedServer> };

export const EMBEDDED_DB_NAME = "outreach";

export function embeddedPort(): number {
  return dbEnv.embeddedPort;
}

/**
 * Picks the database: DATABASE_URL when set, otherwise the embedded server of the data folder (started
 * here, or joined when another process of this folder already runs it). Sets DATABASE_URL so child
 * processes use the same one.
 */
export async function resolveDatabaseUrl(log: (l: string) => void = () => {}): Promise<string> {
  const configured = dbEnv.url;
  if (configured) return configured;
  g.__outreachEmbedded ??= startEmbeddedPostgres({ dataDir: ensureDataDir(), port: embeddedPort(), log });
  const server = await g.__outreachEmbedded;
  await ensureDatabase(server.url("postgres"), EMBEDDED_DB_NAME);
  const url = server.url(EMBEDDED_DB_NAME);
  setEnv("DATABASE_URL", url);
  return url;
}

/** The embedded server this process started or joined, if any. */
export async function embeddedServer(): Promise<EmbeddedServer | undefined> {
  return g.__outreachEmbedded ? await g.__outreachEmbedded.catch(() => undefined) : undefined;
}

/** Stops the embedded server when this process started it (the launcher's last step of a shutdown). */
export async function stopEmbedded(graceMs?: number): Promise<void> {
  const server = await embeddedServer();
  g.__outreachEmbedded = undefined;
  if (server?.owned) await server.stop(graceMs);
}

/**
 * Statements with at most this many parameters run as prepared statements (DB_PREPARE_MAX_PARAMS,
 * default 32; 0 turns preparation off, e.g. behind a transaction-pooling PgBouncer).
 *
 * Why: Drizzle hands every statement to postgres.js unprepared, and postgres.js answers an unprepared
 * statement with parameters in two round trips (Parse/Describe, then Bind/Execute) while the server
 * parses and plans it every time. Prepared, it is described once per connection, then costs one round
 * trip. postgres.js names a prepared statement per distinct text and keeps it for the connection's
 * life, and a list written as one parameter per value (`inArray`) makes a new text for every list
 * length — so only statements with few parameters are prepared: their number of texts stays small.
 * Lists that may be long go as one JSON parameter (db/bulk.ts), which keeps their text fixed.
 */
export function prepareMaxParams(): number {
  return dbEnv.prepareMaxParams;
}

type UnsafeOptions = { prepare?: boolean };

/**
 * The postgres.js client with statement preparation decided by parameter count: `unsafe` (what Drizzle
 * calls for every statement) is told to prepare when the statement has at most `maxParams`
 * parameters, and transactions and savepoints hand their callbacks a client that does the same.
 */
function preparingClient(client: postgres.Sql, maxParams: number): postgres.Sql {
  const wrapCallback = (args: unknown[]) => {
    const i = args.length - 1;
    const fn = args[i] as (c: postgres.Sql) => unknown;
    args[i] = (c: postgres.Sql) => fn(preparingClient(c, maxParams));
    return args;
  };
  return new Proxy(client, {
    get(target, prop) {
      if (prop === "unsafe") {
        return (query: string, params?: unknown[], options?: UnsafeOptions) =>
          target.unsafe(query, params as postgres.ParameterOrJSON<never>[], {
            ...options,
            prepare: (params?.length ?? 0) <= maxParams,
          });
      }
      const value = Reflect.get(target, prop, target);
      if (prop === "begin" || prop === "savepoint") {
        return (...args: unknown[]) => (value as (...a: unknown[]) => unknown).apply(target, wrapCallback(args));
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/**
 * postgres.js leaves Nagle's algorithm on, so a small write after a larger one (a Sync after a big
 * Bind, the statements of a pipelined transaction) can wait ~40 ms for the server's delayed ACK. The
 * pool's TCP connections are opened here with TCP_NODELAY instead (same host and port as the URL, the
 * connect timeout kept); a Unix-socket URL (`?host=/path`) is left to postgres.js.
 */
function noDelaySocket(timeoutSeconds: number) {
  return (o: { host: string[]; port: number[]; path?: string | false }) =>
    new Promise<Socket>((resolve, reject) => {
      const s = o.path ? connect(o.path) : connect({ host: o.host[0], port: o.port[0], noDelay: true });
      const timer = setTimeout(() => {
        s.destroy();
        reject(Object.assign(new Error(`connect to ${o.host[0]}:${o.port[0]} timed out`), { code: "CONNECT_TIMEOUT" }));
      }, timeoutSeconds * 1000);
      s.once("connect", () => {
        clearTimeout(timer);
        s.off("error", fail);
        resolve(s);
      });
      const fail = (e: Error) => {
        clearTimeout(timer);
        reject(e);
      };
      s.once("error", fail);
    });
}

/**
 * Connections per process when DB_POOL_MAX is not set: one more than this machine's cores, at least 3
 * and at most 10. Postgres runs one process per connection, and on a small machine that also runs the
 * database (the embedded default) more statements at once than there are cores only make the
 * backends take turns: on 2 cores the send engine's tick of 5,000 mailboxes took a median 0.54 s on
 * 918 ms of CPU with 3 connections against 0.67 s on 1,196 ms with 10 (six alternated pairs, docs/benchmarks.md).
 * Set DB_POOL_MAX for a larger database server elsewhere.
 */
export function defaultPoolMax(cores = availableParallelism()): number {
  return Math.min(10, Math.max(3, cores + 1));
}

/** DB_POOL_MAX when it is a whole number of at least 1, else `defaultPoolMax()`. */
export function poolMax(): number {
  return dbEnv.poolMax ?? defaultPoolMax();
}

export function createDb(url: string, max = poolMax()): Db {
  // `socket` is a postgres.js option its type declarations leave out.
  const socketOption = { socket: noDelaySocket(30) };
  const client = postgres(url, { max, onnotice: () => {}, idle_timeout: 60, connect_timeout: 30, ...socketOption });
  const maxParams = prepareMaxParams();
  return drizzle(maxParams > 0 ? preparingClient(client, maxParams) : client, { schema }) as Db;
}

/** The process-wide database handle. DATABASE_URL must be resolved first (resolveDatabaseUrl). */
export function getDb(): Db {
  if (g.__outreachDb) return g.__outreachDb;
  const url = dbEnv.url;
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
  return path.join(cliEnv.root, "db", "migrations");
}

/** Applies the committed drizzle-kit migrations (db/migrate.ts: one transaction each, a failure named). */
export async function runMigrations(url: string, folder = migrationsFolder()): Promise<string[]> {
  return applyMigrations(url, folder);
}
