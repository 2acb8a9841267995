import { lstatSync, readdirSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { embeddedServer } from "../../db/client";
import { describeUrl } from "../../db/diagnose";
import { cliEnv, dataDir } from "../env";
import { findPgTool } from "./pg-tools";
import { formatBytes } from "./progress";
import { mismatchAdvice, secretSourceLabel, verifySecret } from "./secret-check";

export type CheckStatus = "ok" | "warn" | "fail";

export interface Check {
  name: string;
  status: CheckStatus;
  detail: string;
}

/** Bytes of the files under `dir` (what cannot be read counts as nothing). */
export function folderSize(dir: string): number {
  let total = 0;
  const walk = (p: string) => {
    try {
      const st = lstatSync(p);
      if (st.isDirectory()) for (const n of readdirSync(p)) walk(path.join(p, n));
      else total += st.size;
    } catch {
      /* unreadable: not counted */
    }
  };
  walk(dir);
  return total;
}

async function databaseSize(url: string): Promise<number> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [{ size }] = await sql<{ size: string }[]>`select pg_database_size(current_database())::text as size`;
    return Number(size);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

const HOW = "back it up with `npx outreach backup` (docs/operations.md)";

/** Where the data lives and how big it is: the embedded cluster's folder, or DATABASE_URL's host and database (never the password). */
async function locationCheck(url: string, external: boolean): Promise<Check> {
  const size = formatBytes(await databaseSize(url));
  if (external) {
    const { where, database } = describeUrl(url);
    return {
      name: "data",
      status: "ok",
      detail: `DATABASE_URL → ${where}/${database}, database ${size} — ${HOW}, or with your provider's backups`,
    };
  }
  const cluster = (await embeddedServer())?.layout.cluster;
  if (!cluster) return { name: "data", status: "ok", detail: `embedded PostgreSQL, database ${size} — ${HOW}` };
  const outside = !path.resolve(cluster).startsWith(path.resolve(dataDir()) + path.sep)
    ? "; outside the checkout, it stays when the checkout is deleted"
    : "";
  return {
    name: "data",
    status: "ok",
    detail: `embedded PostgreSQL in ${cluster} (${formatBytes(folderSize(cluster))} on disk, database ${size}${outside}); the secret and the server's password in ${dataDir()} — ${HOW}`,
  };
}

async function toolsCheck(major: number): Promise<Check> {
  try {
    const dump = await findPgTool("pg_dump", major);
    const restore = await findPgTool("pg_restore", major);
    return { name: "backup tools", status: "ok", detail: `${dump.path} ${dump.version}, ${restore.path} ${restore.version}` };
  } catch (e) {
    return { name: "backup tools", status: "warn", detail: `\`outreach backup\` cannot run yet: ${(e as Error).message}` };
  }
}

async function credentialsCheck(url: string): Promise<Check> {
  const source = secretSourceLabel(cliEnv.secretFromEnv, dataDir());
  const v = await verifySecret(url);
  if (v.status === "mismatch")
    return { name: "credentials", status: "fail", detail: mismatchAdvice(source, path.join(dataDir(), "secret")) };
  if (v.status === "none") return { name: "credentials", status: "ok", detail: "nothing sealed yet" };
  return { name: "credentials", status: "ok", detail: `the secret (${source}) opens the stored credentials` };
}

/** The doctor's lines about the data: where it is, whether a backup can be made, whether the secret fits it. */
export async function dataChecks(url: string, external: boolean, major: number): Promise<Check[]> {
  const safe = async (name: string, fn: () => Promise<Check>): Promise<Check> =>
    fn().catch((e) => ({ name, status: "warn" as const, detail: ((e as Error).message ?? String(e)).split("\n")[0] }));
  return [
    await safe("data", () => locationCheck(url, external)),
    await safe("backup tools", () => toolsCheck(major)),
    await safe("credentials", () => credentialsCheck(url)),
  ];
}
