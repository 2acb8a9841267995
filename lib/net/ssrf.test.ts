import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDnsPeer } from "@/test/peers/dns";
import { addressProblem, allowListRefusal, checkOutboundUrl, parseAllowHosts } from "./ssrf";

let dns: Awaited<ReturnType<typeof startDnsPeer>>;
beforeAll(async () => {
  dns = await startDnsPeer({ A: { "hooks.corp.test": ["10.20.30.40"], "public.example.test": ["93.184.216.34"] } });
  process.env.DNS_SERVERS = dns.server;
});
afterAll(() => {
  delete process.env.DNS_SERVERS;
  dns.close();
});

const none = parseAllowHosts("");

async function reason(url: string, allow = none): Promise<string> {
  const r = await checkOutboundUrl(url, allow);
  if (r.ok) throw new Error(`${url} was allowed`);
  return r.reason;
}

describe("the outbound guard's refusals say why and how to allow a self-hosted receiver", () => {
  it("an IP literal: names the address and its range, and OUTBOUND_ALLOW_HOSTS with that address", async () => {
    const r = await reason("http://10.0.0.1:8080/hook");
    expect(r).toContain("points at a private or reserved address (10.0.0.1 is a private address, not a public one)");
    expect(r).toContain("add 10.0.0.1 to OUTBOUND_ALLOW_HOSTS");
    expect(await reason("http://127.0.0.1:9/")).toContain("127.0.0.1 is a loopback address");
    expect(await reason("http://169.254.169.254/latest/meta-data/")).toContain("169.254.169.254 is a link-local address");
  });

  it("a name that resolves to a private address: says so, with the address, and names the host to allow", async () => {
    const r = await reason("https://hooks.corp.test/in");
    expect(r).toMatch(/^resolves to a private or reserved address \(10\.20\.30\.40 is a private address/);
    expect(r).toContain("add hooks.corp.test to OUTBOUND_ALLOW_HOSTS");
  });

  it("an internal host name: named, with the hint", async () => {
    const r = await reason("http://localhost:3000/");
    expect(r).toContain("points at an internal host name (localhost)");
    expect(r).toContain("OUTBOUND_ALLOW_HOSTS");
  });

  it("refusals the allow list cannot lift do not mention it", async () => {
    for (const url of ["ftp://public.example.test/", "http://user:pw@public.example.test/", "not a url", "http://nowhere.invalid/"]) {
      expect(await reason(url)).not.toContain("OUTBOUND_ALLOW_HOSTS");
    }
  });

  it("what the hint says works: the same URL passes once the host is on the allow list", async () => {
    expect((await checkOutboundUrl("http://10.0.0.1:8080/hook", parseAllowHosts("10.0.0.1"))).ok).toBe(true);
    expect((await checkOutboundUrl("https://hooks.corp.test/in", parseAllowHosts("hooks.corp.test"))).ok).toBe(true);
    expect((await checkOutboundUrl("https://public.example.test/in", none)).ok).toBe(true);
  });

  it("one wording for every caller; address problems read as a sentence", () => {
    expect(allowListRefusal("points at x", "h.example")).toBe(
      "points at x. To reach a self-hosted receiver or service there, the server's operator can add h.example to OUTBOUND_ALLOW_HOSTS " +
        "(a comma list of hosts or CIDRs) and restart",
    );
    expect(addressProblem("fd00::1", none)).toBe("fd00::1 is a unique-local (private IPv6) address, not a public one");
    expect(addressProblem("0.0.0.0", none)).toBe("0.0.0.0 is an unspecified address, not a public one");
    expect(addressProblem("93.184.216.34", none)).toBeUndefined();
  });
});
