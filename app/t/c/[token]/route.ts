import { clickAnswer, requestFacts } from "@/lib/analytics/tracking-answer";
import { requestHost, trackingHostAllowed } from "@/lib/domains/tracking-hosts";

export const dynamic = "force-dynamic";

/**
 * The click redirect: 302 to the URL that was in the email, or 404 (lib/analytics/tracking-answer.ts,
 * shared with the production server's fast path, which answers these paths before Next in `npm start`).
 * The hit is recorded with what the request showed; HEAD (a scanner's) answers the same status.
 */
export async function GET(req: Request, ctx: { params: Promise<{ token: string }> }) {
  // A host that is neither APP_URL's nor a verified tracking domain serves no workspace's links.
  if (!(await trackingHostAllowed(requestHost(req)))) return new Response("Not found", { status: 404 });
  const a = await clickAnswer((await ctx.params).token, new URL(req.url).search, requestFacts(req));
  return new Response(req.method === "HEAD" ? null : a.body, { status: a.status, headers: a.headers });
}

export const HEAD = GET;
