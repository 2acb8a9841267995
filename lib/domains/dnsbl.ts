import { isIP } from "node:net";
import { mapLimit } from "../concurrency";
import { resolveA, resolveMx } from "../net/dns";
import { jobsEnv } from "../env";

/**
 * DNS blocklist look-ups, one (target, zone) at a time: the one look-up code behind the domain checks
 * (POST /domains/<id>/check, /domains/bulk-check, the daily re-check) and the blacklist check jobs
 * (POST /blacklist/bulk-check). Zones come from DNSBL_DOMAIN_ZONES and DNSBL_IP_ZONES, the resolver
 * from DNS_SERVERS (lib/net/dns).
 */

export type DnsblTargetType = "domain" | "ip";

export interface DnsblAnswer {
  listed: boolean;
  /** The zone's answer when listed, what went wrong when the look-up failed, null when not listed. */
  answer: string | null;
  /** The zone could not say (DNS error, or the list's own error answer such as 127.255.255.254). */
  failed: boolean;
}

function zoneList(envName: "DNSBL_DOMAIN_ZONES" | "DNSBL_IP_ZONES", fallback: string): string[] {
  return (jobsEnv.dnsblZones(envName) ?? fallback)
    .split(",")
    .map((z) => z.trim().toLowerCase().replace(/\.$/, ""))
    .filter(Boolean);
}

/** The zones each kind of target is looked up in. */
export function dnsblZones(): Record<DnsblTargetType, string[]> {
  return {
    domain: zoneList("DNSBL_DOMAIN_ZONES", "dbl.spamhaus.org,multi.uribl.com,multi.surbl.org"),
    ip: zoneList("DNSBL_IP_ZONES", "zen.spamhaus.org,bl.spamcop.net,b.barracudacentral.org"),
  };
}

/** `ip` → the reversed form DNSBLs index: 192.0.2.9 → 9.2.0.192; IPv6 as reversed nibbles (RFC 5782 2.4). */
function reversedIp(ip: string): string {
  if (isIP(ip) === 4) return ip.split(".").reverse().join(".");
  const [head, tail = ""] = ip.toLowerCase().split("::");
  const groups = (s: string) => (s ? s.split(":") : []);
  const h = groups(head);
  const t = groups(tail);
  const full = [...h, ...Array(8 - h.length - t.length).fill("0"), ...t].map((g) => g.padStart(4, "0")).join("");
  return full.split("").reverse().join(".");
}

/** The DNS name asked for `target` in `zone`. */
export function dnsblName(target: string, type: DnsblTargetType, zone: string): string {
  return type === "ip" ? `${reversedIp(target)}.${zone}` : `${target}.${zone}`;
}

/**
 * A listing is 127.0.0.2–127.0.1.255 (RFC 5782 2.3; Spamhaus's DBL answers 127.0.1.x). 127.255.255.x
 * is the list refusing or rejecting the query (e.g. Spamhaus through a public resolver): no verdict.
 */
function classify(addr: string): "listed" | "refused" | "other" {
  if (/^127\.0\.[01]\.\d+$/.test(addr) && addr !== "127.0.0.1") return "listed";
  if (addr.startsWith("127.255.255.")) return "refused";
  return "other";
}

/** Asks `zone` about `target`: NXDOMAIN (or no A record) means not listed. */
export async function lookupDnsbl(target: string, type: DnsblTargetType, zone: string): Promise<DnsblAnswer> {
  const r = await resolveA(dnsblName(target, type, zone));
  if (!r.ok) return { listed: false, answer: r.error.slice(0, 500), failed: true };
  const kinds = r.records.map((a) => ({ a, kind: classify(a) }));
  const listing = kinds.filter((k) => k.kind === "listed").map((k) => k.a);
  if (listing.length) return { listed: true, answer: listing.join(", "), failed: false };
  const refused = kinds.find((k) => k.kind === "refused");
  if (refused) return { listed: false, answer: `${refused.a}: the list refused the query`, failed: true };
  return { listed: false, answer: null, failed: false };
}

/**
 * One target's verdict from its zones' answers: the zones listing it, and `clean` when every zone
 * answered and none listed it (a zone that could not answer keeps a verdict from being clean). The
 * rule the domain checks and the blacklist jobs both judge BLACKLISTED alerts by.
 */
export function verdictOf(answers: readonly { zone: string; listed: boolean; answer: string | null }[]): {
  listedOn: { zone: string; answer: string }[];
  clean: boolean;
} {
  return {
    listedOn: answers.filter((a) => a.listed).map((a) => ({ zone: a.zone, answer: a.answer ?? "" })),
    clean: answers.length > 0 && answers.every((a) => !a.listed && a.answer === null),
  };
}

/** How many look-ups run at once in one caller (one domain check, or one job's run). */
export const DNSBL_CONCURRENCY = 16;

/** IPv4 addresses of `hosts` (at most `perHost` each), once each, in order. Hosts that do not resolve are skipped. */
export async function addressesOf(hosts: string[], perHost = 2): Promise<string[]> {
  const answers = await mapLimit(hosts, DNSBL_CONCURRENCY, async (h) => {
    const a = await resolveA(h);
    return a.ok ? a.records.slice(0, perHost) : [];
  });
  return [...new Set(answers.flat())];
}

/**
 * The addresses a sending domain's mail uses: its own A records and those of its MX hosts. Bounded: 4 addresses of the domain, 5 MX hosts with 2 addresses each.
 */
export async function sendingAddresses(domain: string): Promise<string[]> {
  const [own, mx] = await Promise.all([resolveA(domain), resolveMx(domain)]);
  const hosts = mx.ok ? mx.records.map((r) => r.exchange.replace(/\.$/, "")).filter(Boolean) : [];
  const viaMx = await addressesOf(hosts.slice(0, 5));
  return [...new Set([...(own.ok ? own.records.slice(0, 4) : []), ...viaMx])];
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** A host name DNSBLs can be asked about: dot-separated labels, a non-numeric TLD, 253 characters at most. */
export function isDomainName(s: string): boolean {
  if (s.length > 253 || isIP(s)) return false;
  const labels = s.split(".");
  return labels.length >= 2 && labels.every((l) => LABEL.test(l)) && !/^\d+$/.test(labels[labels.length - 1]);
}

/** The form targets are stored and compared in: lower case, no trailing dot; IPv6 as written, lower case. */
export function normalizeTarget(s: string): string {
  return s.trim().toLowerCase().replace(/\.$/, "");
}
