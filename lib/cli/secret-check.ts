import postgres from "postgres";
import { decryptSecret, encryptSecret } from "../crypto/secretbox";

/**
 * Whether this instance's secret (OUTREACH_SECRET, or the generated file in the data folder) opens what
 * the database keeps sealed. Every start writes a check value once — a fixed text sealed with the
 * secret, in app_settings — so even a database without mailboxes can tell; the sealed columns
 * themselves (every `*_enc` column: mailbox passwords, OAuth tokens, AI keys, webhook secrets,
 * two-factor secrets) are tried too, one value each, which also covers databases from before the check
 * value existed.
 */
export const SECRET_CHECK_KEY = "secret_check";
const CHECK_TEXT = "outreach secret check v1";

/** Writes the check value unless the database has one (the first start of an instance). */
export async function ensureSecretCheck(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`insert into app_settings (key, value) values (${SECRET_CHECK_KEY}, ${encryptSecret(CHECK_TEXT)}) on conflict (key) do nothing`;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

export interface SecretVerdict {
  /** ok: everything tried opened; mismatch: something did not; none: nothing sealed to try. */
  status: "ok" | "mismatch" | "none";
  /** The check value: opened, did not open, or absent. */
  checkValue: "ok" | "mismatch" | "absent";
  /** Sealed columns tried (`table.column`) and the ones that did not open. */
  tried: string[];
  failed: string[];
}

function opens(sealed: string, expected?: string): boolean {
  try {
    const plain = decryptSecret(sealed);
    return expected === undefined || plain === expected;
  } catch {
    return false;
  }
}

export async function verifySecret(url: string): Promise<SecretVerdict> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [{ has }] = await sql<{ has: boolean }[]>`select to_regclass('public.app_settings') is not null as has`;
    let checkValue: SecretVerdict["checkValue"] = "absent";
    if (has) {
      const [row] = await sql<{ value: string }[]>`select value from app_settings where key = ${SECRET_CHECK_KEY}`;
      if (row) checkValue = opens(row.value, CHECK_TEXT) ? "ok" : "mismatch";
    }
    const columns = await sql<{ table: string; column: string }[]>`
      select table_name as table, column_name as column from information_schema.columns
      where table_schema = 'public' and column_name like '%\\_enc' and data_type = 'text'
      order by table_name, column_name`;
    const tried: string[] = [];
    const failed: string[] = [];
    for (const c of columns) {
      const [row] = await sql<
        { v: string }[]
      >`select ${sql(c.column)} as v from ${sql(c.table)} where ${sql(c.column)} is not null limit 1`;
      if (!row) continue;
      const name = `${c.table}.${c.column}`;
      tried.push(name);
      if (!opens(row.v)) failed.push(name);
    }
    const status = checkValue === "mismatch" || failed.length > 0 ? "mismatch" : checkValue === "ok" || tried.length > 0 ? "ok" : "none";
    return { status, checkValue, tried, failed };
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** Where the secret in use comes from, for messages. */
export function secretSourceLabel(fromEnv: boolean, dataDir: string): string {
  return fromEnv ? "OUTREACH_SECRET" : `${dataDir}/secret`;
}

/** The operator's message when the database's credentials were sealed with another secret. */
export function mismatchAdvice(source: string, secretFile: string): string {
  return (
    `the stored credentials (mailbox passwords, OAuth tokens, AI keys) cannot be decrypted with this instance's secret (${source}): ` +
    "they were encrypted with another one. Set OUTREACH_SECRET to the secret of the instance the data came from " +
    `(its OUTREACH_SECRET, or the contents of its .data/secret file), or copy that file to ${secretFile}, and start again; ` +
    "without it every mailbox password, OAuth connection and AI key must be entered again"
  );
}
