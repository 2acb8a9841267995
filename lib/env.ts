import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ENV_VARS, type EnvVar } from "./env-vars";
import { StartupError } from "./startup-error";

/** Root of the project's runtime data (embedded Postgres, generated secret). */
export function dataDir(): string {
  return path.resolve(/*turbopackIgnore: true*/ process.env.OUTREACH_DATA_DIR ?? path.join(process.cwd(), ".data"));
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
    return processEnvWith(extra);
  },
  /** The project folder (bin/outreach.mjs sets OUTREACH_ROOT), else the current folder. */
  get root(): string {
    return process.env.OUTREACH_ROOT ?? process.cwd();
  },
  /** PORT as written (the CLI checks it is a port number). */
  get portText(): string {
    return process.env.PORT ?? "3000";
  },
  /** OUTREACH_SKIP_BUILD=1: serve the existing build without checking it is current. */
  get skipBuild(): boolean {
    return flagEnv("OUTREACH_SKIP_BUILD");
  },
  /** NEXTAUTH_URL as set, for the server the CLI starts. */
  get nextAuthUrl(): string | undefined {
    return process.env.NEXTAUTH_URL || undefined;
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

/** TRACKING_CNAME_TARGET: the host tracking domains must be a CNAME to, else APP_URL's host (docs/tracking.md). */
export function trackingCnameTarget(): string {
  const set = process.env.TRACKING_CNAME_TARGET?.trim().toLowerCase().replace(/\.$/, "");
  return set || new URL(appUrl()).hostname;
}

/** A whole number above 0 from `name`, else `fallback` (checkSettings refuses a bad value at start). */
export function intEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  const n = raw === undefined || raw === "" ? NaN : Number(raw);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/** A whole number from 0 up from `name`, else `fallback`. */
export function countEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  const n = raw === undefined || raw === "" ? NaN : Number(raw);
  return Number.isInteger(n) && n >= 0 ? n : fallback;
}

/** The trimmed text of `name`, or undefined when unset or empty. */
export function textEnv(name: string): string | undefined {
  return process.env[name]?.trim() || undefined;
}

/** RSPAMD_URL: the operator's rspamd (normal worker) that scores a sequence's steps in its check; unset = off. */
export function rspamdUrl(): string | undefined {
  return process.env.RSPAMD_URL?.trim().replace(/\/+$/, "") || undefined;
}

/** Whether `name` is `1`. */
export function flagEnv(name: string): boolean {
  return process.env[name] === "1";
}

/** This process's environment with `extra` on top: what a child process (a tool, the server, the worker) is given. */
export function processEnvWith(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return { ...process.env, ...extra } as NodeJS.ProcessEnv;
}

/**
 * Writes a setting for this process and the ones it starts: the database URL once the embedded server
 * is up, next-auth's URL from APP_URL, the CLI's folders. The one place that changes process.env.
 */
export function setEnv(name: string, value: string): void {
  process.env[name] = value;
}

/** Whether the process runs in Next's development mode. */
export function isDevelopment(): boolean {
  return process.env.NODE_ENV === "development";
}

/** The API's rate limits. Overridable by env so an operator (or the benchmark) can raise them. */
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

/** Why a value of `kind` is refused, or null when it is valid (unset and empty are always valid). */
function refusal(v: EnvVar, raw: string): string | null {
  const n = Number(raw);
  switch (v.kind) {
    case "positive":
      return Number.isInteger(n) && n > 0 ? null : "must be a whole number above 0";
    case "seconds":
      return Number.isFinite(n) && n > 0 ? null : "must be a number of seconds above 0";
    case "count":
      return Number.isInteger(n) && n >= 0 ? null : "must be a whole number (0 or more)";
    case "port":
      return Number.isInteger(n) && n >= 1 && n <= 65535 ? null : "must be a port number from 1 to 65535";
    case "flag":
      return raw === "1" || raw === "0" ? null : "must be 1 (on) or 0 (off)";
    case "url":
    case "smtp-url": {
      const schemes = v.kind === "url" ? ["http:", "https:"] : ["smtp:", "smtps:"];
      try {
        return schemes.includes(new URL(raw).protocol) ? null : `must be a ${schemes.map((p) => p.slice(0, -1)).join(" or ")} URL`;
      } catch {
        return `must be a URL (${schemes.map((p) => `${p}//…`).join(" or ")})`;
      }
    }
    default:
      return null;
  }
}

/**
 * Every declared setting checked at start (web server, worker, CLI): the first bad value stops the
 * start with one line naming the variable, what it must be and what it was.
 */
export function checkSettings(env: Record<string, string | undefined> = process.env): void {
  for (const v of ENV_VARS) {
    const raw = env[v.name]?.trim();
    if (!raw) continue;
    const why = refusal(v, raw);
    if (why) throw new StartupError(`${v.name} ${why} (it is "${raw.slice(0, 60)}") — fix or unset it`);
  }
}

/** The database settings (db/client.ts, db/embedded*.ts). */
export const dbEnv = {
  get url(): string | undefined {
    return process.env.DATABASE_URL || undefined;
  },
  get embeddedPort(): number {
    return intEnv("EMBEDDED_PG_PORT", 54329);
  },
  get runtimeDir(): string {
    return process.env.OUTREACH_PG_RUNTIME_DIR || "/var/lib/outreach";
  },
  /** DB_POOL_MAX when set to a whole number of at least 1. */
  get poolMax(): number | undefined {
    const n = intEnv("DB_POOL_MAX", 0);
    return n >= 1 ? n : undefined;
  },
  get prepareMaxParams(): number {
    return countEnv("DB_PREPARE_MAX_PARAMS", 32);
  },
};

/** How long what people sent and did is kept (docs/operations.md, "Retention"). */
export const retentionEnv = {
  /** Sent emails' bodies: the row and its counts stay, the text and HTML go. */
  get emailBodiesDays(): number {
    return intEnv("RETAIN_EMAIL_BODIES_DAYS", 180);
  },
  /** Tracking hits (email_events opens and clicks): the email's first counted and machine hits stay on it. */
  get trackingHitsDays(): number {
    return intEnv("RETAIN_TRACKING_HITS_DAYS", 90);
  },
  /** The webhook delivery log (finished deliveries; pending ones stay until they finish). */
  get webhookDeliveriesDays(): number {
    return intEnv("RETAIN_WEBHOOK_DELIVERIES_DAYS", 30);
  },
};

/** Intervals and files of the mail, DNS, warmup and placement jobs, in the units their variables name. */
export const jobsEnv = {
  get imapPollIntervalS(): number {
    return intEnv("IMAP_POLL_INTERVAL_S", 60);
  },
  /** The reply sync on one worker: mailboxes read at once, IMAP connections kept, Junk and Sent read every N polls. */
  imapSync: () => ({
    concurrency: intEnv("IMAP_SYNC_CONCURRENCY", 50),
    maxConnections: intEnv("IMAP_MAX_CONNECTIONS", 3000),
    otherFoldersEvery: intEnv("IMAP_OTHER_FOLDERS_EVERY", 4),
  }),
  get mailboxCheckIntervalS(): number {
    return intEnv("MAILBOX_CHECK_INTERVAL_S", 300);
  },
  get mailProvidersFile(): string | undefined {
    return textEnv("MAIL_PROVIDERS_FILE");
  },
  get warmupSpreadS(): number {
    return intEnv("WARMUP_SPREAD_S", 36_000);
  },
  get seedPoolFile(): string | undefined {
    return textEnv("SEED_POOL_FILE");
  },
  get placementWaitS(): number {
    return intEnv("PLACEMENT_WAIT_S", 600);
  },
  get dnsTimeoutMs(): number {
    return intEnv("DNS_TIMEOUT_MS", 3000);
  },
  /** A blocklist zone list (DNSBL_DOMAIN_ZONES or DNSBL_IP_ZONES) as written, else undefined. */
  dnsblZones(name: "DNSBL_DOMAIN_ZONES" | "DNSBL_IP_ZONES"): string | undefined {
    return process.env[name];
  },
  /** Inngest drives the jobs when any of its keys or its URL is set. */
  get inngestDriven(): boolean {
    return Boolean(process.env.INNGEST_EVENT_KEY || process.env.INNGEST_SIGNING_KEY || process.env.INNGEST_BASE_URL);
  },
  /** For tests only: the send-path point where the worker kills itself. */
  get crashAt(): string | undefined {
    return process.env.OUTREACH_CRASH_AT || undefined;
  },
};

/** Keys and endpoints of the outside services: OAuth apps, Hunter, sign-in. */
export const serviceEnv = {
  /** A GOOGLE_* or MICROSOFT_* OAuth setting, trimmed, or undefined. */
  oauth(name: `GOOGLE_${string}` | `MICROSOFT_${string}`): string | undefined {
    return textEnv(name);
  },
  get hunterApiKey(): string | undefined {
    return textEnv("HUNTER_API_KEY");
  },
  get hunterBaseUrl(): string {
    return (process.env.HUNTER_BASE_URL ?? "https://api.hunter.io").replace(/\/$/, "");
  },
  get bcryptRounds(): number {
    return intEnv("BCRYPT_ROUNDS", 11);
  },
  get nextAuthSecret(): string | undefined {
    return process.env.NEXTAUTH_SECRET || undefined;
  },
};

/** next-auth reads NEXTAUTH_URL itself: set from APP_URL when unset, else it trusts the request's host. */
export function prepareAuthEnv(): void {
  if (process.env.NEXTAUTH_URL) return;
  if (process.env.APP_URL) process.env.NEXTAUTH_URL = process.env.APP_URL;
  else process.env.AUTH_TRUST_HOST ??= "1";
}

/** The website agent's crawl (lib/reply-agents/crawl.ts). */
export const agentEnv = {
  /** AGENT_CRAWL_MAX_S: how long one scan may crawl from its start, in seconds (default 300; fractions allowed). */
  get crawlMaxS(): number {
    const s = Number(process.env.AGENT_CRAWL_MAX_S);
    return Number.isFinite(s) && s > 0 ? s : 300;
  },
};
