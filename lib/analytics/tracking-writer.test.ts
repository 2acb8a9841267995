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
import { KnownFirsts, recordHits, retryDeadlock, TrackingWriter } from "./tracking-writer";

const req = (path: string) => new Request(`http://localhost${path}`);

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
    expect(opened[0].data).toMatchObject({ sendEventId: id, leadEmail: "lead@x.test", mailboxEmail: mbx.email, campaignId: "cmp_x" });
    const [row] = await getDb().select().from(emails).where(eq(emails.id, id));
    expect(opened[0].data.openedAt).toBe(row.openedAt!.toISOString());
    const [{ n }] = await getDb()
      .select({ n: sql<number>`count(*)::int` })
      .from(emailEvents)
      .where(and(eq(emailEvents.emailId, id), eq(emailEvents.kind, "OPEN")));
    expect(n).toBe(1000);

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

  it("batches written at once by separate transactions still make one first open and one first click", async () => {
    const { ws, id } = await oneSentEmail();
    const at = new Date();
    const batch = (n: number) => Array.from({ length: n }, () => ({ emailId: id, kind: "OPEN" as const, url: null, at }));
    const clicks = (n: number) => Array.from({ length: n }, () => ({ emailId: id, kind: "CLICK" as const, url: "https://a.test/", at }));
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => recordHits(getDb(), [...batch(20), ...clicks(i)])));
    expect(results.reduce((a, r) => a + r.opened, 0)).toBe(1);
    expect(results.reduce((a, r) => a + r.clicked, 0)).toBe(1);
    expect(await workspaceEvents(ws.workspaceId, "email.opened")).toHaveLength(1);
    expect(await workspaceEvents(ws.workspaceId, "email.clicked")).toHaveLength(1);
    // An unknown email records nothing and does not fail the batch.
    expect(await recordHits(getDb(), [{ emailId: "eml_nope", kind: "OPEN", url: null, at }])).toEqual({ opened: 0, clicked: 0 });
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
    const hit = () => ({ emailId: id, kind: "OPEN" as const, url: null, at: new Date() });
    const settled: string[] = [];
    const calls = Array.from({ length: 5 }, (_, i) => writer.record(hit()).then(() => settled.push(`hit ${i}`)));
    await Promise.resolve();
    await Promise.resolve();
    expect(settled).toEqual(["hit 0", "hit 1", "hit 2"]); // the first three did not wait; the 4th and 5th wait for the write
    release();
    await Promise.all(calls);
    await writer.flush();
    expect(settled).toHaveLength(5);
    expect(await workspaceEvents(ws.workspaceId, "email.opened")).toHaveLength(1);
    const [{ n }] = await getDb().select({ n: sql<number>`count(*)::int` }).from(emailEvents).where(eq(emailEvents.emailId, id));
    expect(n).toBe(5);
  });
});

describe("emails whose first hit is known", () => {
  it("are only logged: no update of the email, no second event; the cache is bounded", async () => {
    const { ws, id } = await oneSentEmail();
    const known = new KnownFirsts(2);
    const open = { emailId: id, kind: "OPEN" as const, url: null, at: new Date() };
    expect(await recordHits(getDb(), [open, open], known)).toEqual({ opened: 1, clicked: 0 });
    expect(known.has("OPEN", id)).toBe(true);
    expect(known.has("CLICK", id)).toBe(false);
    // Cleared behind the writer's back (nothing in the app clears it): a known email is not updated again…
    await getDb().update(emails).set({ openedAt: null }).where(eq(emails.id, id));
    expect(await recordHits(getDb(), [open], known)).toEqual({ opened: 0, clicked: 0 });
    const [row] = await getDb().select().from(emails).where(eq(emails.id, id));
    expect(row.openedAt).toBeNull();
    // …while without the cache it is (the update the cache saves).
    expect(await recordHits(getDb(), [open])).toEqual({ opened: 1, clicked: 0 });
    expect(await workspaceEvents(ws.workspaceId, "email.opened")).toHaveLength(2);
    const [{ n }] = await getDb().select({ n: sql<number>`count(*)::int` }).from(emailEvents).where(eq(emailEvents.emailId, id));
    expect(n).toBe(4); // every hit logged
    known.add("OPEN", ["eml_a", "eml_b"]); // past its bound it forgets
    expect(known.has("OPEN", id)).toBe(false);
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
