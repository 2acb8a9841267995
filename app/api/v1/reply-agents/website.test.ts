import http from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { runWebsiteScans } from "@/lib/reply-agents/crawl";
import { ManualClock, systemClock, useClock } from "@/lib/clock";
import { systemCtx } from "@/lib/ctx";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { GET as GET_ONE } from "./[id]/route";
import { POST as SEARCH } from "./[id]/search/route";
import { POST as INDEX } from "./[id]/website/index/route";
import { GET as PROGRESS, POST as SCAN } from "./[id]/website/scan/route";
import { POST as CREATE } from "./route";

/**
 * A real site on node:http: robots.txt disallows /private, the home page links to an off-site host
 * (localhost: same server, another name), an image, a redirect and many more pages than maxPages.
 */
const requests: { host: string; path: string }[] = [];
let site: http.Server;
let port = 0;
const clock = new ManualClock(new Date("2026-11-20T09:00:00Z"));
let ws: TestWorkspace;

function page(title: string, body: string, links: string[] = []) {
  return `<!doctype html><html><head><title>${title}</title><script>var x = "script text";</script></head><body>
    <nav>${links.map((l) => `<a href="${l}">${l}</a>`).join(" ")}</nav>
    <article><h1>${title}</h1>${body
      .split("\n")
      .map((p) => `<p>${p}</p>`)
      .join("")}</article></body></html>`;
}

const PAGES: Record<string, string> = {
  "/": page("Acme home", "Acme builds widgets for workshops. Our widgets are loved by makers in forty countries.", [
    "/about",
    "/pricing#plans",
    "/private/secret",
    "/logo.png",
    "/old-pricing",
    "mailto:hi@acme.test",
    `http://localhost:${"PORT"}/offsite`,
    ...Array.from({ length: 40 }, (_, i) => `/blog/${i}`),
  ]),
  "/about": page("About Acme", "Acme was founded in 2012 in Utrecht by two engineers.\nWe employ thirty people and ship worldwide."),
  "/pricing": page("Pricing", "The pro plan costs 99 dollars per month and includes phone support.\nThe free plan covers one user."),
  "/private/secret": page("Secret", "Internal only."),
};

beforeAll(async () => {
  process.env.RATE_LIMIT_DISABLED = "1";
  site = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    requests.push({ host: String(req.headers.host).split(":")[0], path });
    if (path === "/robots.txt") return res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nDisallow: /private\n");
    if (path === "/logo.png") return res.writeHead(200, { "content-type": "image/png" }).end("PNG");
    if (path === "/old-pricing") return res.writeHead(301, { location: "/pricing" }).end();
    const blog = path.match(/^\/blog\/(\d+)$/);
    const html =
      PAGES[path] ??
      (blog ? page(`Post ${blog[1]}`, `Blog post number ${blog[1]} about widget care.`, [`/blog/${Number(blog[1]) + 100}`]) : null);
    if (!html) return res.writeHead(404).end("nope");
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html.replace("PORT", String(port)));
  });
  await new Promise<void>((r) => site.listen(0, "127.0.0.1", () => r()));
  port = (site.address() as { port: number }).port;
  process.env.OUTBOUND_ALLOW_HOSTS = "127.0.0.1";
  useClock(clock);
  ws = await makeWorkspace();
});
beforeEach(() => {
  requests.length = 0;
  delete process.env.AGENT_CRAWL_MAX_S;
});
afterAll(async () => {
  useClock(systemClock);
  delete process.env.OUTBOUND_ALLOW_HOSTS;
  site.closeAllConnections();
  await new Promise((r) => site.close(r));
});

const agent = async () => (await call(CREATE, "POST", "/reply-agents", { key: ws.fullKey, body: { name: "Site bot" } })).body.id as string;
const progress = async (id: string) => (await call(PROGRESS, "GET", "", { key: ws.readKey, params: { id } })).body;
const job = () => runWebsiteScans(systemCtx(undefined, { db: getDb(), clock }));
async function crawlToEnd() {
  for (let i = 0; i < 20; i++) {
    const r = await job();
    if (!r || r.status === "COMPLETED") return r;
  }
  throw new Error("the crawl did not finish");
}

describe("website scan and index", () => {
  it("crawls the start site only, honours robots.txt, stops at maxPages, then indexes chosen pages", async () => {
    const id = await agent();
    const start = await call(SCAN, "POST", "", {
      key: ws.fullKey,
      params: { id },
      body: { url: `http://127.0.0.1:${port}/`, maxPages: 6 },
    });
    expect(start.status).toBe(202);
    expect(start.body).toMatchObject({ status: "QUEUED", pagesFound: 1, maxPages: 6, domain: "127.0.0.1" });
    expect(start.body.pages).toEqual([{ url: `http://127.0.0.1:${port}/`, title: null, status: "FOUND" }]);
    await crawlToEnd();

    const p = await progress(id);
    expect(p.status).toBe("COMPLETED");
    expect(p.pagesFound).toBe(6);
    expect(p.pagesFetched).toBe(6);
    const byUrl = Object.fromEntries(p.pages.map((x: { url: string }) => [x.url.replace(`http://127.0.0.1:${port}`, ""), x]));
    expect(Object.keys(byUrl)).toEqual(["/", "/about", "/pricing", "/logo.png", "/old-pricing", "/blog/0"]);
    expect(byUrl["/"]).toMatchObject({ title: "Acme home", status: "FETCHED" });
    expect(byUrl["/pricing"]).toMatchObject({ title: "Pricing", status: "FETCHED" });
    expect(byUrl["/logo.png"].status).toBe("SKIPPED");
    expect(byUrl["/old-pricing"].status).toBe("SKIPPED");
    // robots.txt was read, the disallowed path and the other host were never asked for, nothing past maxPages.
    expect(requests.some((r) => r.path === "/robots.txt")).toBe(true);
    expect(requests.filter((r) => r.path.startsWith("/private"))).toEqual([]);
    expect(requests.filter((r) => r.host !== "127.0.0.1")).toEqual([]);
    expect(requests.filter((r) => r.path !== "/robots.txt")).toHaveLength(6);
    expect((await call(GET_ONE, "GET", "", { key: ws.readKey, params: { id } })).body.website).toEqual({
      domain: "127.0.0.1",
      status: "COMPLETED",
      pagesFound: 6,
      pagesIndexed: 0,
    });

    const pricingUrl = `http://127.0.0.1:${port}/pricing`;
    const chosen = await call(INDEX, "POST", "", {
      key: ws.fullKey,
      params: { id },
      body: { urls: [pricingUrl, "http://elsewhere.test/x"] },
    });
    expect(chosen.body).toMatchObject({ indexed: 1, skipped: ["http://elsewhere.test/x"] });
    expect(chosen.body.chunks).toBeGreaterThan(0);
    const ask = (query: string) => call(SEARCH, "POST", "", { key: ws.fullKey, params: { id }, body: { query } });
    const hit = (await ask("How much is the pro plan?")).body.results[0];
    expect(hit).toMatchObject({ source: pricingUrl, title: "Pricing" });
    expect(hit.snippet).toContain("99 dollars");
    expect(hit.snippet).not.toContain("script text");
    expect((await ask("when was Acme founded")).body.results.map((r: { source: string }) => r.source)).not.toContain(
      `http://127.0.0.1:${port}/about`,
    );

    const all = await call(INDEX, "POST", "", { key: ws.fullKey, params: { id } });
    expect(all.body).toMatchObject({ indexed: 4, skipped: [] });
    expect((await ask("when was Acme founded")).body.results[0].source).toBe(`http://127.0.0.1:${port}/about`);
    expect((await progress(id)).pages.filter((x: { status: string }) => x.status === "INDEXED")).toHaveLength(4);
    expect((await call(GET_ONE, "GET", "", { key: ws.readKey, params: { id } })).body.website.pagesIndexed).toBe(4);
  });

  it("stops at the crawl time limit (AGENT_CRAWL_MAX_S) and shows the rest as skipped", async () => {
    process.env.AGENT_CRAWL_MAX_S = "60";
    const id = await agent();
    await call(SCAN, "POST", "", { key: ws.fullKey, params: { id }, body: { url: `http://127.0.0.1:${port}/`, maxPages: 200 } });
    expect((await job())?.status).toBe("RUNNING");
    const mid = await progress(id);
    expect(mid.status).toBe("RUNNING");
    expect(mid.pagesFetched).toBe(24);
    expect(mid.pagesFound).toBeGreaterThan(24);
    clock.advance(61_000);
    expect((await job())?.status).toBe("COMPLETED");
    const end = await progress(id);
    expect(end).toMatchObject({ status: "COMPLETED", pagesFetched: mid.pagesFound, error: expect.stringContaining("time limit") });
    expect(end.pages.filter((x: { status: string }) => x.status === "FOUND")).toEqual([]);
    expect(requests.filter((r) => r.path !== "/robots.txt")).toHaveLength(24);
  });

  it("refuses a start URL the SSRF guard refuses (400 on url) and another workspace's agent (404)", async () => {
    const id = await agent();
    delete process.env.OUTBOUND_ALLOW_HOSTS;
    try {
      for (const url of [`http://127.0.0.1:${port}/`, "http://10.1.2.3/", "http://169.254.169.254/latest/meta-data", "ftp://acme.test/"]) {
        const r = await call(SCAN, "POST", "", { key: ws.fullKey, params: { id }, body: { url } });
        expect(r.status, url).toBe(400);
        expect(r.body).toMatchObject({ code: "VALIDATION_ERROR", details: { fieldErrors: { url: [expect.any(String)] } } });
      }
    } finally {
      process.env.OUTBOUND_ALLOW_HOSTS = "127.0.0.1";
    }
    expect((await progress(id)).status).toBeNull();
    const tooMany = await call(SCAN, "POST", "", {
      key: ws.fullKey,
      params: { id },
      body: { url: `http://127.0.0.1:${port}/`, maxPages: 201 },
    });
    expect(tooMany.body.details.fieldErrors.maxPages).toBeDefined();
    const other = await makeWorkspace();
    expect((await call(SCAN, "POST", "", { key: other.fullKey, params: { id }, body: { url: `http://127.0.0.1:${port}/` } })).status).toBe(
      404,
    );
    expect((await call(PROGRESS, "GET", "", { key: other.readKey, params: { id } })).status).toBe(404);
    expect((await call(INDEX, "POST", "", { key: other.fullKey, params: { id } })).status).toBe(404);
    expect(requests).toEqual([]);
  });
});
