import { getDb, resolveDatabaseUrl } from "@/db/client";
import { trackingWriter } from "@/lib/analytics/tracking-writer";
import { currentClock } from "@/lib/clock";
import { readToken } from "@/lib/sending/tracking";

export const dynamic = "force-dynamic";

/**
 * The click redirect: only to the URL that was in the email (its MAC is in the token). Clicks are
 * written in groups like opens; the first click of an email fires email.clicked once.
 */
export async function GET(req: Request, ctx: { params: Promise<{ token: string }> }) {
  const { token } = await ctx.params;
  const url = new URL(req.url).searchParams.get("url") ?? "";
  const emailId = /^https?:\/\//i.test(url) ? readToken("click", token, url) : undefined;
  if (!emailId) return new Response("This link is not valid.", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  await resolveDatabaseUrl();
  await trackingWriter(getDb).record({ emailId, kind: "CLICK", url, at: currentClock().now() });
  return new Response(null, { status: 302, headers: { Location: url, "Cache-Control": "no-store" } });
}
