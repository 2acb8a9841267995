import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { call, makeWorkspace, sessionCookie, type TestWorkspace } from "@/test/helpers";

/**
 * Every route with an id in its path, called with ids that are not ours — percent signs (what a
 * double decode choked on), broken escapes, NUL, path tricks, huge and non-ASCII strings — by the
 * workspace owner: never a 5xx, always the API's error shape with a stable code.
 */
const v1 = path.resolve(import.meta.dirname);
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
const BAD_IDS = [
  "%",
  "%25",
  "%zz",
  "lead_%E0%A4%A",
  "\u0000",
  "../../etc/passwd",
  "' or 1=1 --",
  "ünïcødé-ид",
  "x".repeat(5000),
  "lead_00000000000000000000",
];

function routeFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) routeFiles(p, out);
    else if (name === "route.ts" && /\[(?!\.\.\.)[^\]]+\]/.test(p)) out.push(p);
  }
  return out;
}

type Handler = Parameters<typeof call>[0];

process.env.RATE_LIMIT_DISABLED = "1";
let ws: TestWorkspace;
let cookie: string;
beforeAll(async () => {
  ws = await makeWorkspace("ids");
  cookie = await sessionCookie(ws.userId);
});

describe("malformed and foreign ids on every route", () => {
  const files = routeFiles(v1);

  it("finds the routes with path ids", () => {
    expect(files.length).toBeGreaterThan(40);
  });

  it.each(files.map((f) => [path.relative(v1, path.dirname(f))]))("/%s answers 4xx in the error shape", async (rel) => {
    const mod = (await import(path.join(v1, rel, "route.ts"))) as Record<string, Handler>;
    const names = [...rel.matchAll(/\[([^\]]+)\]/g)].map((m) => m[1]);
    for (const method of METHODS.filter((m) => typeof mod[m] === "function")) {
      for (const bad of BAD_IDS) {
        const params = Object.fromEntries(names.map((n) => [n, bad]));
        const auth = rel.startsWith("account") ? { cookie } : { key: ws.fullKey };
        const body = method === "GET" || method === "DELETE" ? undefined : {};
        const r = await call(mod[method], method, `/${rel}`, { ...auth, params, body });
        const where = `${method} /${rel} with id ${JSON.stringify(bad.slice(0, 20))}`;
        expect(r.status, where).toBeGreaterThanOrEqual(400);
        expect(r.status, `${where}: ${JSON.stringify(r.body)}`).toBeLessThan(500);
        expect(r.body, where).toMatchObject({ error: expect.any(String), code: expect.stringMatching(/^[A-Z_]+$/) });
      }
    }
  });
});

describe("ids that are not ours, and strings Postgres cannot store", () => {
  it("a percent sign or a foreign-looking id is 404 NOT_FOUND; a control character or a 5,000-character id is 400", async () => {
    const { GET } = await import("./leads/[id]/route");
    for (const id of ["%", "%25", "lead_00000000000000000000"]) {
      const r = await call(GET, "GET", `/leads/${encodeURIComponent(id)}`, { key: ws.fullKey, params: { id } });
      expect([r.status, r.body.code]).toEqual([404, "NOT_FOUND"]);
    }
    for (const id of ["\u0000", "a\nb", "x".repeat(5000)]) {
      const r = await call(GET, "GET", "/leads/x", { key: ws.fullKey, params: { id } });
      expect([r.status, r.body.code, Object.keys(r.body.details.fieldErrors)]).toEqual([400, "VALIDATION_ERROR", ["id"]]);
    }
  });

  it("a NUL inside a body string is 400 naming the field, and nothing is written", async () => {
    const { POST, GET } = await import("./leads/route");
    const r = await call(POST, "POST", "/leads", {
      key: ws.fullKey,
      body: { leads: [{ email: "nul@example.com", firstName: "a\u0000b" }] },
    });
    expect(r.status).toBe(400);
    expect(r.body.details.fieldErrors).toHaveProperty(["leads.0.firstName"]);
    const list = await call(GET, "GET", "/leads?search=nul%40example.com", { key: ws.fullKey });
    expect(list.body.total).toBe(0);
  });
});
