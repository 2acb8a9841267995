import ipaddr from "ipaddr.js";

/**
 * What one tracking hit shows, as the classifier sees it (lib/analytics/engagement.ts): the request
 * itself and its context among the other hits — of the same email, and from the same network — in a
 * few seconds either side. The tracking writer logs the request's part at once; the settling pass
 * (lib/analytics/tracking-settle.ts) adds the context once the hit is a few seconds old, so a burst is
 * seen whole.
 */
export interface HitFacts {
  kind: "OPEN" | "CLICK";
  method: "GET" | "HEAD";
  /** The User-Agent header as sent (null when absent). */
  userAgent: string | null;
  /** The client address (IPv4 or IPv6; null when unknown). */
  ip: string | null;
  /** Seconds from the email's acceptance by the receiving server (our SMTP 250) to this hit. */
  secondsSinceSent: number | null;
  /** Opens of this email before this hit, of any class. */
  opensBefore: number;
  /** Distinct other links of this email hit within BURST_SECONDS either side of this hit. */
  otherLinksNearby: number;
  /** Other hits (opens or clicks, any link) of this email within BURST_SECONDS either side. */
  otherHitsNearby: number;
  /**
   * Distinct other emails hit from the same network (IPv4 /24, IPv6 /48) around this hit: within
   * RANGE_SECONDS either side (the settling pass counts by clock minute: this hit's, the one before and
   * the one after).
   */
  rangeEmailsNearby: number;
}

/** A hit's context window on its own email: a gateway fetches every link of a message within this. */
export const BURST_SECONDS = 5;
/** A hit's context window on its network: one network over many leads in this window is a scanner. */
export const RANGE_SECONDS = 60;

export type EngagementClass = "human" | "proxy" | "scanner" | "unknown";

/** Address ranges that are not a client's own network on the internet. */
const NOT_PUBLIC = new Set(["loopback", "private", "linkLocal", "uniqueLocal", "unspecified", "carrierGradeNat"]);

/**
 * The network an address belongs to: an IPv4 /24 or an IPv6 /48, as text. Null when not an address,
 * and for loopback, private and link-local ones: behind a reverse proxy that sends no X-Forwarded-For,
 * every hit comes from the proxy's address, which says nothing about who made it.
 */
export function ipRangeOf(ip: string | null | undefined): string | null {
  if (!ip || !ipaddr.isValid(ip)) return null;
  const parsed = ipaddr.process(ip);
  if (NOT_PUBLIC.has(parsed.range())) return null;
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.\d{1,3}$/i.exec(ip);
  if (v4) return `${v4[1]}.${v4[2]}.${v4[3]}.0/24`;
  if (!ip.includes(":")) return null;
  const full = expandV6(ip);
  return full ? `${full.slice(0, 3).join(":")}::/48` : null;
}

/** An IPv6 address as its eight groups (lower-case, no leading zeros), or null when malformed. */
export function expandV6(ip: string): string[] | null {
  const [head, tail, extra] = ip.toLowerCase().split("::");
  if (extra !== undefined) return null;
  const a = head ? head.split(":") : [];
  const b = tail ? tail.split(":") : [];
  const fill = tail === undefined ? 0 : 8 - a.length - b.length;
  if (fill < 0 || (tail === undefined && a.length !== 8)) return null;
  const groups = [...a, ...Array(fill).fill("0"), ...b];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => g.replace(/^0+(?=.)/, ""));
}
