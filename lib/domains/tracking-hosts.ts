import { eq } from "drizzle-orm";
import { getDb, resolveDatabaseUrl } from "../../db/client";
import { trackingDomains } from "../../db/schema";
import { currentClock } from "../clock";
import { appUrl, configuredAppUrl } from "../env";

/** How long the list of verified tracking domains is reused in this process (a newly verified domain answers within it). */
export const TRACKING_HOSTS_TTL_MS = 30_000;

/** Names the installation answers tracking links on when APP_URL is not set (it then knows no public host of its own). */
const LOOPBACK = new Set(["localhost", "127.0.0.1", "::1"]);

let cache: { at: number; hosts: Promise<Set<string>> } | undefined;

/** The Host header's name: lower-case, without port, brackets of an IPv6 literal or a trailing dot. */
export function hostName(host: string): string {
  const h = host.trim().toLowerCase();
  const name = h.startsWith("[") ? h.slice(1, h.indexOf("]") > 0 ? h.indexOf("]") : undefined) : h.replace(/:\d*$/, "");
  return name.replace(/\.$/, "");
}

async function readVerified(): Promise<Set<string>> {
  await resolveDatabaseUrl();
  const rows = await getDb().select({ domain: trackingDomains.domain }).from(trackingDomains).where(eq(trackingDomains.status, "VERIFIED"));
  return new Set(rows.map((r) => r.domain));
}

/** Every VERIFIED tracking domain of the installation, read at most once per TRACKING_HOSTS_TTL_MS. */
function verifiedHosts(now = currentClock().now().getTime()): Promise<Set<string>> {
  if (!cache || now - cache.at >= TRACKING_HOSTS_TTL_MS || now < cache.at) {
    const hosts = readVerified();
    cache = { at: now, hosts };
    // A failed read is not kept: the next request asks again.
    hosts.catch(() => {
      if (cache?.hosts === hosts) cache = undefined;
    });
  }
  return cache.hosts;
}

/** Forgets the cached list (a domain was verified, failed, made default or deleted in this process). */
export function forgetTrackingHosts(): void {
  cache = undefined;
}

/**
 * Whether the open pixel, click redirect and unsubscribe page may answer a request for `host` (the
 * Host header, with or without port): APP_URL's own host, or a VERIFIED tracking domain of any
 * workspace. A missing Host header (HTTP/1.0) counts as APP_URL's host. Without APP_URL, loopback
 * names count as the installation's own too. Anything else gets a 404, so that a name someone merely
 * points at this server does not serve a workspace's links.
 */
export async function trackingHostAllowed(host: string | undefined | null): Promise<boolean> {
  if (!host?.trim()) return true;
  const name = hostName(host);
  if (name === new URL(appUrl()).hostname.toLowerCase()) return true;
  if (!configuredAppUrl() && LOOPBACK.has(name)) return true;
  return (await verifiedHosts()).has(name);
}

/** The Host a route handler's request was made for (Next fills it from the request line or the header). */
export function requestHost(req: Request): string | undefined {
  return req.headers.get("host") ?? undefined;
}
