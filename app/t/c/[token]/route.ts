import { getDb, resolveDatabaseUrl } from "@/db/client";
import { currentClock } from "@/lib/clock";
import { readToken } from "@/lib/sending/tracking";
import { recordClick } from "@/lib/sending/track";

export const dynamic = "force-dynamic";

/** The click redirect: only to the URL that was in the email (its MAC is in the token). */
export async function GET(req: Request, ctx: { params: Promise<{ token: string }> }) {
  const { token } = await ctx.params;
  const url = new URL(req.url).searchParams.get("url") ?? "";
  const emailId = /^https?:\/\//i.test(url) ? readToken("click", token, url) : undefined;
  if (!emailId) return new Response("This link is not valid.", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  await resolveDatabaseUrl();
  await recordClick(getDb(), currentClock(), emailId, url).catch((e) => console.error("[track] click", e));
  return new Response(null, { status: 302, headers: { Location: url, "Cache-Control": "no-store" } });
}
