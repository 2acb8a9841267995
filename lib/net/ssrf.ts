import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";
import { outboundEnv } from "../env";
import { dnsResolver } from "./dns";

/**
 * The outbound guard: webhooks, crawls and any other HTTP call the product makes may reach only public
 * unicast addresses (never internal or private networks, nor cloud metadata endpoints), unless
 * OUTBOUND_ALLOW_HOSTS lists the host or its network.
 */

const BLOCKED_NAMES = [
  /^localhost$/,
  /\.localhost$/,
  /^metadata$/,
  /^metadata\.google\.internal$/,
  /^metadata\.goog$/,
  /\.internal$/,
  /^instance-data(\.|$)/,
  /^kubernetes(\.default)?(\.|$)/,
];
/** Metadata endpoints that are not already in a non-unicast range. */
const BLOCKED_CIDRS = ["100.100.100.200/32", "192.0.0.192/32"].map((c) => ipaddr.parseCIDR(c));

export interface AllowList {
  hosts: Set<string>;
  cidrs: [ipaddr.IPv4 | ipaddr.IPv6, number][];
}

let cachedAllow: { raw: string; list: AllowList } | undefined;

/** OUTBOUND_ALLOW_HOSTS, parsed once per value. */
export function allowList(raw = outboundEnv.allowHosts): AllowList {
  if (cachedAllow?.raw === raw) return cachedAllow.list;
  const list = parseAllowHosts(raw);
  cachedAllow = { raw, list };
  return list;
}

/** An allow list from its comma-separated text (hosts, IPs, CIDRs; malformed entries are skipped). */
export function parseAllowHosts(raw: string): AllowList {
  const hosts = new Set<string>();
  const cidrs: AllowList["cidrs"] = [];
  for (const item of raw
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean)) {
    try {
      if (item.includes("/")) cidrs.push(ipaddr.parseCIDR(item));
      else if (ipaddr.isValid(item)) {
        const a = ipaddr.parse(item);
        cidrs.push([a, a.kind() === "ipv4" ? 32 : 128]);
      } else hosts.add(item.replace(/\.$/, ""));
    } catch {
      /* ignore a malformed entry */
    }
  }
  return { hosts, cidrs };
}

function inCidrs(a: ipaddr.IPv4 | ipaddr.IPv6, cidrs: AllowList["cidrs"]): boolean {
  return cidrs.some(([net, bits]) => net.kind() === a.kind() && a.match([net, bits] as never));
}

/** ipaddr.js's range names as a sentence says them, with their article ("a loopback", "a link-local"). */
const RANGE_WORDS: Record<string, string> = {
  loopback: "a loopback",
  private: "a private",
  linkLocal: "a link-local",
  uniqueLocal: "a unique-local (private IPv6)",
  carrierGradeNat: "a carrier-grade NAT",
  unspecified: "an unspecified",
  broadcast: "a broadcast",
  multicast: "a multicast",
  reserved: "a reserved",
  ipv4Mapped: "an IPv4-mapped",
};

/** Ranges without words of their own keep ipaddr.js's name: "a special-purpose (teredo)". */
function rangeWords(range: string): string {
  return RANGE_WORDS[range] ?? `a special-purpose (${range})`;
}

/** Why an address may not be reached, or undefined when it may. IPv4-mapped/compatible forms count as IPv4. */
export function addressProblem(address: string, allow: AllowList = allowList()): string | undefined {
  let a: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    a = ipaddr.process(address);
  } catch {
    return `"${address}" is not an IP address`;
  }
  if (inCidrs(a, allow.cidrs)) return undefined;
  if (a.kind() === "ipv6") {
    const v6 = a as ipaddr.IPv6;
    // ::a.b.c.d (IPv4-compatible) and NAT64 64:ff9b::/96 embed an IPv4 address.
    const parts = v6.parts;
    if (parts.slice(0, 6).every((p) => p === 0)) return `${address} is an IPv4-compatible IPv6 address`;
  }
  const range = a.range();
  if (range !== "unicast") return `${address} is ${rangeWords(range)} address, not a public one`;
  if (BLOCKED_CIDRS.some(([net, bits]) => net.kind() === a.kind() && a.match([net, bits] as never)))
    return `${address} is a cloud metadata endpoint`;
  return undefined;
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/**
 * The one wording of a refusal that the allow list can lift: what the guard found, then how an operator
 * lets a receiver of their own on a private network through (OUTBOUND_ALLOW_HOSTS, naming the host).
 * Every user-entered outbound URL (webhooks, crawls, …) is refused with it, so the message reads the same.
 */
export function allowListRefusal(what: string, host: string): string {
  return (
    `${what}. To reach a self-hosted receiver or service there, the server's operator can add ${host} ` +
    "to OUTBOUND_ALLOW_HOSTS (a comma list of hosts or CIDRs) and restart"
  );
}

/** Hostname as the URL parser left it, without brackets and a trailing dot. */
export function bareHost(u: URL): string {
  return u.hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();
}

/** Resolves a name with the configured resolver (DNS_SERVERS), else the system's. */
export async function resolveAll(host: string): Promise<string[]> {
  if (outboundEnv.dnsServers) {
    const r = dnsResolver();
    const [v4, v6] = await Promise.all([r.resolve4(host).catch(() => [] as string[]), r.resolve6(host).catch(() => [] as string[])]);
    return [...v4, ...v6];
  }
  return (await lookup(host, { all: true })).map((x) => x.address);
}

/**
 * Checks a URL before it is saved: http(s) only, no blocked name, and every address it resolves to
 * public (any notation the URL parser accepts — decimal, octal, hex, short IPv4, IPv6 forms, IDN — is
 * normalised first). Checked again at connect time by the safe HTTP client.
 */
export async function checkOutboundUrl(raw: string, allow: AllowList = allowList()): Promise<UrlCheck> {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return { ok: false, reason: "is not a valid URL" };
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return { ok: false, reason: "must be an http or https URL" };
  if (u.username || u.password) return { ok: false, reason: "must not contain credentials" };
  const host = bareHost(u);
  if (allow.hosts.has(host)) return { ok: true, url: u };
  if (ipaddr.isValid(host)) {
    const p = addressProblem(host, allow);
    return p ? { ok: false, reason: allowListRefusal(`points at a private or reserved address (${p})`, host) } : { ok: true, url: u };
  }
  if (BLOCKED_NAMES.some((re) => re.test(host)))
    return { ok: false, reason: allowListRefusal(`points at an internal host name (${host})`, host) };
  let addresses: string[];
  try {
    addresses = await resolveAll(host);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0) return { ok: false, reason: `host ${host} does not resolve` };
  for (const a of addresses) {
    const p = addressProblem(a, allow);
    if (p) return { ok: false, reason: allowListRefusal(`resolves to a private or reserved address (${p})`, host) };
  }
  return { ok: true, url: u };
}
