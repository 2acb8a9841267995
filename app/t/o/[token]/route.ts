import { openAnswer } from "@/lib/analytics/tracking-answer";

export const dynamic = "force-dynamic";

/**
 * The open pixel: always the image; a valid token's open is recorded (lib/analytics/tracking-answer.ts,
 * shared with the production server's fast path, which answers these paths before Next in `npm start`).
 */
export async function GET(_req: Request, ctx: { params: Promise<{ token: string }> }) {
  const a = await openAnswer((await ctx.params).token);
  return new Response(a.body, { status: a.status, headers: a.headers });
}
