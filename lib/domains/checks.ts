import { mapLimit } from "../concurrency";
import { resolveMx, resolveTxt } from "../net/dns";
import { addressesOf, DNSBL_CONCURRENCY, type DnsblTargetType, dnsblZones, lookupDnsbl, verdictOf } from "./dnsbl";

export type CheckStatus = "PASS" | "WARN" | "FAIL" | "MISSING" | "UNCHECKED";
export interface CheckResult {
  status: CheckStatus;
  record: string | null;
  reason: string;
  [k: string]: unknown;
}

/** What a provider's SPF must include, and the DKIM selectors it publishes. */
const PROVIDER_DNS: Record<string, { spf: string[]; dkim: string[] }> = {
  GOOGLE: { spf: ["_spf.google.com"], dkim: ["google"] },
  MICROSOFT: { spf: ["spf.protection.outlook.com"], dkim: ["selector1", "selector2"] },
  YAHOO: { spf: ["_spf.mail.yahoo.com"], dkim: ["s1024", "s2048"] },
  ZOHO: { spf: ["zoho.com", "zohomail.com", "zoho.eu", "zoho.in"], dkim: ["zmail", "zoho"] },
  ICLOUD: { spf: ["icloud.com"], dkim: ["sig1"] },
  FASTMAIL: { spf: ["spf.messagingengine.com"], dkim: ["fm1", "fm2", "fm3"] },
};
const COMMON_SELECTORS = ["default", "dkim", "mail", "k1", "s1", "s2", "selector1", "selector2", "google"];

const SPF_LOOKUP_LIMIT = 10;

/** DNS-querying mechanisms and modifiers of an SPF record (RFC 7208 4.6.4), recursing into include/redirect. */
async function countSpfLookups(record: string, depth: number, seen: Set<string>): Promise<number> {
  let n = 0;
  for (const term of record.split(/\s+/).slice(1)) {
    const t = term.replace(/^[+\-~?]/, "").toLowerCase();
    const m = /^(include:|redirect=)(.+)$/.exec(t);
    if (m) {
      n += 1;
      const target = m[2];
      if (depth < 10 && !seen.has(target)) {
        seen.add(target);
        const txt = await resolveTxt(target);
        const inner = txt.ok ? txt.records.find((r) => /^v=spf1(\s|$)/i.test(r)) : undefined;
        if (inner) n += await countSpfLookups(inner, depth + 1, seen);
      }
    } else if (/^(a|mx|ptr)(:|\/|$)/.test(t) || t.startsWith("exists:")) {
      n += 1;
    }
  }
  return n;
}

export async function checkSpf(domain: string, providers: string[]): Promise<CheckResult> {
  const txt = await resolveTxt(domain);
  if (!txt.ok) return { status: "WARN", record: null, reason: `Could not read the SPF record: ${txt.error}` };
  const spf = txt.records.filter((r) => /^v=spf1(\s|$)/i.test(r));
  const expected = providers.flatMap((p) => PROVIDER_DNS[p]?.spf.slice(0, 1) ?? []);
  if (spf.length === 0) {
    const add = expected.length ? ` Add a TXT record on ${domain}: "v=spf1 ${expected.map((e) => `include:${e}`).join(" ")} ~all".` : "";
    return { status: "MISSING", record: null, reason: `No SPF record: receivers cannot tell which servers may send for ${domain}.${add}` };
  }
  if (spf.length > 1)
    return {
      status: "FAIL",
      record: spf.join(" | "),
      reason: "More than one SPF record; receivers treat that as a permanent error. Merge them into one.",
    };
  const record = spf[0];
  const lookups = await countSpfLookups(record, 0, new Set());
  if (lookups > SPF_LOOKUP_LIMIT) {
    return {
      status: "FAIL",
      record,
      lookups,
      reason:
        `The SPF record needs ${lookups} DNS look-ups; the limit is ${SPF_LOOKUP_LIMIT}, so receivers fail it. ` +
        "Remove includes you no longer use.",
    };
  }
  const all = /(^|\s)([+\-~?]?)all(\s|$)/i.exec(record);
  if (all && (all[2] === "+" || all[2] === ""))
    return {
      status: "FAIL",
      record,
      lookups,
      reason: `"${all[0].trim()}" lets any server send as ${domain}. End the record with ~all or -all.`,
    };
  const lower = record.toLowerCase();
  const missing = providers.filter((p) => PROVIDER_DNS[p] && !PROVIDER_DNS[p].spf.some((inc) => lower.includes(`include:${inc}`)));
  if (missing.length) {
    const inc = missing.map((p) => `include:${PROVIDER_DNS[p].spf[0]}`).join(" ");
    return {
      status: "WARN",
      record,
      lookups,
      reason: `The SPF record does not include your mail provider (${missing.join(", ")}); add ${inc}.`,
    };
  }
  if (!all || all[2] === "?")
    return { status: "WARN", record, lookups, reason: "The SPF record has no ~all or -all at the end, so it protects nothing." };
  return { status: "PASS", record, lookups, reason: `SPF is valid (${lookups} of ${SPF_LOOKUP_LIMIT} look-ups).` };
}

export async function checkDkim(domain: string, providers: string[], userSelectors: string[]): Promise<CheckResult> {
  const selectors = [...new Set([...userSelectors, ...providers.flatMap((p) => PROVIDER_DNS[p]?.dkim ?? []), ...COMMON_SELECTORS])];
  const answers = await Promise.all(selectors.map(async (s) => ({ selector: s, txt: await resolveTxt(`${s}._domainkey.${domain}`) })));
  const found = answers.flatMap((a) =>
    a.txt.ok ? a.txt.records.filter((r) => /(^|;)\s*(v=DKIM1|p=)/i.test(r)).map((r) => ({ selector: a.selector, record: r })) : [],
  );
  const live = found.filter((f) => /(^|;)\s*p=[A-Za-z0-9+/=]{16,}/.test(f.record.replace(/\s+/g, "")));
  if (live.length) {
    return {
      status: "PASS",
      record: live[0].record,
      selectors: live.map((l) => l.selector),
      reason: `DKIM key published at selector ${live.map((l) => l.selector).join(", ")}.`,
    };
  }
  if (found.length)
    return {
      status: "FAIL",
      record: found[0].record,
      selectors: found.map((f) => f.selector),
      reason: `The DKIM record at selector ${found[0].selector} has an empty key (revoked). Publish the key your provider gives you.`,
    };
  const errors = answers.filter((a) => !a.txt.ok);
  if (errors.length === answers.length) return { status: "WARN", record: null, reason: "Could not read DKIM records (DNS errors)." };
  return {
    status: "MISSING",
    record: null,
    tried: selectors,
    reason:
      `No DKIM key found (tried selectors ${selectors.join(", ")}). ` +
      "Turn on DKIM signing at your mail provider and publish its TXT record, or add your selector to the domain.",
  };
}

export async function checkDmarc(domain: string): Promise<CheckResult> {
  const txt = await resolveTxt(`_dmarc.${domain}`);
  if (!txt.ok) return { status: "WARN", record: null, reason: `Could not read the DMARC record: ${txt.error}` };
  const recs = txt.records.filter((r) => /^v=DMARC1(\s*;|$)/i.test(r.trim()));
  if (recs.length === 0)
    return {
      status: "MISSING",
      record: null,
      reason:
        `No DMARC record. Add a TXT record on _dmarc.${domain}, ` +
        `for example "v=DMARC1; p=none; rua=mailto:dmarc@${domain}", and tighten p= later.`,
    };
  if (recs.length > 1)
    return { status: "FAIL", record: recs.join(" | "), reason: "More than one DMARC record; receivers ignore them all. Keep one." };
  const record = recs[0];
  const p = /(?:^|;)\s*p\s*=\s*([a-z]+)/i.exec(record)?.[1]?.toLowerCase();
  if (!p) return { status: "FAIL", record, reason: "The DMARC record has no p= policy tag, so it is invalid." };
  if (p === "none")
    return {
      status: "WARN",
      record,
      policy: p,
      reason: "DMARC policy is p=none (monitoring only). It is enough to start; move to quarantine when reports are clean.",
    };
  if (p === "quarantine" || p === "reject") return { status: "PASS", record, policy: p, reason: `DMARC policy is p=${p}.` };
  return { status: "FAIL", record, reason: `Unknown DMARC policy p=${p}.` };
}

export async function checkMx(domain: string): Promise<CheckResult & { hosts: string[] }> {
  const mx = await resolveMx(domain);
  if (!mx.ok) return { status: "WARN", record: null, hosts: [], reason: `Could not read MX records: ${mx.error}` };
  if (mx.records.length === 0)
    return { status: "MISSING", record: null, hosts: [], reason: `No MX records: replies to ${domain} cannot be delivered.` };
  const hosts = mx.records.map((r) => r.exchange.replace(/\.$/, ""));
  return {
    status: "PASS",
    record: mx.records.map((r) => `${r.priority} ${r.exchange}`).join(", "),
    hosts,
    reason: `Mail for ${domain} goes to ${hosts[0]}.`,
  };
}

/** One target's blocklist verdict in a domain check: listed somewhere, clean on every zone, or not known. */
export interface BlacklistTargetVerdict {
  target: string;
  type: DnsblTargetType;
  listedOn: { zone: string; answer: string }[];
  /** Every zone answered and none listed it: a check that may close an earlier BLACKLISTED alert. */
  clean: boolean;
}

/**
 * The domain against the domain zones and the addresses of `hostsToCheck` against the IP zones,
 * through the look-up code the blacklist jobs use (./dnsbl). `verdicts` (per target) are what the
 * domain check raises and resolves BLACKLISTED alerts from; they are not stored with the check.
 */
export async function checkBlacklists(
  domain: string,
  hostsToCheck: string[],
): Promise<CheckResult & { listings: { zone: string; target: string; answer: string }[]; verdicts: BlacklistTargetVerdict[] }> {
  const zones = dnsblZones();
  const ips = await addressesOf(hostsToCheck.slice(0, 5));
  const queries = [
    ...zones.domain.map((zone) => ({ zone, target: domain, type: "domain" as const })),
    ...ips.flatMap((ip) => zones.ip.map((zone) => ({ zone, target: ip, type: "ip" as const }))),
  ];
  const answers = await mapLimit(queries, DNSBL_CONCURRENCY, async (q) => ({ ...q, a: await lookupDnsbl(q.target, q.type, q.zone) }));
  const listings = answers.flatMap((q) => (q.a.listed && q.a.answer ? [{ zone: q.zone, target: q.target, answer: q.a.answer }] : []));
  const targets = [{ target: domain, type: "domain" as const }, ...ips.map((ip) => ({ target: ip, type: "ip" as const }))];
  const verdicts = targets.map(({ target, type }) => ({
    target,
    type,
    ...verdictOf(answers.filter((q) => q.target === target).map((q) => ({ zone: q.zone, ...q.a }))),
  }));
  const addresses = ips.length ? ` and ${ips.join(", ")}` : "";
  const checked = `${zones.domain.length} domain and ${zones.ip.length} IP blocklists for ${domain}${addresses}`;
  if (listings.length) {
    return {
      status: "FAIL",
      record: null,
      listings,
      verdicts,
      reason:
        `Listed on ${listings.map((l) => `${l.zone} (${l.target})`).join(", ")}. ` +
        "Mail from listed domains or servers lands in spam; request delisting from each list.",
    };
  }
  if (answers.length && answers.every((q) => q.a.failed))
    return { status: "WARN", record: null, listings, verdicts, reason: `Could not query the blocklists (${checked}).` };
  return { status: "PASS", record: null, listings, verdicts, reason: `Not listed (checked ${checked}).` };
}
