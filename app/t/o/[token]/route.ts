import { getDb, resolveDatabaseUrl } from "@/db/client";
import { currentClock } from "@/lib/clock";
import { readToken } from "@/lib/sending/tracking";
import { recordOpen } from "@/lib/sending/track";

export const dynamic = "force-dynamic";

// A 1×1 transparent GIF.
const PIXEL = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

/** The open pixel: no auth, always the image (a bad token just records nothing). */
export async function GET(_req: Request, ctx: { params: Promise<{ token: string }> }) {
  const { token } = await ctx.params;
  const emailId = readToken("open", token);
  if (emailId) {
    await resolveDatabaseUrl();
    await recordOpen(getDb(), currentClock(), emailId).catch((e) => console.error("[track] open", e));
  }
  return new Response(PIXEL, { headers: { "Content-Type": "image/gif", "Cache-Control": "no-store, max-age=0" } });
}
