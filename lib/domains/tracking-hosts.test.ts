import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { trackingDomains } from "@/db/schema";
import { newId } from "@/lib/ids";
import { makeWorkspace } from "@/test/helpers";
import { GET as OPEN } from "@/app/t/o/[token]/route";
import { GET as CLICK } from "@/app/t/c/[token]/route";
import { GET as UNSUB_PAGE, POST as UNSUB } from "@/app/u/[token]/route";
import { GET as TLS_ASK } from "@/app/api/tls-ask/route";
import { clickToken, openToken, unsubscribeToken } from "@/lib/sending/tracking";
import { forgetTrackingHosts, hostName, trackingHostAllowed } from "./tracking-hosts";

const saved = process.env.APP_URL;
const emailId = "eml_nosuchemail0000000000";
const target = "https://example.com/page";

beforeAll(async () => {
  process.env.APP_URL = "https://app.hosts.test";
  const ws = await makeWorkspace();
  const row = (domain: string, status: "VERIFIED" | "PENDING" | "FAILING") => ({
    id: newId("tdm"),
    workspaceId: ws.workspaceId,
    domain,
    cnameTarget: "app.hosts.test",
    status,
    verifiedAt: status === "PENDING" ? null : new Date(),
  });
  await getDb()
    .insert(trackingDomains)
    .values([row("track.hosts.test", "VERIFIED"), row("pending.hosts.test", "PENDING"), row("failing.hosts.test", "FAILING")]);
  forgetTrackingHosts();
});
afterAll(() => {
  if (saved === undefined) delete process.env.APP_URL;
  else process.env.APP_URL = saved;
});

/** A request as Next hands it to the route, with the Host header a client sent (none for HTTP/1.0). */
function req(path: string, host: string | undefined, method = "GET") {
  return new Request(`http://internal${path}`, { method, headers: host ? { host } : {} });
}
const params = (token: string) => ({ params: Promise.resolve({ token }) });

describe("hosts the tracking paths answer on", () => {
  it("reads the Host header's name without port, brackets or trailing dot", () => {
    expect(hostName("Track.Hosts.Test.:8443")).toBe("track.hosts.test");
    expect(hostName("[::1]:3000")).toBe("::1");
    expect(hostName("app.hosts.test")).toBe("app.hosts.test");
  });

  it("allows APP_URL's host, a VERIFIED tracking domain and a missing Host; refuses PENDING, FAILING and unknown hosts", async () => {
    expect(await trackingHostAllowed("app.hosts.test:443")).toBe(true);
    expect(await trackingHostAllowed("TRACK.hosts.test")).toBe(true);
    expect(await trackingHostAllowed(undefined)).toBe(true);
    expect(await trackingHostAllowed("")).toBe(true);
    for (const h of ["pending.hosts.test", "failing.hosts.test", "evil.test", "localhost"])
      expect(await trackingHostAllowed(h), h).toBe(false);
  });

  it("404s the open pixel, the click redirect and the unsubscribe page and button on an unknown host, through the route handlers", async () => {
    const open = `/t/o/${openToken(emailId)}`;
    const click = `/t/c/${clickToken(emailId, target)}?url=${encodeURIComponent(target)}`;
    const unsub = `/u/${unsubscribeToken(emailId)}`;
    for (const host of ["evil.test", "pending.hosts.test"]) {
      expect((await OPEN(req(open, host), params(openToken(emailId)))).status, host).toBe(404);
      expect((await CLICK(req(click, host), params(clickToken(emailId, target)))).status, host).toBe(404);
      expect((await UNSUB_PAGE(req(unsub, host), params(unsubscribeToken(emailId)))).status, host).toBe(404);
      expect((await UNSUB(req(unsub, host, "POST"), params(unsubscribeToken(emailId)))).status, host).toBe(404);
    }
    for (const host of ["app.hosts.test", "track.hosts.test", undefined]) {
      const pixel = await OPEN(req(open, host), params(openToken(emailId)));
      expect(pixel.status, String(host)).toBe(200);
      expect(pixel.headers.get("content-type")).toContain("image/gif");
      const redirect = await CLICK(req(click, host), params(clickToken(emailId, target)));
      expect(redirect.status, String(host)).toBe(302);
      expect(redirect.headers.get("location")).toBe(target);
      expect((await UNSUB_PAGE(req(unsub, host), params(unsubscribeToken(emailId)))).status, String(host)).toBe(200);
    }
  });

  it("answers a TLS proxy's on-demand question: 200 for APP_URL's host and VERIFIED domains, 404 for the rest, 400 without a name", async () => {
    const ask = (q: string) => TLS_ASK(new Request(`http://internal/api/tls-ask${q}`));
    for (const d of ["app.hosts.test", "track.hosts.test", "TRACK.hosts.test."]) expect((await ask(`?domain=${d}`)).status, d).toBe(200);
    for (const d of ["pending.hosts.test", "failing.hosts.test", "evil.test"]) expect((await ask(`?domain=${d}`)).status, d).toBe(404);
    for (const q of ["", "?domain=", "?domain=a%20b", `?domain=${"a".repeat(300)}`]) expect((await ask(q)).status, q).toBe(400);
  });
});
