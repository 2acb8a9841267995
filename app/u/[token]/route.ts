import { getDb, resolveDatabaseUrl } from "@/db/client";
import { currentClock } from "@/lib/clock";
import { requestHost, trackingHostAllowed } from "@/lib/domains/tracking-hosts";
import { readToken } from "@/lib/sending/tracking";
import { unsubscribeByEmail } from "@/lib/sending/track";

export const dynamic = "force-dynamic";

function page(title: string, body: string, status = 200) {
  const html = `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${title}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#111}button{font:inherit;padding:.5rem 1rem}</style></head><body>${body}</body></html>`;
  return new Response(html, { status, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
}

const NOT_FOUND = () => page("Not found", "<h1>Not found</h1>", 404);

/**
 * GET shows a confirmation (link scanners must not unsubscribe people by fetching links); POST — the
 * button, or a mail client's RFC 8058 one-click `List-Unsubscribe=One-Click` — unsubscribes. Both answer
 * 404 on a host that is neither APP_URL's nor a verified tracking domain.
 */
export async function GET(req: Request, ctx: { params: Promise<{ token: string }> }) {
  if (!(await trackingHostAllowed(requestHost(req)))) return NOT_FOUND();
  const { token } = await ctx.params;
  if (!readToken("unsub", token)) return page("Link not valid", "<h1>This link is not valid</h1>", 404);
  return page(
    "Unsubscribe",
    `<h1>Unsubscribe</h1><p>Stop receiving these emails?</p><form method="post"><button type="submit">Unsubscribe</button></form>`,
  );
}

export async function POST(req: Request, ctx: { params: Promise<{ token: string }> }) {
  if (!(await trackingHostAllowed(requestHost(req)))) return NOT_FOUND();
  const { token } = await ctx.params;
  const emailId = readToken("unsub", token);
  if (!emailId) return page("Link not valid", "<h1>This link is not valid</h1>", 404);
  await resolveDatabaseUrl();
  const r = await unsubscribeByEmail(getDb(), currentClock(), emailId);
  if (!r) return page("Link not valid", "<h1>This link is not valid</h1>", 404);
  return page(
    "Unsubscribed",
    `<h1>You are unsubscribed</h1><p>${r.address.replace(/[<>&"]/g, "")} will not receive these emails again.</p>`,
  );
}
