import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { ManualClock } from "@/lib/clock";
import { systemCtx } from "@/lib/ctx";
import { GREYLIST_RETRY_MS, runFinderEnrich } from "@/lib/finder/enrich-run";
import { probeAddress } from "@/lib/finder/verify";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { startDnsPeer } from "@/test/peers/dns";
import { startVerifyPeers } from "@/test/peers/verify-peers";
import { POST as IMPORT } from "../directory/import/route";
import { GET as JOB } from "./jobs/[id]/route";
import { POST as ENRICH } from "./route";

/**
 * Enrichment against greylisting SMTP servers (real smtp-server peers that greylist each recipient on
 * its own, as a greylister's triplet does): a 450/451 is never a final verdict; the person waits for
 * the next attempt on the injected clock, and the answer after the greylisting is the verdict.
 * - third.test answers 450 to every new recipient once; the person's address is the third pattern;
 * - anyone.test greylists once, then accepts any address (a catch-all behind greylisting);
 * - mailfrom.test answers 450 to MAIL FROM in its first session;
 * - forever.test greylists every recipient, every time.
 */
let ws: TestWorkspace;
let dns: Awaited<ReturnType<typeof startDnsPeer>>;
let smtp: Awaited<ReturnType<typeof startVerifyPeers>>;
const clock = new ManualClock(new Date("2026-11-20T10:00:00Z"));
const DOMAINS = ["third.test", "anyone.test", "mailfrom.test", "forever.test"];

const run = () => runFinderEnrich(systemCtx(undefined, { db: getDb(), clock }));
type Result = {
  personId: string;
  email: string | null;
  verificationStatus: string;
  pending: boolean;
  nextAttemptAt: string | null;
  detail: string;
};
async function results(id: string): Promise<{ job: Record<string, unknown>; by: Record<string, Result> }> {
  const job = (await call(JOB, "GET", "", { key: ws.readKey, params: { id } })).body;
  return { job, by: Object.fromEntries(job.results.map((r: Result) => [r.personId, r])) };
}

beforeAll(async () => {
  smtp = await startVerifyPeers([
    { kind: "greylist", times: 1, code: 450, known: ["dscully@third.test"] },
    { kind: "greylist", times: 1, known: [], catchAll: true },
    { kind: "greylist", times: 1, known: ["max.mail@mailfrom.test"], at: "mail" },
    { kind: "greylist", times: 1000, known: ["nora.never@forever.test"] },
  ]);
  dns = await startDnsPeer({
    MX: Object.fromEntries(DOMAINS.map((d) => [d, [{ exchange: `mx.${d}`, priority: 10 }]])),
    A: Object.fromEntries(DOMAINS.map((d, i) => [`mx.${d}`, [smtp.peers[i].host]])),
  });
  Object.assign(process.env, {
    DNS_SERVERS: dns.server,
    SMTP_VERIFY_PORT: String(smtp.port),
    SMTP_VERIFY_TIMEOUT_MS: "2000",
    SMTP_VERIFY_DELAY_MS: "0",
  });
  ws = await makeWorkspace();
});
afterAll(async () => {
  dns.close();
  await smtp.close();
  for (const k of ["DNS_SERVERS", "SMTP_VERIFY_PORT", "SMTP_VERIFY_TIMEOUT_MS", "SMTP_VERIFY_DELAY_MS"]) delete process.env[k];
});

describe("enrichment against greylisting servers", () => {
  it("keeps greylisted people pending and retries them on the clock; the answers after greylisting are the verdicts", async () => {
    const people = [
      { firstName: "Dana", lastName: "Scully", companyDomain: "third.test" },
      { firstName: "Ann", lastName: "Any", companyDomain: "anyone.test" },
      { firstName: "Max", lastName: "Mail", companyDomain: "mailfrom.test" },
      { firstName: "Nora", lastName: "Never", companyDomain: "forever.test" },
    ];
    const imported = await call(IMPORT, "POST", "/finder/directory/import", { key: ws.fullKey, body: { people } });
    const [dana, ann, max, nora] = imported.body.personIds as string[];
    const started = await call(ENRICH, "POST", "/finder/enrich", { key: ws.fullKey, body: { personIds: [dana, ann, max, nora] } });
    expect(started.status).toBe(202);
    const [third, anyone, mailFrom, forever] = smtp.peers;

    // First attempt: every server says "try again later". Nobody is final, nobody is UNKNOWN.
    await run();
    let r = await results(started.body.id);
    expect(r.job).toMatchObject({ status: "RUNNING", done: 0, found: 0 });
    const retryAt = new Date(clock.now().getTime() + GREYLIST_RETRY_MS[0]).toISOString();
    for (const id of [dana, ann, max, nora]) {
      expect(r.by[id]).toMatchObject({ pending: true, verificationStatus: "UNVERIFIED", email: null, nextAttemptAt: retryAt });
      expect(r.by[id].detail).toMatch(/\b45[01] 4\.7\.1 Greylisted/);
    }
    expect(r.by[dana].detail).toMatch(/^450 /);
    // Every candidate and the catch-all probe were asked once, so the greylister has seen them all.
    expect(third.rcpts).toEqual([
      "dana.scully@third.test",
      "dana@third.test",
      "dscully@third.test",
      ...third.rcpts.slice(3, -1),
      probeAddress("third.test"),
    ]);
    expect(anyone.rcpts.at(-1)).toBe(probeAddress("anyone.test"));
    expect(mailFrom.rcpts).toEqual([]);

    // Not due yet: no session at all.
    const asked = [third, anyone, mailFrom, forever].map((p) => p.rcpts.length);
    clock.advance(GREYLIST_RETRY_MS[0] - 1000);
    await run();
    expect([third, anyone, mailFrom, forever].map((p) => p.rcpts.length)).toEqual(asked);

    // Due: the retry finds the third pattern VALID, the catch-all CATCH_ALL (its probe is the same address
    // as before, so it is past the greylisting too), and MAIL FROM accepted this time.
    clock.advance(1000);
    await run();
    r = await results(started.body.id);
    expect(r.by[dana]).toMatchObject({ pending: false, email: "dscully@third.test", verificationStatus: "VALID" });
    expect(r.by[ann]).toMatchObject({ pending: false, email: "ann.any@anyone.test", verificationStatus: "CATCH_ALL" });
    expect(r.by[max]).toMatchObject({ pending: false, email: "max.mail@mailfrom.test", verificationStatus: "VALID" });
    expect(r.by[nora]).toMatchObject({ pending: true, verificationStatus: "UNVERIFIED" });
    expect(r.job).toMatchObject({ status: "RUNNING", done: 3, found: 3, verified: 2 });

    // A server that never lets us through: retried after 15 and 60 more minutes, then UNKNOWN, and the job completes.
    clock.advance(GREYLIST_RETRY_MS[1]);
    await run();
    expect((await results(started.body.id)).by[nora]).toMatchObject({ pending: true });
    clock.advance(GREYLIST_RETRY_MS[2]);
    await run();
    r = await results(started.body.id);
    expect(r.by[nora]).toMatchObject({ pending: false, verificationStatus: "UNKNOWN", email: null, nextAttemptAt: expect.any(String) });
    expect(r.by[nora].detail).toContain("still greylisted after 4 attempts");
    expect(r.job).toMatchObject({ status: "COMPLETED", done: 4, found: 3, verified: 2 });
  });
});
