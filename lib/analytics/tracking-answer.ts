import { sql } from "drizzle-orm";
import { type Db, getDb, resolveDatabaseUrl } from "../../db/client";
import { currentClock } from "../clock";
import { stderrLogger } from "../log";
import { readToken } from "../sending/tracking";
import { SETTLE_AFTER_MS, settleAllDue } from "./tracking-settle";
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

/** What a tracking request showed besides its token: the classifier's request facts. */
export interface TrackingRequest {
  method: "GET" | "HEAD";
  userAgent: string | null;
  ip: string | null;
}

const database = async (): Promise<Db> => {
  await resolveDatabaseUrl();
  return getDb();
};

/**
 * The settling pass runs SETTLE_AFTER_MS after a group of hits is written (one timer at a time), and
 * again while younger hits wait; the tracking-settle job is the backstop (hits of a process that died).
 */
let timer: NodeJS.Timeout | null = null;
let idleRounds = 0;
function scheduleSettle(): void {
  idleRounds = 0;
  if (timer) return;
  timer = setTimeout(runSettle, SETTLE_AFTER_MS + 250);
  timer.unref();
}
async function runSettle(): Promise<void> {
  try {
    const db = await database();
    const r = await settleAllDue(db, currentClock().now());
    const [{ waiting }] = await db.execute<{ waiting: boolean }>(
      sql`select exists (select 1 from email_events where settled_at is null and kind in ('OPEN', 'CLICK')) as waiting`,
    );
    idleRounds = r.settled ? 0 : idleRounds + 1;
    timer = waiting && idleRounds < 12 ? setTimeout(runSettle, SETTLE_AFTER_MS).unref() : null;
  } catch (e) {
    timer = null;
    stderrLogger.error("[track] could not settle hits", { error: String(e) });
  }
}

const writer = () => trackingWriter(database, scheduleSettle);

/**
 * The open pixel: no auth, always the image (a bad token just records nothing). The hit is queued for
 * the tracking writer (lib/analytics/tracking-writer.ts), which writes opens in groups; the first open
 * of an email still fires email.opened exactly once.
 */
export async function openAnswer(token: string, req: TrackingRequest): Promise<TrackingAnswer> {
  const emailId = readToken("open", token);
  if (emailId) await writer().record({ emailId, kind: "OPEN", url: null, at: currentClock().now(), ...req });
  return PIXEL_ANSWER;
}

/**
 * The click redirect: only to the URL that was in the email (its MAC is in the token), taken from the
 * query's `url` (`search` with or without its "?", decoded as a form: what URL.searchParams gives).
 * Anything else — no url, not http(s), a wrong MAC — is a 404 that records nothing. The first click of
 * an email fires email.clicked once.
 */
export async function clickAnswer(token: string, search: string, req: TrackingRequest): Promise<TrackingAnswer> {
  const url = new URLSearchParams(search).get("url") ?? "";
  const emailId = /^https?:\/\//i.test(url) ? readToken("click", token, url) : undefined;
  if (!emailId) return BAD_LINK;
  await writer().record({ emailId, kind: "CLICK", url, at: currentClock().now(), ...req });
  return { status: 302, headers: { Location: url, "Cache-Control": "no-store" }, body: null };
}

/**
 * Writes every hit recorded so far and settles every unsettled one, however young (tests; a server
 * that stops).
 */
export async function flushTracking(): Promise<void> {
  await writer().flush();
  await settleAllDue(await database(), currentClock().now(), { all: true });
}

/** The request facts of a web Request (the route handlers'). */
export function requestFacts(req: Request): TrackingRequest {
  const fwd = req.headers.get("x-forwarded-for");
  const ip = fwd ? fwd.split(",")[0].trim() : req.headers.get("x-real-ip");
  return { method: req.method === "HEAD" ? "HEAD" : "GET", userAgent: req.headers.get("user-agent"), ip: ip || null };
}
