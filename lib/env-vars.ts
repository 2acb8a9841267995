/**
 * Every environment variable Outreach reads, declared once: its group, what a valid value looks like,
 * its default and what it does. lib/env.ts reads them (nothing else in lib/, db/ or inngest/ reads
 * process.env), `checkSettings` refuses a bad value at start with one line naming it, and
 * `npm run docs:config` writes the README's table and docs/configuration.md from this list.
 * Pure data: no reads here.
 */

export type Group = "server" | "database" | "security" | "mail" | "dns" | "oauth" | "ai" | "finder" | "limits" | "jobs" | "cli" | "tests";

/**
 * What a valid value is: a whole number above 0 (`positive`) or from 0 (`count`), a number above 0 (`seconds`), an http(s) URL, a TCP
 * port, `1` or unset (`flag`), or any text. Unset or empty is always valid (the default applies).
 */
export type Kind = "positive" | "seconds" | "count" | "url" | "smtp-url" | "port" | "flag" | "text";

export interface EnvVar {
  name: string;
  group: Group;
  kind: Kind;
  /** The default in words, as the tables show it. */
  fallback: string;
  meaning: string;
  /** Shown in the README's short table (the rest are in docs/configuration.md). */
  essential?: true;
}

const v = (name: string, group: Group, kind: Kind, fallback: string, meaning: string, essential?: true): EnvVar => ({
  name,
  group,
  kind,
  fallback,
  meaning,
  ...(essential ? { essential } : {}),
});

export const ENV_VARS: readonly EnvVar[] = [
  // server
  v("PORT", "server", "port", "3000", "HTTP port of the web server.", true),
  v(
    "APP_URL",
    "server",
    "url",
    "`http://localhost:$PORT`",
    "Public base URL: links in emails, tracking, the setup link, the OpenAPI server, the CSRF origin.",
    true,
  ),
  v("OUTREACH_DATA_DIR", "server", "text", "`./.data`", "Where the embedded database and the generated secret live.", true),
  v("NEXTAUTH_URL", "server", "url", "APP_URL", "The sign-in's own base URL (next-auth); set from APP_URL when unset."),
  // database
  v(
    "DATABASE_URL",
    "database",
    "text",
    "embedded server",
    "Postgres (14 or newer) connection URL. Unset: the embedded server under the data folder.",
    true,
  ),
  v("EMBEDDED_PG_PORT", "database", "port", "54329", "Port of the embedded Postgres server."),
  v(
    "OUTREACH_PG_RUNTIME_DIR",
    "database",
    "text",
    "`/var/lib/outreach`",
    "As root with a private checkout: where the embedded server's binaries and data go.",
  ),
  v(
    "DB_POOL_MAX",
    "database",
    "positive",
    "cores + 1 (3 to 10)",
    "Database connections per process (web server, worker); raise it for a larger database server elsewhere.",
  ),
  v(
    "DB_PREPARE_MAX_PARAMS",
    "database",
    "count",
    "32",
    "Statements with up to this many parameters are prepared (kept server-side); larger ones are sent unprepared.",
  ),
  // security
  v(
    "OUTREACH_SECRET",
    "security",
    "text",
    "generated into `.data/secret`",
    "Encrypts stored credentials and signs sessions. Set it when running several machines.",
    true,
  ),
  v("NEXTAUTH_SECRET", "security", "text", "derived from OUTREACH_SECRET", "Signs dashboard sessions (next-auth)."),
  v(
    "OUTBOUND_ALLOW_HOSTS",
    "security",
    "text",
    "empty",
    "Hosts or CIDRs that webhooks and crawls may reach although private — for self-hosted receivers.",
    true,
  ),
  v("BCRYPT_ROUNDS", "security", "positive", "11", "bcrypt cost of stored passwords."),
  // mail
  v(
    "RSPAMD_URL",
    "mail",
    "url",
    "unset (off)",
    "An rspamd's normal worker (e.g. `http://127.0.0.1:11333`): the sequence check scores each step with it (docs/deliverability.md).",
  ),
  v(
    "SYSTEM_SMTP_URL",
    "mail",
    "smtp-url",
    "unset",
    "The instance's own mail (invitations, password resets): `smtp://user:pass@host:port` or `smtps://…`. Unset: links are shown to copy.",
    true,
  ),
  v("SYSTEM_MAIL_FROM", "mail", "text", "`Outreach <no-reply@APP_URL's host>`", "The From header of the instance's own mail."),
  v(
    "MAIL_PROVIDERS_FILE",
    "mail",
    "text",
    "unset",
    'JSON `{ "<domain>": { smtpHost, smtpPort, smtpSecurity, imapHost, imapPort, imapSecurity } }` overriding the webmail presets.',
  ),
  v("IMAP_POLL_INTERVAL_S", "mail", "positive", "60", "How often each mailbox's INBOX, spam and Sent folders are read for replies.", true),
  v("IMAP_SYNC_CONCURRENCY", "mail", "positive", "50", "How many mailboxes one worker reads at once."),
  v(
    "IMAP_MAX_CONNECTIONS",
    "mail",
    "positive",
    "3000",
    "IMAP connections one worker keeps open; mailboxes beyond take turns (connect, read, log out).",
  ),
  v(
    "IMAP_OTHER_FOLDERS_EVERY",
    "mail",
    "positive",
    "4",
    "Spam and Sent folders are read every this many poll intervals (INBOX every interval).",
  ),
  v("MAILBOX_CHECK_INTERVAL_S", "mail", "positive", "300", "How often every mailbox's SMTP and IMAP logins are checked."),
  v("IMAP_CONNECT_TIMEOUT_MS", "mail", "positive", "15000", "How long an IMAP connection may take before it fails."),
  v("SMTP_CONNECT_TIMEOUT_MS", "mail", "positive", "15000", "How long an SMTP connection may take before it fails."),
  v("SMTP_VERIFY_TIMEOUT_MS", "mail", "positive", "10000", "Email verification: one SMTP wait before the address counts as UNKNOWN."),
  v("SMTP_VERIFY_DELAY_MS", "mail", "count", "1000", "Email verification: the pause between two probes at one domain."),
  v("SMTP_VERIFY_HELO", "mail", "text", "APP_URL's host", "Email verification: the EHLO name of probes."),
  v("SMTP_VERIFY_FROM", "mail", "text", "`verify@<HELO name>`", "Email verification: the MAIL FROM address of probes."),
  // dns
  v(
    "DNS_SERVERS",
    "dns",
    "text",
    "system resolver",
    "Comma list (`host` or `host:port`) for SPF/DKIM/DMARC/MX/DNSBL and provider look-ups.",
  ),
  v("DNS_TIMEOUT_MS", "dns", "positive", "3000", "One DNS query's limit (tried twice)."),
  v(
    "TRACKING_CNAME_TARGET",
    "dns",
    "text",
    "APP_URL's host",
    "The host a workspace's tracking domain must be a CNAME to (docs/tracking.md); set it when tracking traffic enters elsewhere.",
  ),
  v("DNSBL_DOMAIN_ZONES", "dns", "text", "Spamhaus DBL, URIBL, SURBL", "Comma list of domain blocklists the checks query."),
  v("DNSBL_IP_ZONES", "dns", "text", "Spamhaus ZEN, SpamCop, Barracuda", "Comma list of IP blocklists the checks query."),
  // oauth
  v(
    "GOOGLE_CLIENT_ID",
    "oauth",
    "text",
    "unset",
    "Google OAuth app for Gmail / Workspace mailboxes (with GOOGLE_CLIENT_SECRET); see docs/oauth.md.",
  ),
  v("GOOGLE_CLIENT_SECRET", "oauth", "text", "unset", "The Google OAuth app's secret."),
  v("GOOGLE_AUTH_URL", "oauth", "url", "Google's", "Google's consent page (set only to point at a test server)."),
  v("GOOGLE_TOKEN_URL", "oauth", "url", "Google's", "Google's token endpoint (set only to point at a test server)."),
  v("GOOGLE_USERINFO_URL", "oauth", "url", "Google's", "Google's userinfo endpoint (set only to point at a test server)."),
  v("GOOGLE_JWT_TOKEN_URL", "oauth", "url", "Google's", "Google's service-account token endpoint (set only to point at a test server)."),
  v(
    "MICROSOFT_CLIENT_ID",
    "oauth",
    "text",
    "unset",
    "Microsoft Entra app for Outlook / Microsoft 365 mailboxes (with MICROSOFT_CLIENT_SECRET).",
  ),
  v("MICROSOFT_CLIENT_SECRET", "oauth", "text", "unset", "The Microsoft app's secret."),
  v("MICROSOFT_TENANT", "oauth", "text", "`common`", "The Microsoft tenant the app signs in with."),
  v("MICROSOFT_AUTH_URL", "oauth", "url", "Microsoft's", "Microsoft's consent page (set only to point at a test server)."),
  v("MICROSOFT_TOKEN_URL", "oauth", "url", "Microsoft's", "Microsoft's token endpoint (set only to point at a test server)."),
  v("MICROSOFT_ADMIN_CONSENT_URL", "oauth", "url", "Microsoft's", "Microsoft's admin-consent page (set only to point at a test server)."),
  v("MICROSOFT_APP_TOKEN_URL", "oauth", "url", "Microsoft's", "Microsoft's app-token endpoint (set only to point at a test server)."),
  // ai
  v(
    "AI_BASE_URL",
    "ai",
    "url",
    "unset",
    "Any OpenAI-compatible endpoint for classification and drafts; a workspace's own (Settings → AI) wins.",
    true,
  ),
  v("AI_API_KEY", "ai", "text", "unset", "The AI endpoint's key."),
  v("AI_MODEL", "ai", "text", "`gpt-4o-mini`", "The chat model."),
  v("AI_EMBEDDING_MODEL", "ai", "text", "unset", "An embedding model: reply-agent search uses embeddings only when set."),
  v("AI_TIMEOUT_MS", "ai", "positive", "20000", "One AI request's limit before the caller falls back to the built-in rules."),
  v("AGENT_CRAWL_MAX_S", "ai", "seconds", "300", "How long a reply agent's website scan may run."),
  // finder
  v("HUNTER_API_KEY", "finder", "text", "unset", "Enables the Hunter.io finder provider."),
  v("HUNTER_BASE_URL", "finder", "url", "`https://api.hunter.io`", "Hunter's API (set only to point at a test server)."),
  // limits
  v("RATE_LIMIT_API_KEY", "limits", "positive", "300", "Requests per minute per API key.", true),
  v("RATE_LIMIT_SESSION", "limits", "positive", "600", "Requests per minute per dashboard user."),
  v("RATE_LIMIT_IP", "limits", "positive", "200", "Requests per minute per IP without credentials."),
  v("RATE_LIMIT_AUTH", "limits", "positive", "10", "Sign-in and setup attempts per minute per IP."),
  v("RATE_LIMIT_DISABLED", "limits", "flag", "unset", "`1` turns the rate limits off (benchmarks)."),
  // jobs
  v("WORKER_TICK_MS", "jobs", "positive", "5000", "How often the worker's local runner looks for due work."),
  v(
    "RETAIN_EMAIL_BODIES_DAYS",
    "jobs",
    "positive",
    "180",
    "Days a sent email's text and HTML are kept (the clean-up job then clears them; the email, its counts and its conversation row stay).",
  ),
  v(
    "RETAIN_TRACKING_HITS_DAYS",
    "jobs",
    "positive",
    "90",
    "Days each open and click hit is kept (the email keeps its first counted and machine open and click; stats do not change).",
  ),
  v(
    "RETAIN_WEBHOOK_DELIVERIES_DAYS",
    "jobs",
    "positive",
    "30",
    "Days a finished webhook delivery (its body and outcome) stays in the delivery log; pending ones stay.",
  ),
  v(
    "INNGEST_EVENT_KEY",
    "jobs",
    "text",
    "unset",
    "With INNGEST_SIGNING_KEY or INNGEST_BASE_URL: Inngest drives the background jobs through `/api/inngest`.",
  ),
  v("INNGEST_SIGNING_KEY", "jobs", "text", "unset", "Inngest's signing key."),
  v("INNGEST_BASE_URL", "jobs", "url", "unset", "A self-hosted Inngest server."),
  v(
    "WARMUP_SPREAD_S",
    "jobs",
    "positive",
    "36000",
    "Seconds a warming mailbox's daily volume is spread over, from its first warmup tick of the UTC day.",
  ),
  v(
    "SEED_POOL_FILE",
    "jobs",
    "text",
    "unset",
    "JSON array of installation-wide seeds that placement tests probe beside the workspace's seed mailboxes.",
  ),
  v("PLACEMENT_WAIT_S", "jobs", "positive", "600", "How long a placement test reads its seeds before a probe not found counts as MISSING."),
  // cli
  v("OUTREACH_DEBUG", "cli", "flag", "unset", "`1`: the CLI prints the full output of the tools it runs, and stacks with errors."),
  v("OUTREACH_ROOT", "cli", "text", "the checkout", "The project folder (set by bin/outreach.mjs)."),
  v("OUTREACH_CWD", "cli", "text", "the current folder", "The folder `outreach` was run from (set by bin/outreach.mjs)."),
  v("OUTREACH_SKIP_BUILD", "cli", "flag", "unset", "`1`: `start` serves the existing build without checking it is current."),
  v(
    "OUTREACH_BUILD_SKIP_TYPECHECK",
    "cli",
    "flag",
    "unset",
    "Set by `start` for its build: Next skips its own type check (CI runs `npm run typecheck`).",
  ),
  // tests
  v(
    "OUTREACH_CRASH_AT",
    "tests",
    "text",
    "unset",
    "For tests only: the point of the send path or of a branch decision where the worker kills itself (the crash tests).",
  ),
  v(
    "SMTP_VERIFY_PORT",
    "tests",
    "port",
    "25",
    "For tests only: the port MX hosts are asked on by email verification (tests point it at local peers).",
  ),
];

export const GROUP_TITLES: Record<Group, string> = {
  server: "Server",
  database: "Database",
  security: "Security",
  mail: "Mail",
  dns: "DNS",
  oauth: "OAuth apps",
  ai: "AI",
  finder: "Finder",
  limits: "Limits",
  jobs: "Background jobs",
  cli: "CLI",
  tests: "For tests only",
};
