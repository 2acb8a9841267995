import { Resolver } from "node:dns/promises";
import { jobsEnv, outboundEnv } from "../env";

/** Answers that mean "no such record" rather than "could not ask". */
const ABSENT = new Set(["ENODATA", "ENOTFOUND", "NXDOMAIN", "ENONAME"]);

export type DnsResult<T> = { ok: true; records: T[] } | { ok: false; error: string };

let cached: { key: string; resolver: Resolver } | undefined;

/** A resolver honouring DNS_SERVERS (comma list; `host` or `host:port`), else the system's. */
export function dnsResolver(): Resolver {
  const key = outboundEnv.dnsServers ?? "";
  if (cached?.key === key) return cached.resolver;
  const resolver = new Resolver({ timeout: jobsEnv.dnsTimeoutMs, tries: 2 });
  const servers = key
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (servers.length) resolver.setServers(servers);
  cached = { key, resolver };
  return resolver;
}

async function ask<T>(fn: () => Promise<T[]>): Promise<DnsResult<T>> {
  try {
    return { ok: true, records: await fn() };
  } catch (e) {
    const code = (e as { code?: string }).code ?? "";
    if (ABSENT.has(code)) return { ok: true, records: [] };
    return { ok: false, error: `${code || "DNS error"}: ${(e as Error).message}` };
  }
}

/** TXT records with their character-strings joined (as SPF/DKIM/DMARC readers expect). */
export function resolveTxt(name: string): Promise<DnsResult<string>> {
  return ask(async () => (await dnsResolver().resolveTxt(name)).map((chunks) => chunks.join("")));
}

export function resolveMx(name: string): Promise<DnsResult<{ exchange: string; priority: number }>> {
  return ask(async () => (await dnsResolver().resolveMx(name)).sort((a, b) => a.priority - b.priority));
}

export function resolveA(name: string): Promise<DnsResult<string>> {
  return ask(() => dnsResolver().resolve4(name));
}

/** CNAME targets of `name` (as the server answered, without a trailing dot). */
export function resolveCname(name: string): Promise<DnsResult<string>> {
  return ask(async () => (await dnsResolver().resolveCname(name)).map((t) => t.replace(/\.$/, "")));
}

export function resolveAaaa(name: string): Promise<DnsResult<string>> {
  return ask(() => dnsResolver().resolve6(name));
}
