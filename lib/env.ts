import { randomBytes } from "node:crypto";
import { accessSync, constants, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { StartupError } from "./startup-error";

/** Root of the project's runtime data (embedded Postgres, generated secret). */
export function dataDir(): string {
  return path.resolve(/*turbopackIgnore: true*/ process.env.OUTREACH_DATA_DIR ?? path.join(process.cwd(), ".data"));
}

/**
 * The data folder, created when missing and checked writable by writing a probe file: the secret,
 * the embedded server's password and (for an ordinary user) its cluster live there.
 */
export function ensureDataDir(): string {
  const dir = dataDir();
  const probe = path.join(dir, `.write-probe-${process.pid}`);
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
    writeFileSync(probe, "");
    rmSync(probe, { force: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? "error";
    const who = process.getuid ? `user ${process.getuid()}` : "this user";
    throw new StartupError(`data folder ${dir} is not writable by ${who} (${code}) — set OUTREACH_DATA_DIR to a folder you can write`);
  }
  return dir;
}

let cachedSecret: string | undefined;

/**
 * The key that encrypts stored credentials and signs sessions. From OUTREACH_SECRET, or generated once
 * into .data/secret so that every process started from this folder agrees.
 */
export function outreachSecret(): string {
  if (process.env.OUTREACH_SECRET) return process.env.OUTREACH_SECRET;
  if (cachedSecret) return cachedSecret;
  const dir = dataDir();
  const file = path.join(dir, "secret");
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString("hex"), { mode: 0o600, flag: "wx" });
  }
  cachedSecret = readFileSync(file, "utf8").trim();
  return cachedSecret;
}

/** What the operator CLI (lib/cli) reads of its environment beyond the settings above. */
export const cliEnv = {
  /** The folder `outreach` was run from (bin/outreach.mjs records it before moving to the project root). */
  get invokedFrom(): string {
    return process.env.OUTREACH_CWD || process.cwd();
  },
  /** PATH's folders in order: where the CLI looks for PostgreSQL's client tools. */
  get searchPath(): string[] {
    return (process.env.PATH ?? "").split(path.delimiter).filter(Boolean);
  },
  /** DATABASE_URL as the operator set it; unset, the embedded server is used (and the CLI sets it for its children). */
  get databaseUrl(): string | undefined {
    return process.env.DATABASE_URL || undefined;
  },
  /** OUTREACH_SECRET is set (otherwise the secret is the generated file in the data folder). */
  get secretFromEnv(): boolean {
    return Boolean(process.env.OUTREACH_SECRET);
  },
  /** OUTREACH_DEBUG=1: full output of the tools the CLI runs, and stacks with errors. */
  get debug(): boolean {
    return Boolean(process.env.OUTREACH_DEBUG);
  },
  /** The environment for a tool the CLI runs (pg_dump, pg_restore): this one's, with `extra` on top. */
  forTool(extra: Record<string, string>): NodeJS.ProcessEnv {
    return { ...process.env, ...extra };
  },
};

/** APP_URL as the operator set it (no default): the public origin that the CSRF check and HSTS go by. */
export function configuredAppUrl(): string | undefined {
  return process.env.APP_URL || undefined;
}

/**
 * The installation's own mailer for invitations, password resets and email confirmations:
 * SYSTEM_SMTP_URL (`smtp://user:pass@host:port` or `smtps://…`) and SYSTEM_MAIL_FROM. Unset: no mail
 * is sent and the dashboard shows such links once to copy instead.
 */
export const systemMail = {
  get url(): string | undefined {
    return process.env.SYSTEM_SMTP_URL?.trim() || undefined;
  },
  get from(): string | undefined {
    return process.env.SYSTEM_MAIL_FROM?.trim() || undefined;
  },
};

export function appUrl(): string {
  return (process.env.APP_URL ?? `http://localhost:${process.env.PORT ?? "3000"}`).replace(/\/$/, "");
}

function intEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  const n = raw === undefined || raw === "" ? NaN : Number(raw);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : fallback;
}

/** Section 8 limits. Overridable by env so an operator (or the benchmark) can raise them. */
export const rateLimits = {
  get apiKeyPerMinute() {
    return intEnv("RATE_LIMIT_API_KEY", 300);
  },
  get sessionPerMinute() {
    return intEnv("RATE_LIMIT_SESSION", 600);
  },
  get ipPerMinute() {
    return intEnv("RATE_LIMIT_IP", 200);
  },
  get authPerMinute() {
    return intEnv("RATE_LIMIT_AUTH", 10);
  },
  get enabled() {
    return process.env.RATE_LIMIT_DISABLED !== "1";
  },
};

export const workerTickMs = () => intEnv("WORKER_TICK_MS", 5000);

/** How long a mail client waits for a server's TCP connection before giving up (a bad value falls back to the default, never NaN). */
export const mailTimeouts = {
  get imapConnectMs() {
    return intEnv("IMAP_CONNECT_TIMEOUT_MS", 15_000);
  },
  get smtpConnectMs() {
    return intEnv("SMTP_CONNECT_TIMEOUT_MS", 15_000);
  },
};

/** The outbound guard's settings, read on each call (tests change them between cases). */
export const outboundEnv = {
  /** OUTBOUND_ALLOW_HOSTS: comma list of hosts or CIDRs that webhooks and crawls may reach although private. */
  get allowHosts(): string {
    return process.env.OUTBOUND_ALLOW_HOSTS ?? "";
  },
  /** DNS_SERVERS as set: when set, names are resolved through them instead of the system's resolver. */
  get dnsServers(): string | undefined {
    return process.env.DNS_SERVERS || undefined;
  },
};

/** Email verification by the lead finder and POST /leads verify (docs/finder.md). */
export const verifyEnv = {
  /** The port MX hosts are asked on (SMTP_VERIFY_PORT, default 25; tests point it at local peers). */
  get port() {
    return intEnv("SMTP_VERIFY_PORT", 25);
  },
  /** One SMTP wait (connect, each reply) before the address counts as UNKNOWN (SMTP_VERIFY_TIMEOUT_MS, default 10 s). */
  get timeoutMs() {
    return intEnv("SMTP_VERIFY_TIMEOUT_MS", 10_000);
  },
  /** Politeness: the pause between two probes at one domain (SMTP_VERIFY_DELAY_MS, default 1 s; 0 allowed). */
  get delayMs() {
    const raw = process.env.SMTP_VERIFY_DELAY_MS;
    return raw !== undefined && raw !== "" && Number(raw) >= 0 ? Number(raw) : 1000;
  },
  /** The EHLO name and the MAIL FROM address of probes (SMTP_VERIFY_HELO, SMTP_VERIFY_FROM; default the app host). */
  get helo() {
    return process.env.SMTP_VERIFY_HELO?.trim() || new URL(appUrl()).hostname;
  },
  get mailFrom() {
    return process.env.SMTP_VERIFY_FROM?.trim() || `verify@${this.helo}`;
  },
};

/**
 * The installation's AI endpoint (docs/ai.md): any OpenAI-compatible server, used by every workspace
 * that has not set its own under Settings → AI. AI_BASE_URL unset: no endpoint (the built-in rules and
 * templates). Read on every call, so an operator (or a test) may change them while running.
 */
export const aiEnv = {
  get baseUrl(): string | undefined {
    return process.env.AI_BASE_URL?.trim() || undefined;
  },
  get apiKey(): string | undefined {
    return process.env.AI_API_KEY?.trim() || undefined;
  },
  /** AI_MODEL, default gpt-4o-mini. */
  get model(): string {
    return process.env.AI_MODEL?.trim() || "gpt-4o-mini";
  },
  /** AI_EMBEDDING_MODEL: embeddings are used only when it is set. */
  get embeddingModel(): string | undefined {
    return process.env.AI_EMBEDDING_MODEL?.trim() || undefined;
  },
  /** AI_TIMEOUT_MS: one request's limit before the caller falls back (default 20 s). */
  get timeoutMs(): number {
    return intEnv("AI_TIMEOUT_MS", 20_000);
  },
};
