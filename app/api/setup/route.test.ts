import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { ensureSetupToken } from "@/lib/auth/users";
import { GET, POST } from "./route";

afterEach(() => {
  delete process.env.RATE_LIMIT_AUTH;
});

const post = (body: unknown, ip: string) =>
  POST(
    new Request("http://localhost/api/setup", {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": ip },
      body: JSON.stringify(body),
    }),
  );

describe("POST /api/setup (first run)", () => {
  it("has its own tighter per-IP limit on top of the general one (as sign-in and sign-up have)", async () => {
    process.env.RATE_LIMIT_AUTH = "3";
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push(
        (await post({ email: "x@example.com", password: "password123", workspaceName: "W", token: "wrong" }, "198.51.100.7")).status,
      );
    expect(statuses).toEqual([403, 403, 403, 429]);
    const limited = await post({ email: "x@example.com", password: "password123", workspaceName: "W", token: "wrong" }, "198.51.100.7");
    expect((await limited.json()).code).toBe("RATE_LIMITED");
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(
      (await post({ email: "x@example.com", password: "password123", workspaceName: "W", token: "wrong" }, "198.51.100.8")).status,
    ).toBe(403); // another IP
  });

  it("creates the owner once with the printed token, then reports the instance set up", async () => {
    const token = await ensureSetupToken(getDb());
    expect(await (await GET()).json()).toEqual({ needsSetup: true });
    const bad = await post({ email: "", password: "p", workspaceName: "W", token: token! }, "203.0.113.1");
    expect(bad.status).toBe(400);
    const ok = await post({ email: "owner@example.com", password: "password123", workspaceName: "Acme", token: token! }, "203.0.113.1");
    expect(ok.status).toBe(201);
    expect(await ok.json()).toMatchObject({ userId: expect.stringMatching(/^usr_/), workspaceId: expect.stringMatching(/^ws_/) });
    expect(await (await GET()).json()).toEqual({ needsSetup: false });
    expect(
      (await post({ email: "again@example.com", password: "password123", workspaceName: "B", token: token! }, "203.0.113.2")).status,
    ).toBe(409);
  });
});
