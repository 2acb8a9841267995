import { isIP } from "node:net";
import { resolveA, resolveAaaa, resolveCname, type DnsResult } from "../net/dns";

/** `unanswered`: no look-up got an answer (timeouts, SERVFAIL), so the DNS said nothing either way. */
export type TrackingDnsAnswer = { ok: true; via: "CNAME" | "ADDRESS"; detail: string } | { ok: false; error: string; unanswered: boolean };

const bare = (h: string) => h.toLowerCase().replace(/\.$/, "");

/** The addresses of a name (A and AAAA), or of an IP literal itself; an error when neither question was answered. */
async function addresses(name: string): Promise<DnsResult<string>> {
  if (isIP(name)) return { ok: true, records: [name] };
  const [a, aaaa] = await Promise.all([resolveA(name), resolveAaaa(name)]);
  if (!a.ok && !aaaa.ok) return a;
  return { ok: true, records: [...(a.ok ? a.records : []), ...(aaaa.ok ? aaaa.records : [])] };
}

/**
 * Whether `domain` reaches this installation, through the resolver every DNS check uses (DNS_SERVERS):
 * its CNAME record names `target` (how a tracking domain is meant to be set up), or — for a DNS host
 * that flattens CNAMEs at the apex, or A records made by hand — every address of the domain is an
 * address of the target and it has at least one. Otherwise the answer says what the DNS held.
 */
export async function checkTrackingDns(domain: string, target: string): Promise<TrackingDnsAnswer> {
  const want = bare(target);
  const cname = await resolveCname(domain);
  if (cname.ok && cname.records.some((r) => bare(r) === want)) return { ok: true, via: "CNAME", detail: `${domain} is a CNAME to ${want}` };
  const own = await addresses(domain);
  const theirs = await addresses(want);
  if (own.ok && theirs.ok && own.records.length && own.records.every((ip) => theirs.records.includes(ip)))
    return { ok: true, via: "ADDRESS", detail: `${domain} has the addresses of ${want} (${own.records.join(", ")})` };
  const parts: string[] = [];
  if (!cname.ok) parts.push(`the CNAME look-up failed (${cname.error})`);
  else if (cname.records.length) parts.push(`its CNAME is ${cname.records.map(bare).join(", ")}, not ${want}`);
  else parts.push("it has no CNAME record");
  if (own.ok && own.records.length) {
    const of = theirs.ok && theirs.records.length ? `${want}'s (${theirs.records.join(", ")})` : `${want}'s (which has none)`;
    parts.push(`its addresses ${own.records.join(", ")} are not ${of}`);
  } else if (own.ok) parts.push("and no A or AAAA record");
  else parts.push(`the address look-up failed (${own.error})`);
  return {
    ok: false,
    error: `DNS for ${domain}: ${parts.join("; ")}. Create a CNAME record ${domain} → ${want}.`,
    unanswered: !cname.ok && !own.ok,
  };
}
