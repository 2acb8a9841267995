import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDnsPeer, type Zone } from "@/test/peers/dns";
import { checkBlacklists, checkDkim, checkDmarc, checkMx, checkSpf } from "./checks";

const zone: Zone = {
  TXT: {
    "good.test": ["v=spf1 include:_spf.google.com ~all", "google-site-verification=abc"],
    "_spf.google.com": ["v=spf1 include:_netblocks.google.com ~all"],
    "_netblocks.google.com": ["v=spf1 ip4:192.0.2.0/24 ~all"],
    "noinclude.test": ["v=spf1 mx ~all"],
    "open.test": ["v=spf1 include:_spf.google.com +all"],
    "double.test": ["v=spf1 mx ~all", "v=spf1 a ~all"],
    "deep.test": ["v=spf1 include:l1.test include:l2.test include:l3.test include:l4.test ~all"],
    "l1.test": ["v=spf1 a mx include:l5.test ~all"],
    "l2.test": ["v=spf1 a mx ~all"],
    "l3.test": ["v=spf1 a mx ~all"],
    "l4.test": ["v=spf1 a mx exists:x.test ~all"],
    "l5.test": ["v=spf1 a ~all"],
    "google._domainkey.good.test": ["v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAtest"],
    "custom1._domainkey.noinclude.test": ["v=DKIM1; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQCtest"],
    "default._domainkey.revoked.test": ["v=DKIM1; p="],
    "_dmarc.good.test": ["v=DMARC1; p=reject; rua=mailto:d@good.test"],
    "_dmarc.noinclude.test": ["v=DMARC1; p=none"],
    "_dmarc.open.test": ["v=DMARC1; rua=mailto:x@open.test"],
  },
  MX: {
    "good.test": [
      { exchange: "aspmx.l.google.com", priority: 1 },
      { exchange: "alt1.aspmx.l.google.com", priority: 5 },
    ],
  },
  A: {
    "listed.test.dbl.spamhaus.org": ["127.0.1.2"],
    "mail.listed.test": ["192.0.2.9"],
    "9.2.0.192.bl.spamcop.net": ["127.0.0.2"],
    "mail.good.test": ["192.0.2.10"],
    "10.2.0.192.zen.spamhaus.org": ["127.255.255.254"],
  },
};

let dns: Awaited<ReturnType<typeof startDnsPeer>>;
beforeAll(async () => {
  dns = await startDnsPeer(zone);
  process.env.DNS_SERVERS = dns.server;
});
afterAll(() => {
  dns.close();
  delete process.env.DNS_SERVERS;
});

describe("SPF", () => {
  it("passes a record that includes the provider, counting look-ups through includes", async () => {
    expect(await checkSpf("good.test", ["GOOGLE"])).toMatchObject({
      status: "PASS",
      record: "v=spf1 include:_spf.google.com ~all",
      lookups: 2,
    });
  });
  it("warns when the provider is not included", async () => {
    const r = await checkSpf("noinclude.test", ["GOOGLE"]);
    expect(r.status).toBe("WARN");
    expect(r.reason).toContain("include:_spf.google.com");
  });
  it("is MISSING without a record and says what to add", async () => {
    const r = await checkSpf("none.test", ["MICROSOFT"]);
    expect(r.status).toBe("MISSING");
    expect(r.reason).toContain("include:spf.protection.outlook.com");
  });
  it("fails +all, two records, and more than 10 look-ups", async () => {
    expect((await checkSpf("open.test", ["GOOGLE"])).status).toBe("FAIL");
    expect((await checkSpf("double.test", [])).reason).toContain("More than one SPF record");
    const deep = await checkSpf("deep.test", []);
    // 4 includes + l1 (a, mx, include) + l5 (a) + l2 (a, mx) + l3 (a, mx) + l4 (a, mx, exists) = 15
    expect(deep).toMatchObject({ status: "FAIL", lookups: 15 });
    expect(deep.reason).toContain("15 DNS look-ups");
  });
});

describe("DKIM", () => {
  it("finds the provider's selector, a user-set selector, and reports a revoked key or none", async () => {
    expect(await checkDkim("good.test", ["GOOGLE"], [])).toMatchObject({ status: "PASS", selectors: ["google"] });
    expect((await checkDkim("noinclude.test", [], [])).status).toBe("MISSING");
    expect(await checkDkim("noinclude.test", [], ["custom1"])).toMatchObject({ status: "PASS", selectors: ["custom1"] });
    expect((await checkDkim("revoked.test", [], [])).status).toBe("FAIL");
  });
});

describe("DMARC and MX", () => {
  it("grades the DMARC policy", async () => {
    expect(await checkDmarc("good.test")).toMatchObject({ status: "PASS", policy: "reject" });
    expect(await checkDmarc("noinclude.test")).toMatchObject({ status: "WARN", policy: "none" });
    expect((await checkDmarc("open.test")).status).toBe("FAIL");
    expect((await checkDmarc("none.test")).status).toBe("MISSING");
  });
  it("lists MX hosts in priority order", async () => {
    expect(await checkMx("good.test")).toMatchObject({ status: "PASS", hosts: ["aspmx.l.google.com", "alt1.aspmx.l.google.com"] });
    expect((await checkMx("none.test")).status).toBe("MISSING");
  });
});

describe("blacklists", () => {
  it("finds domain and IP listings, and ignores a list's own error answers", async () => {
    const listed = await checkBlacklists("listed.test", ["mail.listed.test"]);
    expect(listed.status).toBe("FAIL");
    expect(listed.listings).toEqual([
      { zone: "dbl.spamhaus.org", target: "listed.test", answer: "127.0.1.2" },
      { zone: "bl.spamcop.net", target: "192.0.2.9", answer: "127.0.0.2" },
    ]);
    const clean = await checkBlacklists("good.test", ["mail.good.test"]);
    expect(clean.status).toBe("PASS"); // 127.255.255.254 is Spamhaus saying "query refused", not a listing
    expect(clean.reason).toContain("192.0.2.10");
  });
});
