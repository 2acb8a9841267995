import type { ParsedMail } from "mailparser";
import type { DbOrTx } from "../../../db/client";
import type { Clock } from "../../clock";
import { serviceMailIds } from "../../warmup/known";
import { type Mailbox, prepareReplies } from "./intent";
import { ingestOwnMessages } from "./own";
import { clean } from "./parse";
import { planReplies } from "./plan";
import { type IngestResult, storeReplies } from "./store";

/**
 * Ingestion of messages read from a mailbox, in parts: parse (parse.ts: the message's fields, cleaned),
 * classify (intent.ts: the rules of ../classify.ts, or the AI provider), match (match.ts: who wrote
 * it, one read per batch), plan (plan.ts: rows and effects, decided before any transaction) and store
 * (store.ts: one statement per concern, in one transaction). Answers from the Sent folder: own.ts.
 */
export { type AiSwitch, type Mailbox, type PreparedReply, prepareReplies, type Received } from "./intent";
export { type Match, matchReplies } from "./match";
export { ingestOwnMessages } from "./own";
export { PARSE_OPTIONS, parseSource } from "./parse";
export { planReplies } from "./plan";
export { type FolderState, type IngestResult, type ReplyPlan, saveFolderState, storeReplies, writeReplies } from "./store";

/**
 * Stores one received message and applies what it means (see planReplies). Warmup traffic, placement
 * probes and our own messages are not stored (undefined).
 */
export async function ingestMessage(
  db: DbOrTx,
  clock: Clock,
  mb: Mailbox,
  m: ParsedMail,
  opts: { folder: string; uid?: number; uidValidity?: string /** read once per sync by the caller */; aiClassification?: boolean },
): Promise<IngestResult | undefined> {
  // Warmup mail and placement probes are the service's own, never a reply.
  if (m.messageId && (await serviceMailIds(db, [clean(m.messageId)])).size) return undefined;
  const received = [{ parsed: m, folder: opts.folder, uid: opts.uid, uidValidity: opts.uidValidity }];
  const [p] = await prepareReplies(db, mb, received, opts.aiClassification);
  if (!p) return undefined;
  const plan = await planReplies(db, clock, mb, [p]);
  const [r] = await storeReplies(db, clock, mb, plan);
  return r;
}

/** One Sent-folder message (see ingestOwnMessages). */
export async function ingestOwnMessage(db: DbOrTx, clock: Clock, mb: Mailbox, m: ParsedMail): Promise<string | undefined> {
  return (await ingestOwnMessages(db, clock, mb, [m]))[0];
}
