import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { ManualClock } from "@/lib/clock";
import { systemCtx } from "@/lib/ctx";
import { runFinderEnrich } from "@/lib/finder/enrich-run";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { startDnsPeer } from "@/test/peers/dns";
import { POST as IMPORT } from "../directory/import/route";
import { GET as JOB } from "./jobs/[id]/route";
import { POST as ENRICH } from "./route";

/**
 * A host whose outbound SMTP port is refused (most cloud hosts refuse port 25): the port is found
 * unreachable once for the job, not person by person, and everyone still waiting is UNKNOWN with that
 * reason in the same run. Six domains of two people each; the MX hosts resolve (real DNS peer) to
 * 127.0.0.1, where nothing listens on SMTP_VERIFY_PORT.
 */
let ws: TestWorkspace;
let dns: Awaited<ReturnType<typeof startDnsPeer>>;
const clock = new ManualClock(new Date("2026-11-20T10:00:00Z"));
const DOMAINS = ["a", "b", "c", "d", "e", "f"].map((d) => `${d}.blocked.test`);

/** A port on 127.0.0.1 with nothing listening: bound, then closed again. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

beforeAll(async () => {
  dns = await startDnsPeer({
    MX: Object.fromEntries(DOMAINS.map((d) => [d, [{ exchange: `mx.${d}`, priority: 10 }]])),
    A: Object.fromEntries(DOMAINS.map((d) => [`mx.${d}`, ["127.0.0.1"]])),
  });
  Object.assign(process.env, {
    DNS_SERVERS: dns.server,
    SMTP_VERIFY_PORT: String(await closedPort()),
    SMTP_VERIFY_TIMEOUT_MS: "2000",
    SMTP_VERIFY_DELAY_MS: "0",
  });
  ws = await makeWorkspace();
});
afterAll(async () => {
  dns.close();
  for (const k of ["DNS_SERVERS", "SMTP_VERIFY_PORT", "SMTP_VERIFY_TIMEOUT_MS", "SMTP_VERIFY_DELAY_MS"]) delete process.env[k];
});

describe("enrichment where the SMTP port is refused", () => {
  it("finds it once per job, makes everyone still waiting UNKNOWN with the reason, and completes in one run saying what to do", async () => {
    const people = DOMAINS.flatMap((d, i) => [
      { firstName: "Ann", lastName: `One${i}`, companyDomain: d },
      { firstName: "Ben", lastName: `Two${i}`, companyDomain: d },
    ]);
    const imported = await call(IMPORT, "POST", "/finder/directory/import", { key: ws.fullKey, body: { people } });
    const started = await call(ENRICH, "POST", "/finder/enrich", { key: ws.fullKey, body: { personIds: imported.body.personIds } });
    expect(started.status).toBe(202);

    await runFinderEnrich(systemCtx(undefined, { db: getDb(), clock }));

    const job = (await call(JOB, "GET", "", { key: ws.readKey, params: { id: started.body.id } })).body;
    expect(job).toMatchObject({ status: "COMPLETED", total: 12, done: 12, found: 0, verified: 0 });
    expect(job.error).toContain("SMTP port");
    expect(job.error).toContain("SMTP_VERIFY_PORT");
    expect(job.error).toContain("provider");
    for (const r of job.results) {
      expect(r).toMatchObject({ pending: false, verificationStatus: "UNKNOWN", nextAttemptAt: null });
      expect(r.detail).toMatch(/ECONNREFUSED|refused/i);
    }
    // Only the first person of the domains worked at once was probed; the others were not tried at all.
    const probed = job.results.filter((r: { detail: string }) => !r.detail.includes("SMTP_VERIFY_PORT"));
    expect(probed.length).toBeGreaterThanOrEqual(1);
    expect(probed.length).toBeLessThanOrEqual(4);
  });
});
