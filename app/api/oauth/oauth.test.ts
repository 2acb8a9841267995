import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { mailboxOauth, mailboxes, memberships } from "@/db/schema";
import { ManualClock, systemClock, useClock } from "@/lib/clock";
import { decryptSecret } from "@/lib/crypto/secretbox";
import { closeAllTransports } from "@/lib/sending/transports";
import { addMember, call, makeWorkspace, sessionCookie, type TestWorkspace } from "@/test/helpers";
import { consent, type OAuthWorld, startOAuthWorld } from "@/test/oauth-setup";
import { GET as PROVIDERS } from "@/app/api/v1/mailboxes/oauth/providers/route";
import { POST as START } from "@/app/api/v1/mailboxes/oauth/[provider]/start/route";
import { PATCH } from "@/app/api/v1/mailboxes/[id]/route";

const clock = new ManualClock(new Date("2026-11-02T09:00:00Z"));
const ANN = { email: "ann@goog.test", sub: "google-ann" };
const MO = { email: "mo@ms.test", sub: "ms-mo", tenant: "contoso-tid" };
let world: OAuthWorld;
let ws: TestWorkspace;
let cookie: string;

beforeAll(async () => {
  useClock(clock);
  world = await startOAuthWorld({ now: () => clock.now(), google: "goog.test", microsoft: "ms.test" });
  ws = await makeWorkspace();
  cookie = await sessionCookie(ws.userId);
}, 60_000);
afterAll(async () => {
  useClock(systemClock);
  closeAllTransports();
  await world.close();
});

describe("connecting a mailbox with OAuth", () => {
  it("says which variables to set when a provider is not configured, in the start route and the provider list", async () => {
    const saved = process.env.MICROSOFT_CLIENT_SECRET;
    delete process.env.MICROSOFT_CLIENT_SECRET;
    try {
      const r = await call(START, "POST", "", { key: ws.fullKey, params: { provider: "microsoft" }, body: {} });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe("BAD_REQUEST");
      expect(r.body.error).toContain("MICROSOFT_CLIENT_SECRET");
      const list = await call(PROVIDERS, "GET", "", { key: ws.readKey });
      expect(list.body.providers).toEqual([
        { provider: "GOOGLE", configured: true, missing: [], redirectUri: "http://app.test/api/oauth/google/callback" },
        {
          provider: "MICROSOFT",
          configured: false,
          missing: ["MICROSOFT_CLIENT_SECRET"],
          redirectUri: "http://app.test/api/oauth/microsoft/callback",
        },
      ]);
    } finally {
      process.env.MICROSOFT_CLIENT_SECRET = saved;
    }
    expect((await call(START, "POST", "", { key: ws.fullKey, params: { provider: "yahoo" }, body: {} })).status).toBe(404);
    expect((await call(START, "POST", "", { key: ws.readKey, params: { provider: "google" }, body: {} })).status).toBe(403);
  });

  it("asks for the mail scopes with PKCE and a signed state, and connects the Google address from the token (201)", async () => {
    world.google.consentAs(ANN);
    const { started, callback } = await consent("google", { cookie }, { body: { senderName: "Ann", loginHint: "ann@goog.test" } });
    const url = new URL(started.body.url);
    expect(url.origin + url.pathname).toBe(world.google.authUrl);
    expect(url.searchParams.get("scope")).toBe("openid email https://mail.google.com/");
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get("access_type")).toBe("offline");
    expect(url.searchParams.get("redirect_uri")).toBe("http://app.test/api/oauth/google/callback");
    expect(callback?.status).toBe(201);
    const m = callback?.body;
    expect(m).toMatchObject({
      email: "ann@goog.test",
      authType: "OAUTH",
      provider: "GOOGLE",
      espClass: "GOOGLE",
      senderName: "Ann",
      created: true,
    });
    expect(m).toMatchObject({ smtpHost: world.smtp.host, smtpPort: world.smtp.port, smtpUsername: "ann@goog.test" });
    // The first login check ran over XOAUTH2 against the peers.
    expect(m.healthStatus).toBe("HEALTHY");
    // …and counts as the mailbox's check: the periodic one does not log in again at once.
    const [saved] = await getDb().select().from(mailboxes).where(eq(mailboxes.id, m.id));
    expect(saved.lastCheckedAt?.toISOString()).toBe(clock.now().toISOString());
    const [grant] = await getDb().select().from(mailboxOauth).where(eq(mailboxOauth.mailboxId, m.id));
    expect(grant).toMatchObject({ provider: "GOOGLE", subject: "google-ann", tenantId: null, revokedAt: null });
    // Sealed at rest like a password.
    expect(grant.refreshTokenEnc.startsWith("v1:")).toBe(true);
    expect(decryptSecret(grant.refreshTokenEnc)).toMatch(/^[\w-]{36}$/);
    expect(grant.accessExpiresAt?.toISOString()).toBe(new Date(clock.now().getTime() + 3600_000).toISOString());
  });

  it("connects a Microsoft address from preferred_username through an API key's flow, with its tenant", async () => {
    world.microsoft.consentAs(MO);
    const { started, callback } = await consent("microsoft", { key: ws.fullKey });
    expect(new URL(started.body.url).searchParams.get("scope")).toBe(
      "openid email profile offline_access https://outlook.office.com/IMAP.AccessAsUser.All https://outlook.office.com/SMTP.Send",
    );
    expect(callback?.status).toBe(201);
    expect(callback?.body).toMatchObject({ email: "mo@ms.test", authType: "OAUTH", provider: "MICROSOFT", healthStatus: "HEALTHY" });
    const [grant] = await getDb().select().from(mailboxOauth).where(eq(mailboxOauth.mailboxId, callback?.body.id));
    expect(grant).toMatchObject({ subject: "ms-mo", tenantId: "contoso-tid" });
  });

  it("replaces the tokens of an address connected again (200, same mailbox, settings kept)", async () => {
    const [before] = await getDb()
      .select()
      .from(mailboxOauth)
      .innerJoin(mailboxes, eq(mailboxes.id, mailboxOauth.mailboxId))
      .where(eq(mailboxes.email, "ann@goog.test"));
    world.google.consentAs(ANN);
    const { callback } = await consent("google", { cookie });
    expect(callback?.status).toBe(200);
    expect(callback?.body).toMatchObject({ id: before.mailboxes.id, created: false, senderName: "Ann" });
    const [after] = await getDb().select().from(mailboxOauth).where(eq(mailboxOauth.mailboxId, before.mailboxes.id));
    expect(decryptSecret(after.refreshTokenEnc)).not.toBe(decryptSecret(before.mailbox_oauth.refreshTokenEnc));
  });

  it("saves the address the token names, never the one typed as a login hint", async () => {
    const bea = { email: "bea@goog.test", sub: "google-bea" };
    world.google.consentAs(bea);
    // The user pre-filled ann's address but signed in at the provider as bea.
    const { started, callback } = await consent("google", { cookie }, { body: { loginHint: "ann@goog.test" } });
    expect(new URL(started.body.url).searchParams.get("login_hint")).toBe("ann@goog.test");
    expect(callback?.status).toBe(201);
    expect(callback?.body).toMatchObject({ email: "bea@goog.test", smtpUsername: "bea@goog.test", imapUsername: "bea@goog.test" });
    const [grant] = await getDb().select().from(mailboxOauth).where(eq(mailboxOauth.mailboxId, callback?.body.id));
    expect(grant.subject).toBe("google-bea");
    // ann's mailbox was left as it was.
    const [ann] = await getDb().select().from(mailboxes).where(eq(mailboxes.email, "ann@goog.test"));
    expect(ann.id).not.toBe(callback?.body.id);
    // The access token is sealed at rest too, like the refresh token.
    expect(grant.accessTokenEnc?.startsWith("v1:")).toBe(true);
  });

  it("redirects a browser to the dashboard with the outcome", async () => {
    world.google.consentAs(ANN);
    const { callback } = await consent("google", { cookie }, { accept: "text/html" });
    expect(callback?.status).toBe(303);
    const to = new URL(callback?.location ?? "");
    expect(to.pathname).toBe("/mailboxes");
    expect(Object.fromEntries(to.searchParams)).toEqual({ oauth: "connected", email: "ann@goog.test", created: "0" });
  });

  it("refuses a tampered, replayed or foreign state, a declined consent and missing scopes with a 400 and the reason", async () => {
    world.google.consentAs(ANN);
    const tampered = await consent("google", { cookie }, { mangle: (u) => u.searchParams.set("state", `${u.searchParams.get("state")}x`) });
    expect(tampered.callback?.status).toBe(400);
    expect(tampered.callback?.body).toMatchObject({ code: "BAD_REQUEST", error: expect.stringContaining("signature") });

    let first: URL | undefined;
    await consent("google", { cookie }, { mangle: (u) => void (first = new URL(u)) });
    const { GET } = await import("@/app/api/oauth/[provider]/callback/route");
    const replay = await GET(new Request(String(first), { headers: { accept: "application/json", cookie } }), {
      params: Promise.resolve({ provider: "google" }),
    });
    expect(replay.status).toBe(400);
    expect((await replay.json()).error).toContain("already used");

    const wrongProvider = await consent("google", { cookie }, { mangle: (u) => void (u.pathname = "/api/oauth/microsoft/callback") });
    expect(wrongProvider.callback?.status).toBe(400);

    world.google.consentAs(null);
    const declined = await consent("google", { cookie }, { accept: "text/html" });
    const to = new URL(declined.callback?.location ?? "");
    expect(to.searchParams.get("oauth")).toBe("error");
    expect(to.searchParams.get("message")).toBe("Google did not grant access: access_denied: The user declined the consent");

    world.google.consentAs(ANN);
    world.google.grantScopes(() => "openid email");
    try {
      const noMail = await consent("google", { cookie });
      expect(noMail.callback?.status).toBe(400);
      expect(noMail.callback?.body.error).toContain("https://mail.google.com/");
    } finally {
      world.google.grantScopes(undefined);
    }
  });

  it("finishes a dashboard flow only for the user who started it, and an expired one for nobody", async () => {
    world.google.consentAs(ANN);
    const other = await addMember(ws.workspaceId, "member");
    const stranger = await consent("google", { cookie }, { cookie: await sessionCookie(other.userId) });
    expect(stranger.callback?.status).toBe(403);
    const signedOut = await consent("google", { cookie }, { cookie: "" });
    expect(signedOut.callback?.status).toBe(403);

    const late = await consent("google", { cookie }, { mangle: () => clock.advance(16 * 60_000) });
    expect(late.callback?.status).toBe(400);
    expect(late.callback?.body.error).toContain("expired");
  });

  it("connects into the workspace the flow was started in, and refuses a starter who has left it since", async () => {
    // The member also owns a workspace of their own: the state names this one, so the mailbox lands here.
    const member = await addMember(ws.workspaceId, "member");
    const cy = { email: "cy@goog.test", sub: "google-cy" };
    world.google.consentAs(cy);
    const { callback } = await consent("google", { key: member.key });
    expect(callback?.status).toBe(201);
    const [saved] = await getDb().select().from(mailboxes).where(eq(mailboxes.id, callback?.body.id));
    expect(saved.workspaceId).toBe(ws.workspaceId);

    const gone = await consent(
      "google",
      { key: member.key },
      {
        beforeCallback: () =>
          getDb()
            .delete(memberships)
            .where(and(eq(memberships.workspaceId, ws.workspaceId), eq(memberships.userId, member.userId))),
      },
    );
    expect(gone.callback?.status).toBe(403);
    expect(gone.callback?.body.error).toContain("no longer in the workspace");
  });

  it("refuses SMTP/IMAP credentials on an OAuth mailbox (PATCH 400 with the reason) but takes other settings", async () => {
    const [m] = await getDb().select().from(mailboxes).where(eq(mailboxes.email, "mo@ms.test"));
    const r = await call(PATCH, "PATCH", "", {
      key: ws.fullKey,
      params: { id: m.id },
      body: { smtpPassword: "x", imapHost: "imap.example.com" },
    });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("VALIDATION_ERROR");
    expect(r.body.error).toContain("OAuth");
    expect(Object.keys(r.body.details.fieldErrors).sort()).toEqual(["imapHost", "smtpPassword"]);
    const ok = await call(PATCH, "PATCH", "", { key: ws.fullKey, params: { id: m.id }, body: { senderName: "Mo" } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ senderName: "Mo", authType: "OAUTH" });
  });
});
