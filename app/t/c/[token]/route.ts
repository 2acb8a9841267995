import { clickAnswer } from "@/lib/analytics/tracking-answer";

export const dynamic = "force-dynamic";

/**
 * The click redirect: 302 to the URL that was in the email, or 404 (lib/analytics/tracking-answer.ts,
 * shared with the production server's fast path, which answers these paths before Next in `npm start`).
 */
export async function GET(req: Request, ctx: { params: Promise<{ token: string }> }) {
  const a = await clickAnswer((await ctx.params).token, new URL(req.url).search);
  return new Response(a.body, { status: a.status, headers: a.headers });
}
