import { spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { embeddedUrl, PASSWORD_FILE } from "../db/embedded";
import { removeDataDir } from "../test/checkout";
import { startDnsPeer } from "../test/peers/dns";
import { startImapPeer } from "../test/peers/imap";
import { startOAuthPeer } from "../test/peers/oauth";
import { startAppGrantPeer } from "../test/peers/oauth-apps";
import { startSmtpPeer } from "../test/peers/smtp";
import { startVerifyPeers } from "../test/peers/verify-peers";
import {
  E2E_CAMPAIGN_SENDER,
  E2E_MAILBOX,
  E2E_GOOGLE_BULK_MAILBOX,
  E2E_MS_BULK_TENANT,
  E2E_MS_OAUTH_USER,
  E2E_OAUTH_USER,
  E2E_REFUSED_RECIPIENT,
  E2E_STATS_SENDER,
} from "./support/session";
import { freePort } from "../test/peers/ports";

const root = path.resolve(import.meta.dirname, "..");

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The DNS the app sees (DNS_SERVERS): mail.test publishes SPF, DMARC and MX but no DKIM key, so the
 * domain checks give known answers without the internet; every other name is NXDOMAIN (not listed on
 * any blocklist, no MX).
 */
const ZONE = {
  TXT: { "mail.test": ["v=spf1 ip4:127.0.0.1 -all"], "_dmarc.mail.test": ["v=DMARC1; p=quarantine"] },
  MX: { "mail.test": [{ exchange: "mx.mail.test", priority: 10 }], "finder.test": [{ exchange: "mx.finder.test", priority: 10 }] },
  // finder.test: the finder's SMTP verification peer (a catch-all on 127.0.0.2, SMTP_VERIFY_PORT).
  A: { "mx.mail.test": ["127.0.0.1"], "mx.finder.test": ["127.0.0.2"] },
};

function tail(file: string, lines = 60): string {
  try {
    return readFileSync(file, "utf8").split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

/**
 * Starts the app the way an operator does — `outreach start` (embedded Postgres, migrations, a build
 * when the sources changed, next start and the worker) — on a fresh data folder and free ports, waits
 * for /api/health, and reads the first-run setup token from the database.
 * Before the app it starts real mail peers (smtp-server and hoodiecrow IMAP, plain text on 127.0.0.1)
 * and a DNS peer; they run until the teardown. The worker ticks every second and checks mailbox logins
 * every 2 s, so a connected mailbox turns healthy within one health-check run.
 * `E2E_COMMAND=dev` runs `outreach dev` instead, for quick iteration without a production build.
 */
export default async function globalSetup() {
  const users = {
    [E2E_MAILBOX.email]: E2E_MAILBOX.password,
    [E2E_CAMPAIGN_SENDER.email]: E2E_CAMPAIGN_SENDER.password,
    [E2E_STATS_SENDER.email]: E2E_STATS_SENDER.password,
  };
  // Two OAuth peers stand in for Google and Microsoft (oauth.spec.ts); the mail peers take their bearer tokens over XOAUTH2.
  const oauth = await startOAuthPeer({ clientId: "e2e-google", clientSecret: "e2e-google-secret", flavor: "google" });
  oauth.consentAs(E2E_OAUTH_USER);
  const ms = await startOAuthPeer({ clientId: "e2e-microsoft", clientSecret: "e2e-microsoft-secret", flavor: "microsoft" });
  ms.consentAs(E2E_MS_OAUTH_USER);
  // The bulk flows' grants (oauth.spec.ts): Microsoft's admin consent and app-only tokens for E2E_MS_BULK_TENANT's mailboxes.
  const apps = await startAppGrantPeer({
    now: () => new Date(),
    microsoft: { clientId: "e2e-microsoft", clientSecret: "e2e-microsoft-secret" },
  });
  apps.consentFor(E2E_MS_BULK_TENANT.tenant);
  apps.addTenantMailbox(E2E_MS_BULK_TENANT.tenant, E2E_MS_BULK_TENANT.mailbox);
  // …and Google's JWT bearer grant for the service account the spec pastes (E2E_GOOGLE_SERVICE_ACCOUNT), delegated for one address.
  apps.delegate(E2E_GOOGLE_BULK_MAILBOX);
  const peerOf = (u: string) => (u.toLowerCase() === E2E_MS_OAUTH_USER.email ? ms : oauth);
  const smtp = await startSmtpPeer({
    users,
    rejectRecipients: [E2E_REFUSED_RECIPIENT],
    xoauth2: (u, t) => peerOf(u).validToken(u, t) || apps.validToken(u, t),
  });
  const imap = await startImapPeer({ users, xoauth2: (u) => peerOf(u).currentToken(u) ?? apps.currentToken(u) });
  imap.addUser(E2E_OAUTH_USER.email);
  imap.addUser(E2E_MS_OAUTH_USER.email);
  imap.addUser(E2E_MS_BULK_TENANT.mailbox);
  imap.addUser(E2E_GOOGLE_BULK_MAILBOX);
  const dns = await startDnsPeer(ZONE);
  const verify = await startVerifyPeers([{ kind: "catch-all" }]);
  // Bounded: a server that waits for a stuck client must not hang the teardown.
  const closePeers = () =>
    Promise.race([
      Promise.allSettled([
        smtp.close(),
        imap.close(),
        Promise.resolve(dns.close()),
        verify.close(),
        oauth.close(),
        ms.close(),
        apps.close(),
      ]),
      sleep(5000),
    ]);

  const dataDir = mkdtempSync(path.join(tmpdir(), "outreach-e2e-"));
  const port = await freePort();
  const pgPort = await freePort();
  const baseURL = `http://localhost:${port}`;
  const logFile = path.join(dataDir, "app.log");
  const log = openSync(logFile, "a");
  // oauth.test's and oauth-ms.test's mailboxes are served by the mail peers (Google's and Microsoft's hosts otherwise).
  const providersFile = path.join(dataDir, "providers.json");
  const peerHosts = {
    smtpHost: smtp.host,
    smtpPort: smtp.port,
    smtpSecurity: "NONE",
    imapHost: imap.host,
    imapPort: imap.port,
    imapSecurity: "NONE",
  };
  writeFileSync(providersFile, JSON.stringify({ "oauth.test": peerHosts, "oauth-ms.test": peerHosts }));

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    OUTREACH_DATA_DIR: dataDir,
    PORT: String(port),
    EMBEDDED_PG_PORT: String(pgPort),
    OUTREACH_SECRET: "e2e-secret",
    WORKER_TICK_MS: "1000",
    // Every spec signs in from 127.0.0.1, some several people at once: the per-IP sign-in limit (10 a
    // minute by default) would refuse the suite itself. The limits are tested in lib/auth/sign-in.test.ts.
    RATE_LIMIT_AUTH: "120",
    MAILBOX_CHECK_INTERVAL_S: "2",
    // Each mailbox's IMAP folders are due every 2 s (not 60); the sync job looks every 5 s, so a reply a spec appends shows within seconds.
    IMAP_POLL_INTERVAL_S: "2",
    DNS_SERVERS: dns.server,
    // The finder verifies addresses at finder.test on the verification peer (it accepts any recipient).
    SMTP_VERIFY_PORT: String(verify.port),
    SMTP_VERIFY_DELAY_MS: "0",
    // Webhook receivers started by the specs listen on 127.0.0.1, which the SSRF guard refuses otherwise.
    OUTBOUND_ALLOW_HOSTS: "127.0.0.1",
    // Google and Microsoft OAuth against the peers.
    ...oauth.env("GOOGLE"),
    MAIL_PROVIDERS_FILE: providersFile,
  };
  // Whatever the developer's shell points at, this run gets its own database and URLs.
  for (const k of ["DATABASE_URL", "APP_URL", "NEXTAUTH_URL", "NEXTAUTH_SECRET"]) delete env[k];
  Object.assign(env, ms.env("MICROSOFT"), apps.env);

  const command = process.env.E2E_COMMAND === "dev" ? "dev" : "start";
  // detached: its own process group, so the teardown stops next, the worker and Postgres together.
  const app = spawn(process.execPath, [path.join(root, "bin", "outreach.mjs"), command], {
    cwd: root,
    env,
    detached: true,
    stdio: ["ignore", log, log],
  });
  let exited: number | null | undefined;
  app.on("exit", (code) => (exited = code));

  const stop = async () => {
    if (exited === undefined && app.pid) {
      try {
        process.kill(-app.pid, "SIGTERM");
      } catch {
        /* already gone */
      }
      for (let i = 0; i < 100 && exited === undefined; i++) await sleep(100);
      if (exited === undefined) {
        try {
          process.kill(-app.pid, "SIGKILL");
        } catch {
          /* already gone */
        }
      }
    }
    closeSync(log);
    await closePeers();
    if (process.env.E2E_KEEP_DATA !== "1") removeDataDir(dataDir);
  };

  try {
    // The first start may include a production build: minutes on a small machine.
    const deadline = Date.now() + 15 * 60_000;
    for (;;) {
      if (exited !== undefined) throw new Error(`outreach ${command} exited with code ${exited}`);
      if (Date.now() > deadline) throw new Error(`${baseURL}/api/health did not answer ok in time`);
      const ok = await fetch(`${baseURL}/api/health`)
        .then(async (r) => r.ok && (await r.json()).ok === true)
        .catch(() => false);
      if (ok) break;
      await sleep(1000);
    }

    const password = readFileSync(path.join(dataDir, PASSWORD_FILE), "utf8").trim();
    const sql = postgres(embeddedUrl(pgPort, password, "outreach"), { max: 1, onnotice: () => {} });
    let token: string | undefined;
    try {
      [{ value: token } = { value: undefined }] = await sql<{ value: string }[]>`select value from app_settings where key = 'setup_token'`;
    } finally {
      await sql.end({ timeout: 5 });
    }
    if (!token) throw new Error("No setup token in app_settings: the fresh instance should have printed a setup link");

    // Workers start after this function and inherit the environment; the file is for a human debugging.
    process.env.E2E_BASE_URL = baseURL;
    process.env.E2E_SETUP_TOKEN = token;
    process.env.E2E_DATA_DIR = dataDir;
    // Specs that need history no dashboard flow can make in time (copy fatigue) write it to this database.
    process.env.E2E_PG_PORT = String(pgPort);
    process.env.E2E_SMTP_PORT = String(smtp.port);
    process.env.E2E_IMAP_PORT = String(imap.port);
    // The service account key the OAuth spec pastes into the Google bulk connect (its public key is the peer's).
    process.env.E2E_GOOGLE_SERVICE_ACCOUNT = JSON.stringify(apps.serviceAccount);
    const peers = { smtpPort: smtp.port, imapPort: imap.port, dns: dns.server };
    writeFileSync(path.join(dataDir, "e2e.json"), JSON.stringify({ baseURL, token, logFile, ...peers }, null, 2));
  } catch (e) {
    const lastLines = tail(logFile); // read before stop() removes the data folder
    await stop();
    throw new Error(`${(e as Error).message}\n--- app log (last lines) ---\n${lastLines}`);
  }

  return stop;
}
