import { hostName, trackingHostAllowed } from "@/lib/domains/tracking-hosts";

export const dynamic = "force-dynamic";

/**
 * The question a TLS-terminating proxy asks before it requests a certificate on demand (Caddy's
 * `on_demand_tls { ask … }`): `GET /api/tls-ask?domain=<name>` answers 200 for APP_URL's host and
 * for every VERIFIED tracking domain, and 404 for any other name, so a name someone merely points at
 * the server gets no certificate. A missing or malformed name is a 400.
 */
export async function GET(req: Request) {
  const raw = new URL(req.url).searchParams.get("domain")?.trim() ?? "";
  const name = raw ? hostName(raw) : "";
  if (!name || name.length > 253 || !/^[a-z0-9.:-]+$/.test(name)) {
    return new Response("A domain name is needed: ?domain=track.example.com\n", { status: 400 });
  }
  const allowed = await trackingHostAllowed(name);
  return new Response(allowed ? "ok\n" : "Not a verified tracking domain\n", {
    status: allowed ? 200 : 404,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
  });
}
