import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailEvents, emails } from "@/db/schema";
import { GET as CLICK } from "@/app/t/c/[token]/route";
import { GET as OPEN } from "@/app/t/o/[token]/route";
import { clickToken, openToken } from "@/lib/sending/tracking";
import { oneSentEmail } from "@/test/factories";
import { workspaceEvents } from "@/test/campaign-setup";
import { flushTracking } from "./tracking-answer";
import { memoryLogger } from "@/lib/log";
import { settleHits } from "./tracking-settle";
import { recordHits, retryDeadlock, TrackingWriter } from "./tracking-writer";

/** Outlook on Windows: a person's mail client. */
const OUTLOOK = "Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.17928; Pro)";
const req = (path: string) =>
  new Request(`http://localhost${path}`, { headers: { "user-agent": OUTLOOK, "x-forwarded-for": "198.51.100.7" } });

describe("tracking writes", () => {
  it("1,000 concurrent opens of one email: every open logged, exactly one email.opened; clicks the same", async () => {
    const { ws, id, mbx } = await oneSentEmail();
    const token = openToken(id);
    const answers = await Promise.all(
      Array.from({ length: 1000 }, () => OPEN(req(`/t/o/${token}`), { params: Promise.resolve({ token }) })),
    );
    expect(new Set(answers.map((r) => `${r.status} ${r.headers.get("content-type")}`))).toEqual(new Set(["200 image/gif"]));
    await flushTracking(); // the pixels answered before their hits were written
    const opened = await workspaceEvents(ws.workspaceId, "email.opened");
    expect(opened).toHaveLength(1);
    expect(opened[0].data).toMatchObject({
      sendEventId: id,
      leadEmail: "lead@x.test",
      mailboxEmail: mbx.email,
      campaignId: "cmp_x",
      class: "human",
    });
    const [row] = await getDb().select().from(emails).where(eq(emails.id, id));
    expect(opened[0].data.openedAt).toBe(row.openedAt!.toISOString());
    const [{ n }] = await getDb()
      .select({ n: sql<number>`count(*)::int` })
      .from(emailEvents)
      .where(and(eq(emailEvents.emailId, id), eq(emailEvents.kind, "OPEN")));
    expect(n).toBe(1000);
    const logged = await getDb().select().from(emailEvents).where(eq(emailEvents.emailId, id)).limit(1);
    expect(logged[0]).toMatchObject({ userAgent: OUTLOOK, ip: "198.51.100.7", ipRange: "198.51.100.0/24", method: "GET", class: "human" });

    const url = "https://example.com/p?a=1";
    const ct = clickToken(id, url);
    const clicks = await Promise.all(
      Array.from({ length: 200 }, () =>
        CLICK(req(`/t/c/${ct}?url=${encodeURIComponent(url)}`), { params: Promise.resolve({ token: ct }) }),
      ),
    );
    expect(new Set(clicks.map((r) => `${r.status} ${r.headers.get("location")}`))).toEqual(new Set([`302 ${url}`]));
    await flushTracking();
    const clicked = await workspaceEvents(ws.workspaceId, "email.clicked");
    expect(clicked).toHaveLength(1);
    expect(clicked[0].data).toMatchObject({ sendEventId: id, url, openedAt: row.openedAt!.toISOString(), clickedAt: expect.any(String) });
  });

  it("groups logged at once by separate statements, settled by passes at once, still make one first open and one first click", async () => {
    const { ws, id } = await oneSentEmail();
    const at = new Date(Date.now() - 60_000);
    const hit = { emailId: id, url: null, at, userAgent: OUTLOOK, ip: "198.51.100.7" };
    const batch = (n: number) => Array.from({ length: n }, () => ({ ...hit, kind: "OPEN" as const }));
    const clicks = (n: number) => Array.from({ length: n }, () => ({ ...hit, kind: "CLICK" as const, url: "https://a.test/" }));
    const logged = await Promise.all(Array.from({ length: 10 }, (_, i) => recordHits(getDb(), [...batch(20), ...clicks(i)])));
    expect(logged.reduce((a, n) => a + n, 0)).toBe(245);
    const passes = await Promise.all(Array.from({ length: 4 }, () => settleHits(getDb(), new Date())));
    expect(passes.reduce((a, r) => a + r.settled, 0)).toBe(245); // each hit settled by one pass
    expect(passes.reduce((a, r) => a + r.opened, 0)).toBe(1);
    expect(passes.reduce((a, r) => a + r.clicked, 0)).toBe(1);
    expect(await workspaceEvents(ws.workspaceId, "email.opened")).toHaveLength(1);
    expect(await workspaceEvents(ws.workspaceId, "email.clicked")).toHaveLength(1);
    // An unknown email records nothing and does not fail the batch.
    expect(await recordHits(getDb(), [{ emailId: "eml_nope", kind: "OPEN", url: null, at }])).toBe(0);
  });
});

describe("the writer's backlog", () => {
  it("answers at once below the backlog, makes callers wait for their group past it, and writes every hit once", async () => {
    const { ws, id } = await oneSentEmail();
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    // The database handle is held back until the gate opens: nothing can be written before that.
    const writer = new TrackingWriter(() => gate.then(() => getDb()), memoryLogger(), 3);
    const hit = () => ({ emailId: id, kind: "OPEN" as const, url: null, at: new Date(), userAgent: OUTLOOK });
    const settled: string[] = [];
    const calls = Array.from({ length: 5 }, (_, i) => writer.record(hit()).then(() => settled.push(`hit ${i}`)));
    await Promise.resolve();
    await Promise.resolve();
    expect(settled).toEqual(["hit 0", "hit 1", "hit 2"]); // the first three did not wait; the 4th and 5th wait for the write
    release();
    await Promise.all(calls);
    await writer.flush();
    expect(settled).toHaveLength(5);
    await settleHits(getDb(), new Date(), { all: true });
    expect(await workspaceEvents(ws.workspaceId, "email.opened")).toHaveLength(1);
    const [{ n }] = await getDb().select({ n: sql<number>`count(*)::int` }).from(emailEvents).where(eq(emailEvents.emailId, id));
    expect(n).toBe(5);
  });
});

describe("a deadlocked group statement", () => {
  it("is run again (Postgres rolled it back whole) until it goes through; other errors are not retried", async () => {
    let calls = 0;
    const deadlock = Object.assign(new Error("deadlock detected"), { code: "40P01" });
    expect(
      await retryDeadlock(async () => {
        calls++;
        if (calls < 3) throw calls === 1 ? deadlock : { cause: deadlock };
        return "written";
      }),
    ).toBe("written");
    expect(calls).toBe(3);
    let other = 0;
    await expect(
      retryDeadlock(async () => {
        other++;
        throw Object.assign(new Error("unique violation"), { code: "23505" });
      }),
    ).rejects.toThrow("unique violation");
    expect(other).toBe(1);
  });
});
