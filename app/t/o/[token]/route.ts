import { openAnswer, requestFacts } from "@/lib/analytics/tracking-answer";
import { requestHost, trackingHostAllowed } from "@/lib/domains/tracking-hosts";

export const dynamic = "force-dynamic";

/**
 * The open pixel: always the image; a valid token's open is recorded with what the request showed
 * (lib/analytics/tracking-answer.ts, shared with the production server's fast path, which answers these
 * paths before Next in `npm start`). HEAD answers the same headers and records a scanner's hit.
 */
export async function GET(req: Request, ctx: { params: Promise<{ token: string }> }) {
  // A host that is neither APP_URL's nor a verified tracking domain serves no workspace's links.
  if (!(await trackingHostAllowed(requestHost(req)))) return new Response("Not found", { status: 404 });
  const a = await openAnswer((await ctx.params).token, requestFacts(req));
  return new Response(req.method === "HEAD" ? null : a.body, { status: a.status, headers: a.headers });
}

export const HEAD = GET;
