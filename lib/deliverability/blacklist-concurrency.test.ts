import dns2 from "dns2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { ManualClock } from "@/lib/clock";
import { systemCtx } from "@/lib/ctx";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { POST } from "@/app/api/v1/blacklist/bulk-check/route";
import { GET as JOB } from "@/app/api/v1/blacklist/bulk-check/[jobId]/route";
import { runBlacklistChecks } from "./blacklist-run";
import { DNSBL_CONCURRENCY } from "../domains/dnsbl";

// dns2's types want Resource instances; plain objects are what it encodes.
const { Packet } = dns2 as any;

/**
 * The look-ups run with a bounded concurrency. A real DNS server (dns2) that answers
 * each query 40 ms late (NXDOMAIN: not listed) counts how many are in flight at once.
 */
let inFlight = 0;
let most = 0;
let answered = 0;
let server: any;
let ws: TestWorkspace;

beforeAll(async () => {
  server = (dns2 as any).createServer({
    udp: true,
    handle(request: any, send: any) {
      inFlight++;
      most = Math.max(most, inFlight);
      setTimeout(() => {
        inFlight--;
        answered++;
        const response = Packet.createResponseFromRequest(request);
        response.header.rcode = Packet.RCODE.NXDOMAIN;
        send(response);
      }, 40);
    },
  });
  await server.listen({ udp: { port: 0, address: "127.0.0.1" } });
  process.env.DNS_SERVERS = `127.0.0.1:${server.addresses().udp.port}`;
  process.env.DNSBL_DOMAIN_ZONES = "dbl.test";
  process.env.DNSBL_IP_ZONES = "zen.test,bl.test";
  ws = await makeWorkspace();
});
afterAll(() => {
  server?.close();
  for (const k of ["DNS_SERVERS", "DNSBL_DOMAIN_ZONES", "DNSBL_IP_ZONES"]) delete process.env[k];
});

describe("blacklist job concurrency", () => {
  it("asks at most DNSBL_CONCURRENCY look-ups at once, and more than one", async () => {
    const ips = Array.from({ length: 60 }, (_, i) => `198.51.100.${i + 1}`);
    const started = await call(POST, "POST", "/blacklist/bulk-check", { key: ws.fullKey, body: { ips, domains: ["example.test"] } });
    expect(started.status).toBe(202);
    const clock = new ManualClock(new Date("2026-11-02T09:00:00Z"));
    await runBlacklistChecks(systemCtx(undefined, { db: getDb(), clock }));
    const job = (await call(JOB, "GET", "", { key: ws.readKey, params: { jobId: started.body.jobId } })).body;
    expect(job).toMatchObject({ status: "COMPLETED", total: 121, done: 121, listedCount: 0, failedCount: 0 });
    expect(answered).toBeGreaterThanOrEqual(121);
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(DNSBL_CONCURRENCY);
  }, 60_000);
});
