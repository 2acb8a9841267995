import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { campaigns } from "@/db/schema";
import { call, makeWorkspace, sessionCookie, type TestWorkspace } from "@/test/helpers";
import { GET as LIST_CAMPAIGNS, POST as CREATE_CAMPAIGN } from "@/app/api/v1/campaigns/route";
import { appOrigin, requestOrigin, requireSameOrigin } from "./origin";

const req = (method: string, headers: Record<string, string> = {}, url = "http://localhost/api/v1/campaigns") =>
  new Request(url, { method, headers });

describe("the dashboard's origin", () => {
  it("is APP_URL's origin when set, else the origin the request reached", () => {
    expect(appOrigin(req("POST"), "https://mail.example.com/base/")).toBe("https://mail.example.com");
    expect(appOrigin(req("POST"), undefined)).toBe("http://localhost");
    expect(appOrigin(req("POST", { host: "outreach.internal:8080" }), undefined)).toBe("http://outreach.internal:8080");
  });

  it("takes a reverse proxy's X-Forwarded-Proto and X-Forwarded-Host", () => {
    const r = req("POST", { host: "127.0.0.1:3000", "x-forwarded-proto": "https", "x-forwarded-host": "mail.example.com, 10.0.0.1" });
    expect(requestOrigin(r)).toBe("https://mail.example.com");
    expect(requestOrigin(req("POST", { host: "mail.example.com:443", "x-forwarded-proto": "https" }))).toBe("https://mail.example.com");
  });
});

describe("requireSameOrigin", () => {
  const app = "https://mail.example.com";
  it("lets reads through whatever their origin", () => {
    for (const m of ["GET", "HEAD", "OPTIONS"])
      expect(() => requireSameOrigin(req(m, { origin: "http://evil.example" }), app)).not.toThrow();
  });

  it("lets a write from the dashboard's origin through, by Origin or else by Referer", () => {
    expect(() => requireSameOrigin(req("POST", { origin: app }), app)).not.toThrow();
    expect(() => requireSameOrigin(req("PATCH", { referer: `${app}/campaigns/cmp_1?tab=steps` }), app)).not.toThrow();
    // Origin decides when both are present.
    expect(() => requireSameOrigin(req("DELETE", { origin: app, referer: "http://evil.example/" }), app)).not.toThrow();
  });

  it("refuses a write from another origin, naming it", () => {
    for (const m of ["POST", "PUT", "PATCH", "DELETE"]) {
      expect(() => requireSameOrigin(req(m, { origin: "http://evil.example" }), app)).toThrow(
        /Origin is http:\/\/evil\.example, not https:\/\/mail\.example\.com/,
      );
    }
    // Same host, other scheme or port: another origin.
    expect(() => requireSameOrigin(req("POST", { origin: "http://mail.example.com" }), app)).toThrow(/Cross-site/);
    expect(() => requireSameOrigin(req("POST", { origin: "https://mail.example.com:8443" }), app)).toThrow(/Cross-site/);
    // A sandboxed or privacy-stripped page sends Origin: null.
    expect(() => requireSameOrigin(req("POST", { origin: "null" }), app)).toThrow(/Origin is null/);
    expect(() => requireSameOrigin(req("POST", { origin: app, referer: app }), "http://other.example")).toThrow(/Cross-site/);
  });

  it("refuses a write whose Referer is elsewhere, or that has neither header", () => {
    expect(() => requireSameOrigin(req("POST", { referer: "http://evil.example/page" }), app)).toThrow(
      /Referer is not on https:\/\/mail\.example\.com/,
    );
    expect(() => requireSameOrigin(req("POST", { referer: "not a url" }), app)).toThrow(/Referer/);
    expect(() => requireSameOrigin(req("POST"), app)).toThrow(/neither an Origin nor a Referer/);
  });

  it("compares with the request's own origin when APP_URL is unset", () => {
    const r = req("POST", { host: "localhost:3000", origin: "http://localhost:3000" }, "http://localhost:3000/api/v1/leads");
    expect(() => requireSameOrigin(r, undefined)).not.toThrow();
    expect(() => requireSameOrigin(req("POST", { host: "localhost:3000", origin: "http://localhost:4000" }), undefined)).toThrow(
      /Cross-site/,
    );
  });
});

describe("a session's cross-site writes through the API edge", () => {
  let ws: TestWorkspace;
  let cookie: string;
  beforeAll(async () => {
    ws = await makeWorkspace();
    cookie = await sessionCookie(ws.userId);
  });

  const named = (name: string) =>
    getDb()
      .select({ id: campaigns.id })
      .from(campaigns)
      .where(and(eq(campaigns.workspaceId, ws.workspaceId), eq(campaigns.name, name)));
  const create = (name: string, opts: { cookie?: string; key?: string; headers?: Record<string, string> }) =>
    call(CREATE_CAMPAIGN, "POST", "/campaigns", { ...opts, body: { name } });

  it("refuses a POST with the session cookie from another origin, and writes nothing", async () => {
    const r = await create("Forged", { cookie, headers: { origin: "http://evil.example" } });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ code: "FORBIDDEN", error: expect.stringContaining("http://evil.example") });
    expect(await named("Forged")).toEqual([]);
  });

  it("creates the campaign when the session's POST comes from the dashboard's origin", async () => {
    const r = await create("Same origin", { cookie, headers: { origin: "http://localhost" } });
    expect(r.status).toBe(201);
    expect(await named("Same origin")).toHaveLength(1);
  });

  it("refuses a cross-site Referer without Origin, and a request with neither", async () => {
    const viaReferer = await create("By referer", { cookie, headers: { origin: "", referer: "http://evil.example/x" } });
    // An empty Origin header is still an Origin: refused as not the dashboard's.
    expect(viaReferer.status).toBe(403);
    const refererOnly = await CREATE_CAMPAIGN(
      new Request("http://localhost/api/v1/campaigns", {
        method: "POST",
        headers: { cookie, referer: "http://evil.example/page", "content-type": "application/json" },
        body: JSON.stringify({ name: "Referer only" }),
      }),
    );
    expect(refererOnly.status).toBe(403);
    expect(await refererOnly.json()).toMatchObject({ code: "FORBIDDEN", error: expect.stringContaining("Referer") });
    const neither = await CREATE_CAMPAIGN(
      new Request("http://localhost/api/v1/campaigns", {
        method: "POST",
        headers: { cookie, "content-type": "application/json" },
        body: JSON.stringify({ name: "Neither" }),
      }),
    );
    expect(neither.status).toBe(403);
    expect(await neither.json()).toMatchObject({ code: "FORBIDDEN", error: expect.stringContaining("neither an Origin nor a Referer") });
    expect([...(await named("By referer")), ...(await named("Referer only")), ...(await named("Neither"))]).toEqual([]);
  });

  it("never applies to an API key, whatever the Origin", async () => {
    const r = await create("By key", { key: ws.fullKey, headers: { origin: "http://evil.example" } });
    expect(r.status).toBe(201);
    expect(await named("By key")).toHaveLength(1);
  });

  it("lets a session's GET from another origin through", async () => {
    const r = await call(LIST_CAMPAIGNS, "GET", "/campaigns", { cookie, headers: { origin: "http://evil.example" } });
    expect(r.status).toBe(200);
  });
});
