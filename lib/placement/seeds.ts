import { readFile } from "node:fs/promises";
import { and, eq, ne } from "drizzle-orm";
import { z } from "zod";
import { mailboxes } from "../../db/schema";
import type { ImapConfig } from "../mail/imap";
import { espClassOf, PROVIDERS, providerFromAddressDomain } from "../mail/providers";
import { type LoginEnv, loginFor, withLogin } from "../mailboxes/credentials";
import { jobsEnv } from "../env";

/**
 * The seeds a placement probe goes to: the workspace's own
 * mailboxes with `isSeed`, plus the installation-wide seeds an operator lists in SEED_POOL_FILE. Only
 * IMAP matters for a seed (it is read, never sends), so a pool item needs its address and IMAP login.
 */

const security = z.enum(["SSL", "STARTTLS", "NONE"]);
const PROVIDER_CLASSES = ["GOOGLE", "MICROSOFT", "YAHOO", "ZOHO", "OTHER"] as const;

/** One SEED_POOL_FILE item: a bulk-import item (POST /mailboxes/bulk-import); its SMTP fields are ignored. */
export const poolItem = z
  .object({
    email: z.email(),
    imapHost: z.string().trim().min(1).max(253),
    imapPort: z.number().int().min(1).max(65535),
    imapSecurity: security.optional(),
    imapUsername: z.string().min(1).max(320).optional(),
    imapPassword: z.string().min(1).max(500).optional(),
    smtpPassword: z.string().min(1).max(500).optional(),
    /** The seed's provider class when its address does not tell (a custom domain hosted by Google, …). */
    provider: z.enum(PROVIDER_CLASSES).optional(),
  })
  .refine((s) => s.imapPassword || s.smtpPassword, { message: "imapPassword (or smtpPassword) is required", path: ["imapPassword"] });
export type PoolItem = z.infer<typeof poolItem>;

/** A seed to probe and read: its address, provider class, workspace mailbox (null for a pool seed) and IMAP login. */
export interface Seed {
  email: string;
  provider: string;
  mailboxId: string | null;
  /** The login to read it with now (an OAuth seed mailbox's token is fetched or refreshed on the call). */
  imap: () => Promise<ImapConfig>;
  /**
   * Runs `fn` logged in as the seed: a seed mailbox through withLogin (an OAuth token the server
   * refuses is refreshed and `fn` runs once more), a pool seed with its file's login.
   */
  read: <T>(fn: (cfg: ImapConfig) => Promise<T>) => Promise<T>;
}

/** SEED_POOL_FILE is set but unreadable or invalid: said plainly, with the file and the item at fault. */
export class SeedPoolError extends Error {}

/** The provider class of a pool seed: as given, else by its address domain, else by its IMAP host's preset. */
export function poolProvider(s: Pick<PoolItem, "email" | "imapHost" | "provider">): string {
  if (s.provider) return s.provider;
  const byDomain = providerFromAddressDomain(s.email.slice(s.email.lastIndexOf("@") + 1));
  const host = s.imapHost.toLowerCase();
  const byHost = (Object.keys(PROVIDERS) as (keyof typeof PROVIDERS)[]).find((p) => PROVIDERS[p].imapHost === host);
  const cls = espClassOf(byDomain ?? byHost);
  return cls === "UNKNOWN" ? "OTHER" : cls;
}

function poolSeed(s: PoolItem): Seed {
  const imap = async (): Promise<ImapConfig> => ({
    host: s.imapHost,
    port: s.imapPort,
    security: s.imapSecurity ?? (s.imapPort === 143 ? "STARTTLS" : "SSL"),
    username: s.imapUsername || s.email,
    password: (s.imapPassword || s.smtpPassword) as string,
  });
  return { email: s.email.toLowerCase(), provider: poolProvider(s), mailboxId: null, imap, read: async (fn) => fn(await imap()) };
}

/** The first problem of an invalid pool file, as `[index].field: message`. */
function firstIssue(e: z.ZodError): string {
  const i = e.issues[0];
  const path = i.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("");
  return `${path.replace(/^\./, "") || "(the file)"}: ${i.message}`;
}

/**
 * The installation's seed pool from SEED_POOL_FILE (a JSON array), read on every call so an operator's
 * edit takes effect without a restart; none when unset. Throws SeedPoolError for a missing, unparsable
 * or invalid file — the caller records it on the test rather than crash.
 */
export async function loadSeedPool(file = jobsEnv.seedPoolFile): Promise<Seed[]> {
  if (!file) return [];
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, "utf8"));
  } catch (e) {
    throw new SeedPoolError(`SEED_POOL_FILE ${file} could not be read as JSON: ${(e as Error).message}`);
  }
  const r = z.array(poolItem).max(1000).safeParse(json);
  if (!r.success) throw new SeedPoolError(`SEED_POOL_FILE ${file} is not a valid seed list: ${firstIssue(r.error)}`);
  return r.data.map(poolSeed);
}

/** The workspace's seed mailboxes (all but `except`, the sender), as seeds. */
async function workspaceSeeds(env: LoginEnv, workspaceId: string, except: string): Promise<Seed[]> {
  const rows = await env.db
    .select()
    .from(mailboxes)
    .where(and(eq(mailboxes.workspaceId, workspaceId), eq(mailboxes.isSeed, true), ne(mailboxes.id, except)));
  return rows.map((m) => seedOfMailbox(env, m));
}

/** A workspace seed mailbox as a seed: its ESP class, read with its own login (password or OAuth). */
export function seedOfMailbox(env: LoginEnv, m: typeof mailboxes.$inferSelect): Seed {
  return {
    email: m.email.toLowerCase(),
    provider: m.espClass === "UNKNOWN" ? "OTHER" : m.espClass,
    mailboxId: m.id,
    imap: () => loginFor(env, m, "imap"),
    read: (fn) => withLogin(env, m, "imap", fn),
  };
}

/**
 * The seeds a probe from `sender` goes to: the workspace's seed mailboxes, then the pool's seeds at
 * other addresses; never the sender's own address. Ordered by address so a test's grid is stable.
 */
export async function seedsFor(env: LoginEnv, workspaceId: string, sender: { id: string; email: string }): Promise<Seed[]> {
  const own = await workspaceSeeds(env, workspaceId, sender.id);
  const seen = new Set([sender.email.toLowerCase(), ...own.map((s) => s.email)]);
  const pool: Seed[] = [];
  for (const s of await loadSeedPool()) {
    if (seen.has(s.email)) continue; // the sender, a workspace seed, or the file listing an address twice
    seen.add(s.email);
    pool.push(s);
  }
  return [...own, ...pool].sort((a, b) => a.email.localeCompare(b.email));
}
