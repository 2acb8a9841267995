import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { emails, mailboxOauth, mailboxes, replies } from "@/db/schema";
import { LocalRunner } from "@/inngest/runner";
import { ManualClock, systemClock, useClock } from "@/lib/clock";
import { systemCtx } from "@/lib/ctx";
import { syncMailbox } from "@/lib/inbox/sync";
import { sendDue } from "@/lib/sending/engine";
import { closeAllTransports } from "@/lib/sending/transports";
import { launchCampaign, workspaceEvents } from "@/test/campaign-setup";
import { call, makeWorkspace, sessionCookie, type TestWorkspace } from "@/test/helpers";
import { appendMessages } from "@/test/mail-messages";
import { consent, type OAuthWorld, startOAuthWorld } from "@/test/oauth-setup";
import { GET as ISSUES } from "@/app/api/v1/mailboxes/issues/route";
import { POST as TEST_SEND } from "@/app/api/v1/mailboxes/[id]/test-send/route";
import { GET as MAILBOX } from "@/app/api/v1/mailboxes/[id]/route";
import { POST as START_WARMUP } from "@/app/api/v1/mailboxes/[id]/start-warmup/route";
import { mailboxHealthJob } from "@/inngest/functions/mailbox-health";
import { accessTokenFor, forgetAccessToken } from "./tokens";

const clock = new ManualClock(new Date("2026-11-02T09:00:00Z"));
const ANN = { email: "ann@goog.test", sub: "google-ann" };
const MO = { email: "mo@ms.test", sub: "ms-mo", tenant: "contoso-tid" };
let world: OAuthWorld;
let ws: TestWorkspace;
let cookie: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  useClock(clock);
  process.env.MAILBOX_CHECK_INTERVAL_S = "300";
  world = await startOAuthWorld({ now: () => clock.now(), google: "goog.test", microsoft: "ms.test" });
  ws = await makeWorkspace();
  cookie = await sessionCookie(ws.userId);
  world.addImapUser(ANN);
  world.addImapUser(MO);
  world.google.consentAs(ANN);
  world.microsoft.consentAs(MO);
  ids.ann = (await consent("google", { cookie })).callback?.body.id;
  ids.mo = (await consent("microsoft", { cookie })).callback?.body.id;
  await getDb().update(mailboxes).set({ dailySendCap: 100 });
}, 60_000);
afterAll(async () => {
  useClock(systemClock);
  closeAllTransports();
  await world.close();
});

const sentBy = (user: string) => world.smtp.received.filter((r) => r.user === user);
const grantOf = async (id: string) => (await getDb().select().from(mailboxOauth).where(eq(mailboxOauth.mailboxId, id)))[0];
const runCheck = () => new LocalRunner(getDb(), clock, [mailboxHealthJob]).tick();
const job = () => systemCtx(undefined, { db: getDb(), clock });

describe("sending and reading over XOAUTH2", () => {
  it.each([
    ["Google-like", "ann", "ann@goog.test"],
    ["Microsoft-like", "mo", "mo@ms.test"],
  ])("a %s mailbox sends a campaign email and reads the reply with its bearer token", async (_label, who, address) => {
    const { launched } = await launchCampaign(ws.fullKey, {
      campaign: { name: `OAuth ${who}`, sendDaysOfWeek: [0, 1, 2, 3, 4, 5, 6], minGapMinutes: 0 },
      steps: [{ stepOrder: 0, subject: `Hello from ${who}`, bodyTemplate: "Hi there" }],
      mailboxIds: [ids[who]],
      leads: [{ email: `lee-${who}@leads.test` }],
    });
    expect(launched.body.status).toBe("ACTIVE");
    expect(await sendDue(getDb(), clock, { mailboxIds: [ids[who]] })).toMatchObject({ sent: 1 });
    const [sent] = sentBy(address);
    expect(sent.to).toEqual([`lee-${who}@leads.test`]);
    const reply = [
      `From: Lee <lee-${who}@leads.test>`,
      `To: ${address}`,
      `Subject: Re: Hello from ${who}`,
      `In-Reply-To: ${sent.parsed.messageId}`,
      `Message-ID: <reply-${who}@leads.test>`,
      "Date: Mon, 02 Nov 2026 09:05:00 +0000",
      "",
      "Sounds good, tell me more.",
    ].join("\r\n");
    await appendMessages(world.imap, { username: address, password: "unused" }, [reply]);
    const [m] = await getDb().select().from(mailboxes).where(eq(mailboxes.id, ids[who]));
    await syncMailbox(job(), m);
    const got = await getDb()
      .select()
      .from(replies)
      .where(and(eq(replies.mailboxId, ids[who]), eq(replies.messageId, `<reply-${who}@leads.test>`)));
    expect(got.map((r) => [r.subject, r.leadId !== null])).toEqual([[`Re: Hello from ${who}`, true]]);
  });

  it("refreshes the access token before it expires, on the injectable clock", async () => {
    const before = world.google.stats.refreshes;
    clock.advance(54 * 60_000); // 6 minutes left: outside the 5-minute margin, the token is still used
    expect((await call(TEST_SEND, "POST", "", { key: ws.fullKey, params: { id: ids.ann }, body: { to: "x@leads.test" } })).status).toBe(
      200,
    );
    expect(world.google.stats.refreshes).toBe(before);
    clock.advance(2 * 60_000); // 4 minutes left: replaced before any login
    expect((await call(TEST_SEND, "POST", "", { key: ws.fullKey, params: { id: ids.ann }, body: { to: "x@leads.test" } })).status).toBe(
      200,
    );
    expect(world.google.stats.refreshes).toBe(before + 1);
    const grant = await grantOf(ids.ann);
    expect(grant.accessExpiresAt?.getTime()).toBe(clock.now().getTime() + 3600_000);
    expect(sentBy("ann@goog.test")).toHaveLength(3);
  });

  it("refreshes after a server refuses a token that has not expired, and sends with the new one", async () => {
    const before = world.google.stats.refreshes;
    world.google.dropAccessTokens("ann@goog.test");
    const r = await call(TEST_SEND, "POST", "", { key: ws.fullKey, params: { id: ids.ann }, body: { to: "y@leads.test" } });
    expect(r.status).toBe(200);
    expect(world.google.stats.refreshes).toBe(before + 1);
    // IMAP too: the sync's login is refused, retried with a fresh token, and reads.
    world.google.dropAccessTokens("ann@goog.test");
    const [m] = await getDb().select().from(mailboxes).where(eq(mailboxes.id, ids.ann));
    // (The peer keeps one mail store for every user, so ann's sync also sees the other mailbox's mail.)
    expect(await syncMailbox(job(), m)).toMatchObject({ fetched: expect.any(Number) });
    expect(world.google.stats.refreshes).toBe(before + 2);
  });

  it("a campaign send whose new connection is refused refreshes the token and sends (the engine's pooled transport)", async () => {
    await launchCampaign(ws.fullKey, {
      campaign: { name: "OAuth refused", sendDaysOfWeek: [0, 1, 2, 3, 4, 5, 6], minGapMinutes: 0 },
      steps: [{ stepOrder: 0, subject: "After a refusal", bodyTemplate: "Hi" }],
      mailboxIds: [ids.ann],
      leads: [{ email: "lee-refused@leads.test" }],
    });
    closeAllTransports(); // the pool's open connection is logged in already: the refusal comes at a new login
    world.google.dropAccessTokens("ann@goog.test");
    const before = world.google.stats.refreshes;
    expect(await sendDue(getDb(), clock, { mailboxIds: [ids.ann] })).toMatchObject({ sent: 1 });
    expect(world.google.stats.refreshes).toBe(before + 1);
    expect(sentBy("ann@goog.test").at(-1)?.to).toEqual(["lee-refused@leads.test"]);
  });

  it("spends a rotating refresh token once when two workers need a new access token at the same moment", async () => {
    clock.advance(61 * 60_000); // Mo's token has expired
    forgetAccessToken();
    const before = world.microsoft.stats.refreshes;
    const [a, b] = await Promise.all([accessTokenFor(getDb(), clock, ids.mo), accessTokenFor(getDb(), clock, ids.mo)]);
    expect(a).toBe(b);
    expect(world.microsoft.stats.refreshes).toBe(before + 1);
    expect(world.microsoft.validToken("mo@ms.test", a)).toBe(true);
    // The rotated refresh token was kept: the next refresh works.
    clock.advance(61 * 60_000);
    expect(world.microsoft.validToken("mo@ms.test", await accessTokenFor(getDb(), clock, ids.mo))).toBe(true);
    expect((await grantOf(ids.mo)).revokedAt).toBeNull();
  });
});

const historyOf = async (id: string) => ({
  emails: (await getDb().select({ id: emails.id }).from(emails).where(eq(emails.mailboxId, id))).map((r) => r.id).sort(),
  replies: (await getDb().select({ id: replies.id }).from(replies).where(eq(replies.mailboxId, id))).map((r) => r.id).sort(),
});
let before: { history: Awaited<ReturnType<typeof historyOf>>; warmup: unknown };

describe("a revoked consent", () => {
  it("shows LOGIN_FAILING with the provider's error and the fix, fires mailbox.disconnected once, and stops asking the provider", async () => {
    // Mo is warming and has history (the campaign email and its reply above): a reconnect must keep both.
    expect((await call(START_WARMUP, "POST", "", { key: ws.fullKey, params: { id: ids.mo }, body: {} })).status).toBe(200);
    const view = (await call(MAILBOX, "GET", "", { key: ws.readKey, params: { id: ids.mo } })).body;
    before = { history: await historyOf(ids.mo), warmup: { status: view.warmupStatus, ...view.warmup } };
    expect(before.history.emails.length).toBeGreaterThan(0);
    expect(before.history.replies.length).toBeGreaterThan(0);
    world.microsoft.revoke("mo@ms.test");
    clock.advance(10 * 60_000);
    await runCheck();
    const [m] = await getDb().select().from(mailboxes).where(eq(mailboxes.id, ids.mo));
    expect(m.loginFailingSince).not.toBeNull();
    expect(m.loginError).toBe("Microsoft refused the token request: invalid_grant: Token has been expired or revoked.");
    const issues = (await call(ISSUES, "GET", "", { key: ws.readKey })).body.issues;
    const mine = issues.find((i: { mailboxId: string; kind: string }) => i.mailboxId === ids.mo && i.kind === "LOGIN_FAILING");
    expect(mine.detail).toContain("invalid_grant");
    expect(mine.fix).toContain("Reconnect this mailbox");
    const refreshes = world.microsoft.stats.refused;
    const deadLogins = world.smtp.refusedBearer.filter((u) => u === "mo@ms.test").length;
    clock.advance(10 * 60_000);
    forgetAccessToken(); // as another worker, with nothing in memory, would see it
    await runCheck();
    expect(world.microsoft.stats.refused).toBe(refreshes); // the dead grant is not retried
    // Nor is the access token the server refused before the revocation was found: no login with it.
    expect(world.smtp.refusedBearer.filter((u) => u === "mo@ms.test")).toHaveLength(deadLogins);
    // A send from it fails the same way, with the provider's reason: no login, no refresh asked, nothing sent.
    const received = world.smtp.received.length;
    const send = await call(TEST_SEND, "POST", "", { key: ws.fullKey, params: { id: ids.mo }, body: { to: "z@leads.test" } });
    expect(send.status).toBe(502);
    expect(send.body.error).toContain("invalid_grant");
    expect(world.microsoft.stats.refused).toBe(refreshes);
    expect(world.smtp.refusedBearer.filter((u) => u === "mo@ms.test")).toHaveLength(deadLogins);
    expect(world.smtp.received).toHaveLength(received);
    const down = (await workspaceEvents(ws.workspaceId, "mailbox.disconnected")).filter(
      (e) => (e.data as { mailboxId: string }).mailboxId === ids.mo,
    );
    expect(down).toHaveLength(1);
    expect(down[0].data).toMatchObject({ mailboxId: ids.mo, mailboxEmail: "mo@ms.test", disconnectedAt: expect.any(String) });
    expect((down[0].data as { error: string }).error).toContain("invalid_grant");
  });

  it("recovers on reconnect: the same mailbox, mailbox.reconnected once, healthy at the next check", async () => {
    world.microsoft.consentAs(MO);
    const { callback } = await consent("microsoft", { cookie });
    expect(callback?.status).toBe(200);
    expect(callback?.body).toMatchObject({ id: ids.mo, healthStatus: "HEALTHY", created: false });
    expect((await grantOf(ids.mo)).revokedAt).toBeNull();
    clock.advance(10 * 60_000);
    await runCheck();
    const [m] = await getDb().select().from(mailboxes).where(eq(mailboxes.id, ids.mo));
    expect(m.loginFailingSince).toBeNull();
    const up = (await workspaceEvents(ws.workspaceId, "mailbox.reconnected")).filter(
      (e) => (e.data as { mailboxId: string }).mailboxId === ids.mo,
    );
    expect(up).toHaveLength(1);
    expect(up[0].data).toMatchObject({ mailboxId: ids.mo, mailboxEmail: "mo@ms.test", reconnectedAt: expect.any(String) });
    // Its history and its warmup are the same mailbox's still.
    expect(await historyOf(ids.mo)).toEqual(before.history);
    const view = (await call(MAILBOX, "GET", "", { key: ws.readKey, params: { id: ids.mo } })).body;
    expect({ status: view.warmupStatus, ...view.warmup }).toMatchObject({
      status: (before.warmup as { status: string }).status,
      startedAt: (before.warmup as { startedAt: string }).startedAt,
      pausedAt: null,
    });
  });

  it("records the provider's invalid_grant when this worker's token in memory is older than the row's and both were revoked", async () => {
    // The worker holds T1 in memory; the web server's test send has since refreshed T2 onto the row.
    const db = getDb();
    forgetAccessToken();
    const t1 = await accessTokenFor(db, clock, ids.mo);
    const t1Row = (await grantOf(ids.mo)).accessTokenEnc;
    const t2 = await accessTokenFor(db, clock, ids.mo, t1);
    const t2Row = (await grantOf(ids.mo)).accessTokenEnc;
    expect(t2).not.toBe(t1);
    await db.update(mailboxOauth).set({ accessTokenEnc: t1Row }).where(eq(mailboxOauth.mailboxId, ids.mo));
    forgetAccessToken();
    expect(await accessTokenFor(db, clock, ids.mo)).toBe(t1);
    await db.update(mailboxOauth).set({ accessTokenEnc: t2Row }).where(eq(mailboxOauth.mailboxId, ids.mo));
    expect([world.microsoft.validToken("mo@ms.test", t1), world.microsoft.validToken("mo@ms.test", t2)]).toEqual([true, true]);
    world.microsoft.revoke("mo@ms.test");
    clock.advance(10 * 60_000);
    const refusedBefore = world.microsoft.stats.refused;
    await runCheck();
    // T1 refused, then T2 (the row's) refused, then the refresh: the provider's reason is recorded, not the server's 535.
    const [m] = await getDb().select().from(mailboxes).where(eq(mailboxes.id, ids.mo));
    expect(m.loginFailingSince).not.toBeNull();
    expect(m.loginError).toBe("Microsoft refused the token request: invalid_grant: Token has been expired or revoked.");
    expect(world.microsoft.stats.refused).toBe(refusedBefore + 1); // one refresh asked, under the row's lock
  });
});
