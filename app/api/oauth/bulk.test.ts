import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, inArray } from "drizzle-orm";
import { getDb } from "@/db/client";
import { googleServiceAccounts, mailboxOauth, mailboxOauthAppGrants, mailboxes, oauthBulkJobs, oauthBulkResults } from "@/db/schema";
import { ManualClock, systemClock, useClock } from "@/lib/clock";
import { systemCtx } from "@/lib/ctx";
import { decryptSecret } from "@/lib/crypto/secretbox";
import { checkMailbox } from "@/lib/mailboxes/health-check";
import { runOAuthBulk } from "@/lib/mailboxes/oauth-bulk-run";
import { accessTokenFor, forgetAccessToken } from "@/lib/oauth/tokens";
import { closeAllTransports } from "@/lib/sending/transports";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { type OAuthWorld, startOAuthWorld } from "@/test/oauth-setup";
import { GET as CALLBACK } from "@/app/api/oauth/[provider]/callback/route";
import { POST as ADMIN_CONSENT } from "@/app/api/v1/mailboxes/oauth/[provider]/admin-consent/route";
import { POST as BULK } from "@/app/api/v1/mailboxes/oauth/[provider]/bulk/route";
import { GET as JOB } from "@/app/api/v1/mailboxes/oauth/[provider]/bulk/[jobId]/route";
import { POST as CANCEL } from "@/app/api/v1/mailboxes/oauth/[provider]/bulk/[jobId]/cancel/route";
import { GET as TENANTS } from "@/app/api/v1/mailboxes/oauth/[provider]/tenants/route";
import { DELETE as SA_DELETE, GET as SA_GET, PUT as SA_PUT } from "@/app/api/v1/mailboxes/oauth/[provider]/service-account/route";
import { GET as ISSUES } from "@/app/api/v1/mailboxes/issues/route";

const clock = new ManualClock(new Date("2026-11-02T09:00:00Z"));
let world: OAuthWorld;
let ws: TestWorkspace;
let other: TestWorkspace;

const run = () => runOAuthBulk(systemCtx(undefined, { db: getDb(), clock }));
const job = (provider: string, jobId: string, key = ws.fullKey) => call(JOB, "GET", "", { key, params: { provider, jobId } });
const bulk = (provider: string, body: unknown, key = ws.fullKey) => call(BULK, "POST", "", { key, params: { provider }, body });
const mailboxesOf = (emails: string[]) => getDb().select().from(mailboxes).where(inArray(mailboxes.email, emails));

beforeAll(async () => {
  useClock(clock);
  world = await startOAuthWorld({ now: () => clock.now(), google: "dwd.test", microsoft: "tenant.test" });
  ws = await makeWorkspace();
  other = await makeWorkspace();
  for (const email of ["ann@dwd.test", "bob@dwd.test", "mo@tenant.test", "li@tenant.test", "zed@tenant.test"]) {
    world.addImapUser({ email, sub: email });
  }
  world.apps.delegate("ann@dwd.test");
  world.apps.delegate("bob@dwd.test");
  world.apps.addTenantMailbox("contoso-tid", "mo@tenant.test");
  world.apps.addTenantMailbox("contoso-tid", "li@tenant.test");
}, 60_000);
afterAll(async () => {
  useClock(systemClock);
  closeAllTransports();
  await world.close();
});

describe("Google Workspace domain-wide delegation", () => {
  it("needs the service account first, and refuses an unusable key with 400 on its field", async () => {
    const none = await bulk("google", { emails: ["ann@dwd.test"] });
    expect(none.status).toBe(400);
    expect(none.body.error).toContain("service-account");
    const bad = await call(SA_PUT, "PUT", "", {
      key: ws.fullKey,
      params: { provider: "google" },
      body: { key: { ...world.apps.serviceAccount, private_key: `-----BEGIN PRIVATE KEY-----${"x".repeat(120)}` } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("VALIDATION_ERROR");
    expect(Object.keys(bad.body.details.fieldErrors)).toEqual(["key.private_key"]);
    const missing = await call(SA_PUT, "PUT", "", { key: ws.fullKey, params: { provider: "google" }, body: { key: "{}" } });
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.details.fieldErrors).sort()).toEqual(["key.client_email", "key.private_key"]);
    const read = await call(SA_PUT, "PUT", "", {
      key: ws.readKey,
      params: { provider: "google" },
      body: { key: world.apps.serviceAccount },
    });
    expect(read.status).toBe(403);
    const ms = await call(SA_GET, "GET", "", { key: ws.fullKey, params: { provider: "microsoft" } });
    expect(ms.status).toBe(404);
  });

  it("stores the key sealed and shows it without the private key", async () => {
    const put = await call(SA_PUT, "PUT", "", {
      key: ws.fullKey,
      params: { provider: "google" },
      body: { key: JSON.stringify(world.apps.serviceAccount) },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      clientEmail: world.apps.serviceAccount.client_email,
      clientId: "112233445566778899",
      scope: "https://mail.google.com/",
    });
    expect(JSON.stringify(put.body)).not.toContain("PRIVATE KEY");
    const [row] = await getDb().select().from(googleServiceAccounts).where(eq(googleServiceAccounts.workspaceId, ws.workspaceId));
    expect(row.privateKeyEnc.startsWith("v1:")).toBe(true);
    expect(decryptSecret(row.privateKeyEnc)).toBe(world.apps.serviceAccount.private_key);
    expect((await call(SA_GET, "GET", "", { key: other.fullKey, params: { provider: "google" } })).status).toBe(404);
    // Read back with its own schema (call() checks the answer against the contract), then removed and gone.
    const shown = await call(SA_GET, "GET", "", { key: ws.readKey, params: { provider: "google" } });
    expect([shown.status, shown.body.clientEmail]).toEqual([200, world.apps.serviceAccount.client_email]);
    const removed = await call(SA_DELETE, "DELETE", "", { key: ws.fullKey, params: { provider: "google" } });
    expect(removed.body).toEqual({ deleted: true });
    expect((await call(SA_GET, "GET", "", { key: ws.readKey, params: { provider: "google" } })).status).toBe(404);
    await call(SA_PUT, "PUT", "", {
      key: ws.fullKey,
      params: { provider: "google" },
      body: { key: JSON.stringify(world.apps.serviceAccount) },
    });
  });

  it("validates the addresses (400 VALIDATION_ERROR on emails.<i>) and the caller (403 for a read key)", async () => {
    const empty = await bulk("google", { emails: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe("VALIDATION_ERROR");
    const bad = await bulk("google", { emails: ["ann@dwd.test", "not-an-address"] });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("VALIDATION_ERROR");
    expect(Object.keys(bad.body.details.fieldErrors)).toEqual(["emails.1"]);
    expect((await bulk("google", { emails: ["ann@dwd.test"], extra: 1 })).status).toBe(400);
    expect((await bulk("google", { emails: ["ann@dwd.test"] }, ws.readKey)).status).toBe(403);
    expect((await bulk("yahoo", { emails: ["ann@dwd.test"] })).status).toBe(404);
  });

  let firstIds: string[] = [];
  it("connects each delegated address after an XOAUTH2 SMTP and IMAP login, lists the others as failed, and counts progress", async () => {
    const grantsBefore = world.apps.stats.jwtGrants;
    const started = await bulk("google", { emails: ["ann@dwd.test", "bob@dwd.test", "carl@dwd.test", "ANN@dwd.test"], senderName: "Team" });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ status: "QUEUED", total: 3 });
    const queued = await job("google", started.body.jobId);
    expect(queued.body).toMatchObject({ status: "QUEUED", total: 3, done: 0, connected: 0, failed: 0 });
    expect(await run()).toEqual({ jobs: 1, addresses: 3 });
    const done = await job("google", started.body.jobId);
    expect(done.body).toMatchObject({ status: "COMPLETED", total: 3, done: 3, connected: 2, failed: 1, error: null });
    expect(done.body.results.map((r: { email: string; status: string }) => [r.email, r.status])).toEqual([
      ["ann@dwd.test", "CONNECTED"],
      ["bob@dwd.test", "CONNECTED"],
      ["carl@dwd.test", "FAILED"],
    ]);
    expect(done.body.results[2].error).toBe("Google refused the token request: invalid_grant: Invalid email or User ID");
    expect(done.body.results[0].created).toBe(true);
    expect(world.apps.stats.jwtGrants - grantsBefore).toBe(2);
    const rows = await mailboxesOf(["ann@dwd.test", "bob@dwd.test", "carl@dwd.test"]);
    expect(rows).toHaveLength(2);
    for (const m of rows) {
      expect(m).toMatchObject({
        authType: "OAUTH",
        provider: "GOOGLE",
        senderName: "Team",
        smtpHost: world.smtp.host,
        loginFailingSince: null,
      });
    }
    firstIds = rows.map((r) => r.id).sort();
    const [grant] = await getDb().select().from(mailboxOauthAppGrants).where(eq(mailboxOauthAppGrants.mailboxId, firstIds[0]));
    expect(grant.kind).toBe("SERVICE_ACCOUNT");
  });

  it("mints a new JWT grant when the token expires (no refresh token), which the servers accept", async () => {
    const [ann] = await mailboxesOf(["ann@dwd.test"]);
    const first = await accessTokenFor(getDb(), clock, ann.id);
    expect(world.apps.validToken("ann@dwd.test", first)).toBe(true);
    const grants = world.apps.stats.jwtGrants;
    clock.advance(2 * 3600_000);
    forgetAccessToken();
    const second = await accessTokenFor(getDb(), clock, ann.id);
    expect(second).not.toBe(first);
    expect(world.apps.stats.jwtGrants).toBe(grants + 1);
    expect(world.apps.validToken("ann@dwd.test", second)).toBe(true);
    expect(world.apps.currentToken("ann@dwd.test")).toBe(second);
  });

  it("reconnects on a second run without duplicates (created: false, same mailboxes)", async () => {
    const again = await bulk("google", { emails: ["bob@dwd.test", "ann@dwd.test"] });
    await run();
    const done = await job("google", again.body.jobId);
    expect(done.body).toMatchObject({ status: "COMPLETED", total: 2, done: 2, connected: 2, failed: 0 });
    expect(done.body.results.every((r: { created: boolean }) => r.created === false)).toBe(true);
    const rows = await mailboxesOf(["ann@dwd.test", "bob@dwd.test"]);
    expect(rows.map((r) => r.id).sort()).toEqual(firstIds);
  });

  it("resumes a job whose worker died holding it: once the lease runs out, only the addresses still PENDING are tried", async () => {
    const started = await bulk("google", { emails: ["ann@dwd.test", "bob@dwd.test"] });
    const jobId = started.body.jobId;
    // A worker connected ann, then died with the lease.
    await getDb()
      .update(oauthBulkResults)
      .set({ status: "CONNECTED", finishedAt: clock.now() })
      .where(and(eq(oauthBulkResults.jobId, jobId), eq(oauthBulkResults.email, "ann@dwd.test")));
    await getDb()
      .update(oauthBulkJobs)
      .set({ status: "RUNNING", leaseUntil: new Date(clock.now().getTime() + 60_000), done: 1, connected: 1 })
      .where(eq(oauthBulkJobs.id, jobId));
    expect(await run()).toEqual({ jobs: 0, addresses: 0 });
    clock.advance(2 * 60_000);
    const grants = world.apps.stats.jwtGrants;
    expect(await run()).toEqual({ jobs: 1, addresses: 1 });
    expect(world.apps.stats.jwtGrants - grants).toBe(1);
    expect((await job("google", jobId)).body).toMatchObject({ status: "COMPLETED", total: 2, done: 2, connected: 2, failed: 0 });
  });

  it("is 404 from another workspace and for the other provider's path", async () => {
    const started = await bulk("google", { emails: ["ann@dwd.test"] });
    expect((await job("google", started.body.jobId, other.fullKey)).status).toBe(404);
    expect((await job("microsoft", started.body.jobId)).status).toBe(404);
    expect((await job("google", started.body.jobId, ws.readKey)).status).toBe(200);
    const cancelled = await call(CANCEL, "POST", "", { key: ws.fullKey, params: { provider: "google", jobId: started.body.jobId } });
    expect(cancelled.body).toMatchObject({ status: "CANCELLED", done: 0 });
    expect(await run()).toEqual({ jobs: 0, addresses: 0 });
  });
});

describe("a delegated mailbox that Google stops accepting", () => {
  it("shows LOGIN_FAILING with Google's reason, and a bulk run after the fix reconnects it", async () => {
    world.apps.withdraw("bob@dwd.test");
    clock.advance(2 * 3600_000);
    forgetAccessToken();
    const [bob] = await mailboxesOf(["bob@dwd.test"]);
    expect((await checkMailbox(getDb(), clock, bob)).smtp.ok).toBe(false);
    const [failing] = await mailboxesOf(["bob@dwd.test"]);
    expect(failing.loginFailingSince).not.toBeNull();
    expect(failing.loginError).toContain("invalid_grant: Invalid email or User ID");
    const [revoked] = await getDb().select().from(mailboxOauth).where(eq(mailboxOauth.mailboxId, bob.id));
    expect(revoked.revokedAt).not.toBeNull();
    // The fix names what to repair for a bulk-connected mailbox: the delegation, then the bulk connect again.
    const issues = await call(ISSUES, "GET", "/mailboxes/issues", { key: ws.readKey });
    const issue = issues.body.issues.find((i: { mailboxId: string }) => i.mailboxId === bob.id);
    expect(issue).toMatchObject({ kind: "LOGIN_FAILING", fix: expect.stringContaining("domain-wide delegation") });
    expect(issue.fix).toContain("run the Google bulk connect again");

    world.apps.delegate("bob@dwd.test");
    const again = await bulk("google", { emails: ["bob@dwd.test"] });
    await run();
    expect((await job("google", again.body.jobId)).body.results[0]).toMatchObject({
      status: "CONNECTED",
      mailboxId: bob.id,
      created: false,
    });
    const [healed] = await mailboxesOf(["bob@dwd.test"]);
    expect(healed.loginFailingSince).toBeNull();
    const [grant] = await getDb().select().from(mailboxOauth).where(eq(mailboxOauth.mailboxId, bob.id));
    expect(grant.revokedAt).toBeNull();
  });
});

describe("Microsoft 365 admin consent and app-only tokens", () => {
  it("needs a consented tenant first (400 on tenantId)", async () => {
    const r = await bulk("microsoft", { emails: ["mo@tenant.test"] });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("VALIDATION_ERROR");
    expect(Object.keys(r.body.details.fieldErrors)).toEqual(["tenantId"]);
    expect((await call(ADMIN_CONSENT, "POST", "", { key: ws.fullKey, params: { provider: "google" }, body: {} })).status).toBe(404);
    expect((await call(ADMIN_CONSENT, "POST", "", { key: ws.readKey, params: { provider: "microsoft" }, body: {} })).status).toBe(403);
  });

  it("records the tenant an admin consented for at the callback", async () => {
    const started = await call(ADMIN_CONSENT, "POST", "", { key: ws.fullKey, params: { provider: "microsoft" }, body: {} });
    expect(started.status).toBe(200);
    const url = new URL(started.body.url);
    expect(url.origin + url.pathname).toBe(`${world.apps.url}/organizations/adminconsent`);
    expect(url.searchParams.get("client_id")).toBe("m-client");
    expect(url.searchParams.get("redirect_uri")).toBe("http://app.test/api/oauth/microsoft/callback");
    world.apps.consentFor("contoso-tid");
    const atPeer = await fetch(started.body.url, { redirect: "manual" });
    const back = new Request(atPeer.headers.get("location") ?? "", { headers: { accept: "application/json" } });
    const res = await CALLBACK(back, { params: Promise.resolve({ provider: "microsoft" }) });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ tenantId: "contoso-tid" });
    // A browser (the tenant's admin, often without an Outreach account) gets a page saying so.
    const again = await call(ADMIN_CONSENT, "POST", "", {
      key: ws.fullKey,
      params: { provider: "microsoft" },
      body: { tenant: "contoso.example" },
    });
    expect(new URL(again.body.url).pathname).toBe("/contoso.example/adminconsent");
    const page = await fetch(again.body.url, { redirect: "manual" });
    const html = await CALLBACK(new Request(page.headers.get("location") ?? ""), { params: Promise.resolve({ provider: "microsoft" }) });
    expect(html.status).toBe(200);
    expect(await html.text()).toContain("Admin consent recorded for the Microsoft tenant <code>contoso-tid</code>");
    // Another workspace cannot record the same tenant (the redirect naming it is not signed by Microsoft).
    const theirs = await call(ADMIN_CONSENT, "POST", "", { key: other.fullKey, params: { provider: "microsoft" }, body: {} });
    const theirBack = await fetch(theirs.body.url, { redirect: "manual" });
    const taken = await CALLBACK(new Request(theirBack.headers.get("location") ?? "", { headers: { accept: "application/json" } }), {
      params: Promise.resolve({ provider: "microsoft" }),
    });
    expect(taken.status).toBe(409);
    expect((await taken.json()).code).toBe("CONFLICT");
    const tenants = await call(TENANTS, "GET", "", { key: ws.readKey, params: { provider: "microsoft" } });
    expect(tenants.body.tenants.map((t: { tenantId: string }) => t.tenantId)).toEqual(["contoso-tid"]);
    expect((await call(TENANTS, "GET", "", { key: other.readKey, params: { provider: "microsoft" } })).body).toEqual({ tenants: [] });
    // The state is used once.
    const replay = await CALLBACK(new Request(back.url, { headers: { accept: "application/json" } }), {
      params: Promise.resolve({ provider: "microsoft" }),
    });
    expect(replay.status).toBe(400);
  });

  it("connects the tenant's mailboxes with app-only tokens, verified by XOAUTH2; one the app may not open fails with the server's reason", async () => {
    const before = world.apps.stats.clientCredentials;
    const started = await bulk("microsoft", { emails: ["mo@tenant.test", "li@tenant.test", "zed@tenant.test"], warmupGroup: "ms" });
    expect(started.status).toBe(202);
    await run();
    const done = await job("microsoft", started.body.jobId);
    expect(done.body).toMatchObject({ status: "COMPLETED", tenantId: "contoso-tid", total: 3, done: 3, connected: 2, failed: 1 });
    expect(done.body.results[2]).toMatchObject({ email: "zed@tenant.test", status: "FAILED", mailboxId: null });
    expect(done.body.results[2].error).toMatch(/^SMTP login with XOAUTH2 failed: /);
    // One app-only token serves the whole tenant.
    expect(world.apps.stats.clientCredentials - before).toBe(1);
    const rows = await mailboxesOf(["mo@tenant.test", "li@tenant.test", "zed@tenant.test"]);
    expect(rows.map((r) => r.email).sort()).toEqual(["li@tenant.test", "mo@tenant.test"]);
    const [grant] = await getDb().select().from(mailboxOauth).where(eq(mailboxOauth.mailboxId, rows[0].id));
    expect(grant).toMatchObject({ provider: "MICROSOFT", tenantId: "contoso-tid", revokedAt: null });
    expect(rows[0]).toMatchObject({ authType: "OAUTH", warmupGroup: "ms" });

    // Expiry: the refresh path asks for a new client-credentials token.
    clock.advance(2 * 3600_000);
    forgetAccessToken();
    const fresh = await accessTokenFor(getDb(), clock, rows[0].id);
    expect(world.apps.validToken(rows[0].email, fresh)).toBe(true);
    expect(world.apps.stats.clientCredentials - before).toBe(2);

    const again = await bulk("microsoft", { emails: ["li@tenant.test", "mo@tenant.test"], tenantId: "contoso-tid" });
    await run();
    expect((await job("microsoft", again.body.jobId)).body).toMatchObject({ connected: 2, failed: 0 });
    expect((await mailboxesOf(["mo@tenant.test", "li@tenant.test"])).map((r) => r.id).sort()).toEqual(rows.map((r) => r.id).sort());
    expect((await bulk("microsoft", { emails: ["mo@tenant.test"], tenantId: "other-tid" })).status).toBe(400);

    // The tenant withdraws the consent: the next check cannot get a token and shows LOGIN_FAILING with Microsoft's reason.
    world.apps.withdraw("contoso-tid");
    clock.advance(2 * 3600_000);
    forgetAccessToken();
    const [mo] = await mailboxesOf(["mo@tenant.test"]);
    const outcome = await checkMailbox(getDb(), clock, mo);
    expect(outcome.smtp.ok).toBe(false);
    const [after] = await mailboxesOf(["mo@tenant.test"]);
    expect(after.loginFailingSince).not.toBeNull();
    expect(after.loginError).toContain("unauthorized_client: AADSTS700016");
  });
});
