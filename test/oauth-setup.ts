import { GET as CALLBACK } from "../app/api/oauth/[provider]/callback/route";
import { POST as START } from "../app/api/v1/mailboxes/oauth/[provider]/start/route";
import { call } from "./helpers";
import { localProvidersFile } from "./mail-setup";
import { startImapPeer } from "./peers/imap";
import { type OAuthUser, startOAuthPeer } from "./peers/oauth";
import { startAppGrantPeer } from "./peers/oauth-apps";
import { startSmtpPeer } from "./peers/smtp";

/**
 * Two OAuth peers (a Google-like and a Microsoft-like one), one SMTP server and one IMAP server that log
 * users in with XOAUTH2 only when the OAuth peer that issued the bearer token says it is valid now,
 * and MAIL_PROVIDERS_FILE pointing `domains` at them. `now` is the test's clock.
 */
export async function startOAuthWorld(opts: { now: () => Date; google: string; microsoft: string }) {
  const google = await startOAuthPeer({ clientId: "g-client", clientSecret: "g-secret", flavor: "google", now: opts.now });
  const microsoft = await startOAuthPeer({ clientId: "m-client", clientSecret: "m-secret", flavor: "microsoft", now: opts.now });
  const apps = await startAppGrantPeer({ now: opts.now, microsoft: { clientId: "m-client", clientSecret: "m-secret" } });
  const peers = [google, microsoft, apps];
  const smtp = await startSmtpPeer({ users: {}, xoauth2: (user, token) => peers.some((p) => p.validToken(user, token)) });
  const imap = await startImapPeer({
    users: {},
    xoauth2: (user) => google.currentToken(user) ?? microsoft.currentToken(user) ?? apps.currentToken(user),
  });
  const file = localProvidersFile({ smtp, imap }, [opts.google, opts.microsoft]);
  const env: Record<string, string> = {
    ...google.env("GOOGLE"),
    ...microsoft.env("MICROSOFT"),
    ...apps.env,
    MAIL_PROVIDERS_FILE: file,
    APP_URL: "http://app.test",
  };
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  return {
    google,
    microsoft,
    apps,
    smtp,
    imap,
    /** Lets `user` log in to the IMAP server (hoodiecrow keeps one store; XOAUTH2 checks the token at the OAuth peer). */
    addImapUser(user: OAuthUser) {
      imap.addUser(user.email);
    },
    async close() {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      await smtp.close();
      await imap.close();
      await google.close();
      await microsoft.close();
      await apps.close();
    },
  };
}

export type OAuthWorld = Awaited<ReturnType<typeof startOAuthWorld>>;

/** The credential that starts the consent: an API key or a dashboard session cookie. */
export type Starter = { key: string } | { cookie: string };

/**
 * The consent round trip as a browser makes it: POST …/start, follow the consent URL to the peer (which
 * signs in whoever `consentAs` set and redirects back), then GET the callback. `accept` picks the
 * callback's JSON answer or its redirect to the dashboard; `cookie` is what the browser presents there.
 */
export async function consent(
  provider: "google" | "microsoft",
  starter: Starter,
  opts: {
    body?: Record<string, unknown>;
    accept?: string;
    cookie?: string;
    mangle?: (callback: URL) => void;
    /** Runs after the consent at the provider, before the browser comes back (e.g. the starter leaves the workspace). */
    beforeCallback?: () => Promise<unknown>;
  } = {},
) {
  const started = await call(START, "POST", "", { ...starter, params: { provider }, body: opts.body ?? {} });
  if (started.status !== 200) return { started, callback: undefined };
  const atPeer = await fetch(started.body.url, { redirect: "manual" });
  const back = new URL(atPeer.headers.get("location") ?? "");
  opts.mangle?.(back);
  await opts.beforeCallback?.();
  const headers: Record<string, string> = { accept: opts.accept ?? "application/json" };
  const cookie = opts.cookie ?? ("cookie" in starter ? starter.cookie : undefined);
  if (cookie) headers.cookie = cookie;
  // The provider segment of the callback path, as Next.js would route it (a test may have changed it).
  const res = await CALLBACK(new Request(back.toString(), { headers }), {
    params: Promise.resolve({ provider: back.pathname.split("/")[3] }),
  });
  const text = await res.text();
  const body = text ? JSON.parse(text) : null;
  return { started, callback: { status: res.status, body, location: res.headers.get("location"), url: back } };
}

export { startAppGrantPeer };
