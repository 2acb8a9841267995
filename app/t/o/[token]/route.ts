import { getDb, resolveDatabaseUrl } from "@/db/client";
import { trackingWriter } from "@/lib/analytics/tracking-writer";
import { currentClock } from "@/lib/clock";
import { readToken } from "@/lib/sending/tracking";

export const dynamic = "force-dynamic";

// A 1×1 transparent GIF.
const PIXEL = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
const HEADERS = { "Content-Type": "image/gif", "Cache-Control": "no-store, max-age=0" };

/**
 * The open pixel: no auth, always the image (a bad token just records nothing). Opens that arrive
 * together are written together (one transaction per group); the first open of an email still fires
 * email.opened exactly once (lib/analytics/tracking-writer.ts).
 */
export async function GET(_req: Request, ctx: { params: Promise<{ token: string }> }) {
  const { token } = await ctx.params;
  const emailId = readToken("open", token);
  if (emailId) {
    await resolveDatabaseUrl();
    await trackingWriter(getDb).record({ emailId, kind: "OPEN", url: null, at: currentClock().now() });
  }
  return new Response(PIXEL, { headers: HEADERS });
}
