import { systemCtx } from "@/lib/ctx";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { ManualClock } from "@/lib/clock";
import { domainCheckJob } from "@/inngest/functions/domain-checks";
import { ensureDomain } from "@/lib/domains/ensure-domain";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { startMailWorld } from "@/test/mail-setup";
import { PUT as CONNECT } from "../mailboxes/by-email/[email]/route";
import { GET } from "./route";
import { DELETE, GET as GET_ONE, PATCH } from "./[id]/route";
import { POST as CHECK } from "./[id]/check/route";
import { POST as BULK_CHECK } from "./bulk-check/route";
import { POST as BULK_DELETE } from "./bulk-delete/route";

let world: Awaited<ReturnType<typeof startMailWorld>>;
let ws: TestWorkspace;
let acmeId: string;
let spareId: string;

beforeAll(async () => {
  world = await startMailWorld({
    domain: "acme.test",
    users: { "ann@acme.test": "pw" },
    zone: {
      TXT: {
        "acme.test": ["v=spf1 ip4:192.0.2.1 -all"],
        "_dmarc.acme.test": ["v=DMARC1; p=quarantine"],
        "s2024._domainkey.acme.test": ["v=DKIM1; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDtestkey"],
      },
      MX: { "acme.test": [{ exchange: "mx.acme.test", priority: 10 }] },
      A: { "mx.acme.test": ["192.0.2.1"] },
    },
  });
  ws = await makeWorkspace();
  expect(
    (await call(CONNECT, "PUT", "", { key: ws.fullKey, params: { email: "ann@acme.test" }, body: { appPassword: "pw" } })).status,
  ).toBe(201);
  spareId = await ensureDomain(getDb(), ws.workspaceId, "spare.test");
  const list = await call(GET, "GET", "/domains", { key: ws.readKey });
  acmeId = list.body.find((d: any) => d.domain === "acme.test").id;
});
afterAll(() => world.close());

describe("/domains", () => {
  it("lists domains as a plain array with paging headers; unchecked until checked", async () => {
    const r = await call(GET, "GET", "/domains", { key: ws.readKey });
    expect(r.body.map((d: any) => [d.domain, d.mailboxes, d.spfStatus])).toEqual([
      ["acme.test", 1, "UNCHECKED"],
      ["spare.test", 0, "UNCHECKED"],
    ]);
    expect([r.headers.get("X-Total-Count"), r.headers.get("X-Page"), r.headers.get("X-Limit")]).toEqual(["2", "1", "2000"]);
  });

  it("checks SPF, DKIM, DMARC, MX and blacklists from DNS and stores each with its reason and the time", async () => {
    const r = await call(CHECK, "POST", "", { key: ws.fullKey, params: { id: acmeId } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      spfStatus: "PASS",
      dmarcStatus: "PASS",
      mxStatus: "PASS",
      blacklistStatus: "PASS",
      dkimStatus: "MISSING",
    });
    expect(r.body.checks.spf).toMatchObject({ status: "PASS", record: "v=spf1 ip4:192.0.2.1 -all", reason: expect.any(String) });
    expect(r.body.checks.dkim.reason).toContain("No DKIM key found");
    expect(r.body.lastCheckedAt).not.toBeNull();
    // A selector the user sets is looked for on the next check.
    await call(PATCH, "PATCH", "", { key: ws.fullKey, params: { id: acmeId }, body: { dkimSelectors: ["s2024"] } });
    const again = await call(CHECK, "POST", "", { key: ws.fullKey, params: { id: acmeId } });
    expect(again.body.dkimStatus).toBe("PASS");
    const stored = await call(GET_ONE, "GET", "", { key: ws.readKey, params: { id: acmeId } });
    expect(stored.body.checks.dkim.selectors).toEqual(["s2024"]);
    const bad = await call(PATCH, "PATCH", "", { key: ws.fullKey, params: { id: acmeId }, body: { dkimSelectors: ["bad selector!"] } });
    expect(bad.status).toBe(400);
  });

  it("bulk-checks many domains and lists unknown ids", async () => {
    const r = await call(BULK_CHECK, "POST", "/domains/bulk-check", {
      key: ws.fullKey,
      body: { domainIds: [acmeId, spareId, "dom_nope"] },
    });
    expect(r.body.checked).toBe(2);
    expect(r.body.notFound).toEqual(["dom_nope"]);
    const spare = r.body.domains.find((d: any) => d.domain === "spare.test");
    expect(spare).toMatchObject({ spfStatus: "MISSING", dmarcStatus: "MISSING", mxStatus: "MISSING" });
  });

  it("refuses to delete a domain that still has mailboxes (409) and bulk-deletes the rest", async () => {
    const r = await call(DELETE, "DELETE", "", { key: ws.fullKey, params: { id: acmeId } });
    expect(r.status).toBe(409);
    expect(r.body.error).toContain("1 mailbox");
    const other = await makeWorkspace();
    expect((await call(DELETE, "DELETE", "", { key: other.fullKey, params: { id: spareId } })).status).toBe(404);
    const bulk = await call(BULK_DELETE, "POST", "/domains/bulk-delete", { key: ws.fullKey, body: { domainIds: [acmeId, spareId] } });
    expect(bulk.body).toEqual({
      deleted: 1,
      notFound: [],
      conflicts: [{ id: acmeId, domain: "acme.test", reason: "still has 1 mailbox(es)" }],
    });
    expect((await call(GET, "GET", "/domains", { key: ws.readKey })).body.map((d: any) => d.domain)).toEqual(["acme.test"]);
  });

  it("re-checks stale domains in the background job", async () => {
    const fresh = await ensureDomain(getDb(), ws.workspaceId, "new.test");
    const clock = new ManualClock(new Date(Date.now() + 1000));
    const result = await domainCheckJob.run(systemCtx(undefined, { db: getDb(), clock }));
    expect(result).toEqual({ checked: 1 });
    const d = await call(GET_ONE, "GET", "", { key: ws.readKey, params: { id: fresh } });
    expect(d.body.spfStatus).toBe("MISSING");
    clock.advance(25 * 3600_000);
    expect(await domainCheckJob.run(systemCtx(undefined, { db: getDb(), clock }))).toEqual({ checked: 2 });
  });
});
