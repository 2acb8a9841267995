import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { events, mailboxes } from "@/db/schema";
import { ManualClock, systemClock, useClock } from "@/lib/clock";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { startMailWorld } from "@/test/mail-setup";
import { GET as ISSUES } from "@/app/api/v1/mailboxes/issues/route";
import { GET as GET_ONE, PATCH } from "@/app/api/v1/mailboxes/[id]/route";
import { PUT as CONNECT } from "@/app/api/v1/mailboxes/by-email/[email]/route";
import { LocalRunner } from "@/inngest/runner";
import { mailboxHealthJob } from "../../inngest/functions/mailbox-health";

let world: Awaited<ReturnType<typeof startMailWorld>>;
let ws: TestWorkspace;
const clock = new ManualClock(new Date("2026-11-02T09:00:00Z"));

beforeAll(async () => {
  process.env.MAILBOX_CHECK_INTERVAL_S = "300";
  world = await startMailWorld({ domain: "acme.test", users: { "ann@acme.test": "pw-one", "bob@acme.test": "pw-two" } });
  ws = await makeWorkspace();
  for (const [email, pw] of [
    ["ann@acme.test", "pw-one"],
    ["bob@acme.test", "pw-two"],
  ]) {
    const r = await call(CONNECT, "PUT", "", { key: ws.fullKey, params: { email }, body: { appPassword: pw } });
    expect(r.status).toBe(201);
  }
  useClock(clock);
});
afterAll(async () => {
  useClock(systemClock);
  await world.close();
});

async function runCheck() {
  // A fresh runner each time: the job is due whenever the mailboxes are due.
  await new LocalRunner(getDb(), clock, [mailboxHealthJob]).tick();
}
async function issues() {
  return (await call(ISSUES, "GET", "/mailboxes/issues", { key: ws.readKey })).body;
}
async function eventsOf(name: string) {
  return getDb()
    .select()
    .from(events)
    .where(and(eq(events.workspaceId, ws.workspaceId), eq(events.event, name)));
}
async function idOf(email: string) {
  const [m] = await getDb().select().from(mailboxes).where(eq(mailboxes.email, email));
  return m.id;
}

describe("the periodic mailbox login check", () => {
  it("reports healthy mailboxes as such and no issues", async () => {
    await runCheck();
    expect(await issues()).toEqual({ mailboxes: 0, issues: [] });
    const ann = await call(GET_ONE, "GET", "", { key: ws.readKey, params: { id: await idOf("ann@acme.test") } });
    expect(ann.body.healthStatus).toBe("HEALTHY");
    expect(ann.body.lastCheckedAt).toBe(clock.now().toISOString());
  });

  it("shows LOGIN_FAILING with the server's reason within one cycle of a password change; mailbox.disconnected fires once", async () => {
    world.smtp.setPassword("ann@acme.test", "changed-on-server");
    clock.advance(299_000);
    await runCheck(); // not due yet
    expect((await issues()).issues).toEqual([]);
    clock.advance(2_000);
    await runCheck();
    const report = await issues();
    expect(report.mailboxes).toBe(1);
    expect(report.issues).toEqual([
      {
        mailboxId: await idOf("ann@acme.test"),
        email: "ann@acme.test",
        kind: "LOGIN_FAILING",
        since: clock.now().toISOString(),
        detail: expect.stringContaining("535 5.7.8 Username and Password not accepted"),
        fix: expect.stringContaining("password"),
      },
    ]);
    const since = clock.now().toISOString();
    clock.advance(301_000);
    await runCheck();
    expect((await issues()).issues[0].since).toBe(since); // the outage keeps its start
    const disconnected = await eventsOf("mailbox.disconnected");
    expect(disconnected).toHaveLength(1);
    expect(disconnected[0].data).toEqual({
      mailboxId: await idOf("ann@acme.test"),
      mailboxEmail: "ann@acme.test",
      error: expect.stringContaining("535"),
      disconnectedAt: since,
    });
  });

  it("recovers by itself when the password is fixed, and mailbox.reconnected fires once", async () => {
    world.smtp.setPassword("ann@acme.test", "pw-one");
    clock.advance(301_000);
    await runCheck();
    expect(await issues()).toEqual({ mailboxes: 0, issues: [] });
    clock.advance(301_000);
    await runCheck();
    const reconnected = await eventsOf("mailbox.reconnected");
    expect(reconnected).toHaveLength(1);
    expect(reconnected[0].data).toMatchObject({ mailboxEmail: "ann@acme.test", reconnectedAt: expect.any(String) });
    expect(await eventsOf("mailbox.disconnected")).toHaveLength(1);
  });
});

// Continues from the state above (the tests of this file run in order on one workspace).
describe("the periodic mailbox check: IMAP and pauses", () => {
  it("reports READ_FAILING only after 30 minutes of unreadable IMAP", async () => {
    world.imap.setPassword("bob@acme.test", "imap-changed");
    clock.advance(301_000);
    await runCheck();
    const start = clock.now().toISOString();
    expect((await issues()).issues).toEqual([]);
    for (let i = 0; i < 5; i++) {
      clock.advance(301_000);
      await runCheck();
    }
    expect((await issues()).issues).toEqual([]); // 25 minutes
    clock.advance(301_000);
    await runCheck(); // 30+ minutes
    const report = await issues();
    expect(report.issues).toEqual([
      expect.objectContaining({ email: "bob@acme.test", kind: "READ_FAILING", since: start, detail: expect.any(String) }),
    ]);
    world.imap.setPassword("bob@acme.test", "pw-two");
    clock.advance(301_000);
    await runCheck();
    expect((await issues()).issues).toEqual([]);
  });

  it("reports AUTO_PAUSED, and nothing for a mailbox the user paused", async () => {
    const bob = await idOf("bob@acme.test");
    await getDb()
      .update(mailboxes)
      .set({ autoPausedAt: clock.now(), autoPauseReason: "Bounce rate 3.1% (3 of 97) above 1.8%" })
      .where(eq(mailboxes.id, bob));
    expect((await issues()).issues).toEqual([
      expect.objectContaining({ kind: "AUTO_PAUSED", detail: "Bounce rate 3.1% (3 of 97) above 1.8%" }),
    ]);
    // Turning sending back on lifts the automatic pause.
    await call(PATCH, "PATCH", "", { key: ws.fullKey, params: { id: bob }, body: { sendingEnabled: true } });
    expect((await issues()).issues).toEqual([]);
    // A user-paused mailbox with a failing login reports nothing.
    world.smtp.setPassword("bob@acme.test", "changed");
    await call(PATCH, "PATCH", "", { key: ws.fullKey, params: { id: bob }, body: { sendingEnabled: false } });
    clock.advance(301_000);
    await runCheck();
    expect((await issues()).issues).toEqual([]);
    const view = await call(GET_ONE, "GET", "", { key: ws.readKey, params: { id: bob } });
    expect(view.body.healthStatus).toBe("PAUSED");
    expect(view.body.loginError).toContain("535");
  });
});
