import ipaddr from "ipaddr.js";
import type { EngagementClass, HitFacts } from "./engagement-facts";

/**
 * Who made a tracking hit — a person, a privacy prefetch (Apple Mail Privacy Protection), a security
 * scanner, or unknown (counted as a person) — from what the hit shows: its method and user agent, the
 * vendors' published address ranges, the time since the email was accepted, and the other hits around
 * it (every link of one email within seconds, one network over many leads). A pure function; the rules
 * run in order and the first that matches decides (its name is the hit's `reason`). docs/tracking.md
 * explains each rule and the corpus that measures them (npm run bench:engagement).
 */
export interface Verdict {
  class: EngagementClass;
  reason: string;
}

/** Image proxies that fetch when a person opens the email: their hits are people. */
const PERSON_PROXY = /GoogleImageProxy|ggpht\.com|YahooMailProxy|Yahoo Mail Proxy/i;
/** Apple's prefetching proxy sends exactly this user agent, nothing more. */
const APPLE_PREFETCH_UA = /^Mozilla\/5\.0$/;
/** Scripts, link checkers, previewers and the security vendors that name themselves. */
const MACHINE_UA = new RegExp(
  [
    "bot\\b",
    "bot/",
    "crawl",
    "spider",
    "slurp",
    "python",
    "curl/",
    "wget",
    "go-http-client",
    "java/",
    "okhttp",
    "libwww",
    "httpclient",
    "axios",
    "node-fetch",
    "undici",
    "^node$",
    "scrapy",
    "headlesschrome",
    "phantomjs",
    "barracuda",
    "mimecast",
    "proofpoint",
    "safelinks",
    "ironport",
    "trend ?micro",
    "symantec",
    "forcepoint",
    "zscaler",
    "bitdefender",
    "kaspersky",
    "sophos",
    "fortinet",
    "cisco",
    "microsoft office existence discovery",
    "skypeuripreview",
    "facebookexternalhit",
    "whatsapp",
    "preview",
    "scanner",
    "check_http",
    "monitor",
  ].join("|"),
  "i",
);
/** What a mail client or browser says it is. */
const CLIENT_UA = /Mozilla\/\d|Outlook|Thunderbird|Microsoft Office|Lotus-Notes|Opera|AppleWebKit|Gecko|Trident|Edg\//i;

/**
 * The address ranges the security gateways publish for their mail and link-scanning servers
 * (Microsoft Exchange Online Protection, Mimecast, Proofpoint, Barracuda, Cisco Secure Email).
 */
const SCANNER_RANGES = [
  "40.92.0.0/15",
  "40.107.0.0/16",
  "52.100.0.0/14",
  "104.47.0.0/17",
  "2a01:111:f400::/48",
  "2a01:111:f403::/48",
  "205.139.110.0/24",
  "207.211.30.0/24",
  "207.211.31.0/25",
  "170.10.128.0/24",
  "170.10.129.0/24",
  "170.10.132.0/24",
  "91.220.42.0/24",
  "195.130.217.0/24",
  "146.101.78.0/24",
  "185.58.84.0/22",
  "148.163.128.0/19",
  "67.231.144.0/20",
  "205.220.160.0/19",
  "64.235.144.0/20",
  "209.222.80.0/21",
  "68.232.128.0/19",
].map((r) => ipaddr.parseCIDR(r));
/** Apple's own network (its privacy proxy's egress is in it, as well as partners' ranges). */
const APPLE_RANGES = ["17.0.0.0/8"].map((r) => ipaddr.parseCIDR(r));

function inRanges(ip: string | null, ranges: ReturnType<typeof ipaddr.parseCIDR>[]): boolean {
  if (!ip || !ipaddr.isValid(ip)) return false;
  let addr = ipaddr.parse(ip);
  if (addr.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
  return ranges.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net, bits));
}

/** One network hitting at least this many other leads within a minute is a scanner. */
export const RANGE_LEADS = 5;
/** A click this soon after the email was accepted, with no open before it, is a gateway's. */
export const CLICK_ON_ARRIVAL_SECONDS = 60;
/** An open this soon after acceptance, among other hits of the email, is a gateway rendering it. */
export const OPEN_ON_ARRIVAL_SECONDS = 10;

type Rule = [reason: string, test: (f: HitFacts, ua: string) => boolean, cls: EngagementClass];

const RULES: Rule[] = [
  ["head-request", (f) => f.method === "HEAD", "scanner"],
  ["person-image-proxy", (_f, ua) => PERSON_PROXY.test(ua), "human"],
  ["apple-prefetch", (_f, ua) => APPLE_PREFETCH_UA.test(ua), "proxy"],
  ["apple-network-open", (f) => f.kind === "OPEN" && inRanges(f.ip, APPLE_RANGES), "proxy"],
  ["no-user-agent", (_f, ua) => ua === "", "scanner"],
  ["machine-user-agent", (_f, ua) => MACHINE_UA.test(ua), "scanner"],
  ["scanner-network", (f) => inRanges(f.ip, SCANNER_RANGES), "scanner"],
  ["every-link-at-once", (f) => f.otherLinksNearby >= (f.kind === "CLICK" ? 1 : 2), "scanner"],
  [
    "click-on-arrival",
    (f) => f.kind === "CLICK" && f.opensBefore === 0 && lessThan(f.secondsSinceSent, CLICK_ON_ARRIVAL_SECONDS),
    "scanner",
  ],
  ["network-over-many-leads", (f) => f.rangeEmailsNearby >= RANGE_LEADS, "scanner"],
  [
    "open-on-arrival",
    (f) => f.kind === "OPEN" && f.otherHitsNearby >= 1 && lessThan(f.secondsSinceSent, OPEN_ON_ARRIVAL_SECONDS),
    "scanner",
  ],
  ["mail-client-or-browser", (_f, ua) => CLIENT_UA.test(ua), "human"],
];

function lessThan(seconds: number | null, limit: number): boolean {
  return seconds !== null && seconds < limit;
}

/** The class of one hit and the rule that gave it. */
export function classifyHit(facts: HitFacts): Verdict {
  const ua = (facts.userAgent ?? "").trim();
  for (const [reason, test, cls] of RULES) if (test(facts, ua)) return { class: cls, reason };
  return { class: "unknown", reason: "no-rule" };
}

/** Whether a hit of this class counts as a person's open or click (unknown counts as a person). */
export function countsAsPerson(cls: EngagementClass): boolean {
  return cls === "human" || cls === "unknown";
}
