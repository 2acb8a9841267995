import { getDb, resolveDatabaseUrl } from "../../db/client";
import { currentClock } from "../clock";
import { readToken } from "../sending/tracking";
import { trackingWriter } from "./tracking-writer";

/**
 * The answers of the open pixel (`/t/o/<token>`) and the click redirect (`/t/c/<token>?url=…`), as
 * plain status, headers and bytes: the route handlers (app/t/**, what `next dev` serves) wrap them in a
 * Response, the production server's fast path (lib/cli/web-server.ts) writes them straight to the
 * socket, so both answer the same bytes and record through the same writer.
 */
export interface TrackingAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer<ArrayBuffer> | null;
}

/** A 1×1 transparent GIF. */
export const PIXEL = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

const PIXEL_ANSWER: TrackingAnswer = {
  status: 200,
  headers: { "Content-Type": "image/gif", "Cache-Control": "no-store, max-age=0" },
  body: PIXEL,
};
const NOT_VALID = Buffer.from("This link is not valid.");
const BAD_LINK: TrackingAnswer = {
  status: 404,
  headers: { "Content-Type": "text/plain; charset=utf-8" },
  body: NOT_VALID,
};

const writer = () =>
  trackingWriter(async () => {
    await resolveDatabaseUrl();
    return getDb();
  });

/**
 * The open pixel: no auth, always the image (a bad token just records nothing). The hit is queued for
 * the tracking writer (lib/analytics/tracking-writer.ts), which writes opens in groups; the first open
 * of an email still fires email.opened exactly once.
 */
export async function openAnswer(token: string): Promise<TrackingAnswer> {
  const emailId = readToken("open", token);
  if (emailId) await writer().record({ emailId, kind: "OPEN", url: null, at: currentClock().now() });
  return PIXEL_ANSWER;
}

/**
 * The click redirect: only to the URL that was in the email (its MAC is in the token), taken from the
 * query's `url` (`search` with or without its "?", decoded as a form: what URL.searchParams gives).
 * Anything else — no url, not http(s), a wrong MAC — is a 404 that records nothing. The first click of
 * an email fires email.clicked once.
 */
export async function clickAnswer(token: string, search: string): Promise<TrackingAnswer> {
  const url = new URLSearchParams(search).get("url") ?? "";
  const emailId = /^https?:\/\//i.test(url) ? readToken("click", token, url) : undefined;
  if (!emailId) return BAD_LINK;
  await writer().record({ emailId, kind: "CLICK", url, at: currentClock().now() });
  return { status: 302, headers: { Location: url, "Cache-Control": "no-store" }, body: null };
}

/** Writes every hit recorded so far (tests; a server that stops). */
export function flushTracking(): Promise<void> {
  return writer().flush();
}
