import { beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/db/client";
import { campaigns, idempotencyKeys } from "@/db/schema";
import { ManualClock, systemClock, useClock } from "@/lib/clock";
import { systemCtx } from "@/lib/ctx";
import { runCleanup } from "@/lib/retention/cleanup";
import { api } from "@/lib/api/handler";
import { requestFingerprint } from "@/lib/api/idempotency";
import { defineRoute } from "@/lib/api/route";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { GET as LIST_CAMPAIGNS, POST as CREATE_CAMPAIGN } from "@/app/api/v1/campaigns/route";
import { POST as CREATE_LEADS } from "@/app/api/v1/leads/route";
import { POST as UPLOAD } from "@/app/api/v1/replies/uploads/route";

let ws: TestWorkspace;
let other: TestWorkspace;
beforeAll(async () => {
  ws = await makeWorkspace();
  other = await makeWorkspace();
});

const create = (key: string, body: unknown, apiKey = ws.fullKey) =>
  call(CREATE_CAMPAIGN, "POST", "/campaigns", { key: apiKey, body, headers: { "idempotency-key": key } });

async function campaignsNamed(workspaceId: string, name: string) {
  return getDb()
    .select({ id: campaigns.id })
    .from(campaigns)
    .where(and(eq(campaigns.workspaceId, workspaceId), eq(campaigns.name, name)));
}

describe("Idempotency-Key on POST", () => {
  it("replays the first response with Idempotent-Replayed: true and writes once", async () => {
    const a = await create("k-replay", { name: "Replay me" });
    expect(a.status).toBe(201);
    expect(a.headers.get("Idempotent-Replayed")).toBeNull();
    const b = await create("k-replay", { name: "Replay me" });
    expect(b.status).toBe(201);
    expect(b.headers.get("Idempotent-Replayed")).toBe("true");
    expect(b.body).toEqual(a.body);
    expect(b.headers.get("X-RateLimit-Remaining")).not.toBeNull();
    expect(await campaignsNamed(ws.workspaceId, "Replay me")).toHaveLength(1);
  });

  it("answers 422 IDEMPOTENCY_MISMATCH for the same key with a different body", async () => {
    expect((await create("k-mismatch", { name: "First" })).status).toBe(201);
    const r = await create("k-mismatch", { name: "Second" });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe("IDEMPOTENCY_MISMATCH");
    expect(typeof r.body.error).toBe("string");
    expect(await campaignsNamed(ws.workspaceId, "Second")).toHaveLength(0);
  });

  it("answers 409 CONFLICT while the first request with the key is still running", async () => {
    const body = { name: "In flight" };
    const sent = new Request("http://localhost/api/v1/campaigns", { method: "POST", body: JSON.stringify(body) });
    const now = new Date();
    // The first request's claim, as it stands while its handler runs: no status yet.
    await getDb()
      .insert(idempotencyKeys)
      .values({
        workspaceId: ws.workspaceId,
        key: "k-running",
        requestHash: await requestFingerprint(sent, 1 << 20),
        createdAt: now,
        expiresAt: new Date(now.getTime() + 3600_000),
      });
    const r = await create("k-running", body);
    expect(r.status).toBe(409);
    expect(r.body.code).toBe("CONFLICT");
    expect(r.body.error).toContain("still running");
    expect(await campaignsNamed(ws.workspaceId, "In flight")).toHaveLength(0);
  });

  it("writes exactly once under concurrent identical requests", async () => {
    const results = await Promise.all(Array.from({ length: 6 }, () => create("k-race", { name: "Raced" })));
    for (const r of results) expect([201, 409]).toContain(r.status);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.code).toBe("CONFLICT");
    expect(await campaignsNamed(ws.workspaceId, "Raced")).toHaveLength(1);
    const ids = new Set(results.filter((r) => r.status === 201).map((r) => r.body.id));
    expect(ids.size).toBe(1);
  });

  it("keeps keys per workspace: another workspace's same key is a new request", async () => {
    expect((await create("k-shared", { name: "Mine" })).status).toBe(201);
    const r = await create("k-shared", { name: "Theirs" }, other.fullKey);
    expect(r.status).toBe(201);
    expect(r.headers.get("Idempotent-Replayed")).toBeNull();
  });

  it("refuses a key over 255 characters or empty with 400, and ignores the header on GET", async () => {
    const long = await create("k".repeat(256), { name: "Too long" });
    expect(long.status).toBe(400);
    expect(long.body.code).toBe("BAD_REQUEST");
    expect((await create("k".repeat(255), { name: "Just fits" })).status).toBe(201);
    expect((await create("   ", { name: "Blank" })).status).toBe(400);
    const get = await call(LIST_CAMPAIGNS, "GET", "/campaigns", { key: ws.fullKey, headers: { "idempotency-key": "x".repeat(300) } });
    expect(get.status).toBe(200);
  });

  it("stores an error the handler decided (4xx) but not a refused body, which may be retried with the key", async () => {
    const bad = await create("k-invalid", { name: "" });
    expect(bad.status).toBe(400);
    expect((await create("k-invalid", { name: "Fixed" })).status).toBe(201);
    const tooMany = { leads: Array.from({ length: 1001 }, (_, i) => ({ email: `x${i}@example.com` })) };
    const h = { "idempotency-key": "k-leads" };
    const first = await call(CREATE_LEADS, "POST", "/leads", { key: ws.fullKey, body: tooMany, headers: h });
    const again = await call(CREATE_LEADS, "POST", "/leads", { key: ws.fullKey, body: tooMany, headers: h });
    expect(again.status).toBe(first.status);
  });

  it("keeps no 5xx (nothing was decided): the key is released, a retry runs the handler again, and that answer is replayed", async () => {
    let runs = 0;
    const flaky = api(
      defineRoute({ method: "POST", path: "/flaky", summary: "test", tag: "test", access: "write", body: z.object({ n: z.number() }) }),
      async () => {
        runs++;
        if (runs === 1) throw new Error("the database went away");
        return { runs };
      },
    );
    const send = () => call(flaky, "POST", "/flaky", { key: ws.fullKey, body: { n: 1 }, headers: { "idempotency-key": "k-5xx" } });
    expect((await send()).status).toBe(500);
    const retry = await send();
    expect(retry.status).toBe(200);
    expect(retry.headers.get("Idempotent-Replayed")).toBeNull();
    expect(retry.body).toEqual({ runs: 2 });
    const replay = await send();
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(replay.body).toEqual({ runs: 2 });
    expect(runs).toBe(2);
  });

  it("covers a raw upload (body read by the route itself): replayed, and another file name is a mismatch", async () => {
    const upload = (name: string) =>
      UPLOAD(
        new Request("http://localhost/api/v1/replies/uploads", {
          method: "POST",
          headers: { authorization: `Bearer ${ws.fullKey}`, "x-filename": name, "idempotency-key": "k-upload" },
          body: "file bytes",
        }),
      );
    const first = await upload("a.txt");
    expect(first.status).toBe(201);
    const again = await upload("a.txt");
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await again.json()).toEqual(await first.json());
    expect((await upload("b.txt")).status).toBe(422);
  });

  it("forgets a key after 24 h, and the cleanup job deletes it", async () => {
    const clock = new ManualClock(new Date());
    useClock(clock);
    try {
      expect((await create("k-expiry", { name: "Day one" })).status).toBe(201);
      clock.advance(24 * 3600_000 + 1000);
      const r = await create("k-expiry", { name: "Day two" });
      expect(r.status).toBe(201);
      expect(r.headers.get("Idempotent-Replayed")).toBeNull();
      clock.advance(24 * 3600_000 + 1000);
      await runCleanup(systemCtx(undefined, { clock }));
      const left = await getDb()
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.workspaceId, ws.workspaceId), eq(idempotencyKeys.key, "k-expiry")));
      expect(left).toHaveLength(0);
    } finally {
      useClock(systemClock);
    }
  });
});
