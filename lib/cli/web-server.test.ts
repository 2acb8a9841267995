import { Agent, createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as CLICK } from "@/app/t/c/[token]/route";
import { GET as OPEN } from "@/app/t/o/[token]/route";
import { getDb } from "@/db/client";
import { emailEvents, emails } from "@/db/schema";
import { flushTracking, PIXEL } from "@/lib/analytics/tracking-answer";
import { clickToken, openToken } from "@/lib/sending/tracking";
import { oneSentEmail } from "@/test/factories";
import { workspaceEvents } from "@/test/campaign-setup";
import { webListener } from "./web-server";

// The production server's dispatch over real HTTP; a node:http handler stands in for Next and answers
// 418 "next", so each answer shows whether the fast path or Next took it.
let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer(
    webListener((_req, res) => {
      res.writeHead(418, { "Content-Type": "text/plain" });
      res.end("next");
    }),
  );
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** Thunderbird: a person's mail client (a request with no user agent is a script's, not counted). */
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Thunderbird/128.5.0";
type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };
function hit(path: string, agent?: Agent, method = "GET"): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { agent, method, headers: { "user-agent": BROWSER } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

const logged = async (emailId: string) =>
  (await getDb().select({ n: sql<number>`count(*)::int` }).from(emailEvents).where(eq(emailEvents.emailId, emailId)))[0].n;

describe("the production server's tracking fast path (real HTTP)", () => {
  it("answers the open pixel with the route's bytes and headers; 1,000 concurrent opens make one email.opened", async () => {
    const { ws, id, mbx } = await oneSentEmail();
    const token = openToken(id);
    const one = await hit(`/t/o/${token}`);
    expect(one.status).toBe(200);
    expect(one.body.equals(PIXEL)).toBe(true);
    expect(one.headers["content-type"]).toBe("image/gif");
    expect(one.headers["cache-control"]).toBe("no-store, max-age=0");
    expect(one.headers["content-length"]).toBe(String(PIXEL.length));
    // The same as the route handler `next dev` serves.
    const viaRoute = await OPEN(new Request(`http://localhost/t/o/${token}`, { headers: { "user-agent": BROWSER } }), {
      params: Promise.resolve({ token }),
    });
    expect(Buffer.from(await viaRoute.arrayBuffer()).equals(one.body)).toBe(true);
    expect([viaRoute.status, viaRoute.headers.get("content-type"), viaRoute.headers.get("cache-control")]).toEqual([
      200,
      "image/gif",
      "no-store, max-age=0",
    ]);

    const agent = new Agent({ keepAlive: true, maxSockets: 250 });
    const answers = await Promise.all(Array.from({ length: 1000 }, () => hit(`/t/o/${token}`, agent)));
    agent.destroy();
    expect(new Set(answers.map((a) => `${a.status} ${a.headers["content-type"]} ${a.body.length}`))).toEqual(
      new Set([`200 image/gif ${PIXEL.length}`]),
    );
    await flushTracking();
    const opened = await workspaceEvents(ws.workspaceId, "email.opened");
    expect(opened).toHaveLength(1);
    expect(opened[0].data).toMatchObject({ sendEventId: id, leadEmail: "lead@x.test", mailboxEmail: mbx.email, campaignId: "cmp_x" });
    expect(await logged(id)).toBe(1002); // every open logged: 1 + 1 (the route) + 1,000
  });

  it("a bad open token still gets the pixel and records nothing", async () => {
    const { ws, id } = await oneSentEmail();
    const a = await hit(`/t/o/${id}.forgedforgedforgedforg`);
    expect([a.status, a.headers["content-type"], a.body.equals(PIXEL)]).toEqual([200, "image/gif", true]);
    await flushTracking();
    expect(await workspaceEvents(ws.workspaceId, "email.opened")).toHaveLength(0);
    expect(await logged(id)).toBe(0);
  });

  it("answers a HEAD (a scanner's) with the same status and headers, no body, and records it as a scanner's hit", async () => {
    const { ws, id } = await oneSentEmail();
    const url = "https://example.com/";
    const head = await hit(`/t/o/${openToken(id)}`, undefined, "HEAD");
    expect([head.status, head.headers["content-type"], head.body.length]).toEqual([200, "image/gif", 0]);
    const link = await hit(`/t/c/${clickToken(id, url)}?url=${encodeURIComponent(url)}`, undefined, "HEAD");
    expect([link.status, link.headers.location]).toEqual([302, url]);
    await flushTracking();
    const rows = await getDb().select().from(emailEvents).where(eq(emailEvents.emailId, id));
    expect(rows.map((r) => [r.kind, r.method, r.class, r.reason]).sort()).toEqual([
      ["CLICK", "HEAD", "scanner", "head-request"],
      ["OPEN", "HEAD", "scanner", "head-request"],
    ]);
    expect(await workspaceEvents(ws.workspaceId, "email.opened")).toHaveLength(0);
    expect(await workspaceEvents(ws.workspaceId, "email.clicked")).toHaveLength(0);
    const [row] = await getDb().select().from(emails).where(eq(emails.id, id));
    expect([row.openedAt, row.clickedAt, row.machineOpenedAt instanceof Date, row.machineClickedAt instanceof Date]).toEqual([
      null,
      null,
      true,
      true,
    ]);
  });

  it("answers 404 on a host that is neither the installation's nor a verified tracking domain, and records nothing", async () => {
    const { id } = await oneSentEmail();
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${base}/t/o/${openToken(id)}`, { headers: { host: "unknown-host.example", "user-agent": BROWSER } }, (res) => {
        let body = "";
        res.on("data", (c: Buffer) => {
          body += c.toString();
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on("error", reject);
      req.end();
    });
    expect(answer).toEqual({ status: 404, body: "Not found" });
    await flushTracking();
    expect(await logged(id)).toBe(0);
  });

  it("redirects a signed click to its URL (one email.clicked) and answers 404 to a bad token or another URL", async () => {
    const { ws, id } = await oneSentEmail();
    const url = "https://example.com/p?a=1&b=two words";
    const token = clickToken(id, url);
    const path = `/t/c/${token}?url=${encodeURIComponent(url)}`;
    const ok = await Promise.all([hit(path), hit(path), hit(path)]);
    for (const a of ok) {
      expect([a.status, a.headers.location, a.headers["cache-control"], a.body.length]).toEqual([302, url, "no-store", 0]);
    }
    const viaRoute = await CLICK(new Request(`http://localhost${path}`, { headers: { "user-agent": BROWSER } }), {
      params: Promise.resolve({ token }),
    });
    expect([viaRoute.status, viaRoute.headers.get("location")]).toEqual([302, url]);

    const bad = [
      await hit(`/t/c/${id}.forgedforgedforgedforg?url=${encodeURIComponent(url)}`),
      await hit(`/t/c/${token}?url=${encodeURIComponent("https://evil.test/")}`),
      await hit(`/t/c/${token}`),
    ];
    for (const a of bad) {
      expect([a.status, a.headers["content-type"], a.body.toString()]).toEqual([
        404,
        "text/plain; charset=utf-8",
        "This link is not valid.",
      ]);
    }
    await flushTracking();
    const clicked = await workspaceEvents(ws.workspaceId, "email.clicked");
    expect(clicked).toHaveLength(1);
    expect(clicked[0].data).toMatchObject({ sendEventId: id, url, clickedAt: expect.any(String) });
    expect(await logged(id)).toBe(4); // three clicks over HTTP, one through the route; the bad ones none
  });

  it("hands everything else to Next: other paths, other methods, a trailing slash", async () => {
    const token = openToken("eml_x");
    for (const [path, method] of [
      ["/api/health", "GET"],
      [`/t/o/${token}`, "POST"],
      [`/t/o/${token}/`, "GET"],
      ["/t/x/abc", "GET"],
      ["/t/o/%E0%A4%A", "GET"],
    ]) {
      const a = await hit(path, undefined, method);
      expect([path, method, a.status, a.body.toString()]).toEqual([path, method, 418, "next"]);
      // Next's proxy sets its own headers on what it answers; the fast path leaves none behind.
      expect(a.headers["content-security-policy"]).toBeUndefined();
    }
  });

  it("sends the security headers with the pixel and the redirect (as proxy.ts does for Next's answers)", async () => {
    const { id } = await oneSentEmail();
    const url = "https://example.com/";
    for (const path of [`/t/o/${openToken(id)}`, `/t/c/${clickToken(id, url)}?url=${encodeURIComponent(url)}`]) {
      const a = await hit(path);
      expect(a.status, path).toBeLessThan(400);
      expect(a.headers["content-security-policy"], path).toBe("default-src 'none'; frame-ancestors 'none'");
      expect([a.headers["x-frame-options"], a.headers["x-content-type-options"], a.headers["referrer-policy"]]).toEqual([
        "DENY",
        "nosniff",
        "strict-origin-when-cross-origin",
      ]);
      expect(a.headers["permissions-policy"]).toContain("camera=()");
    }
    await flushTracking();
  });
});
